/**
 * Each verb's help says what a shared flag does for that verb (issue 20 §6): per-verb wording is
 * data beside the flag's one declaration (`briefs` in flags.ts), and the help stricli prints for a
 * verb is that verb's wording, never another verb's.
 */
import { ok } from "node:assert/strict";
import * as F from "../../src/cli/flags.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { callStubbed as call } from "../helpers/cli_call.ts";

type Spec = { brief: string; briefs?: F.Briefs };

/** Route → key → spec, and each spec's routes. */
function usesOf(): Map<Spec, string[]> {
  const uses = new Map<Spec, string[]>();
  for (const [route, verb] of Object.entries(VERBS)) {
    for (const spec of Object.values(verb.flags) as Spec[]) {
      uses.set(spec, [...(uses.get(spec) ?? []), route]);
    }
  }
  return uses;
}

/** The help row of `--flag` in `help` (stricli prints one row per flag). */
function row(help: string, flag: string): string {
  const rows = help.slice(help.indexOf("\nFLAGS\n")).split("\n");
  const line = rows.find((l) => l.includes(`[${flag}]`) || l.includes(`[${flag}/`));
  ok(line !== undefined, `${flag} in\n${help}`);
  return line;
}

const kebab = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

Deno.test("per-verb wording is given only for verbs that have the flag", () => {
  const uses = usesOf();
  for (const [name, spec] of Object.entries(F) as [string, Spec][]) {
    for (const route of Object.keys(spec?.briefs ?? {})) {
      ok(uses.get(spec)?.includes(route), `--${name}: wording for ${route}, which lacks it`);
    }
  }
});

Deno.test("each verb's help shows its own wording of a shared flag, naming no other verb's", async () => {
  for (const [spec, routes] of usesOf()) {
    if (routes.length < 2) continue;
    for (const route of routes) {
      const key = Object.entries(VERBS[route].flags).find(([, s]) => s === spec)![0];
      const help = (await call([...route.split(" "), "--help"])).stdout;
      const shown = row(help, kebab(key));
      ok(shown.includes(F.briefOf(spec, route)), `${route} ${kebab(key)}: ${shown}`);
      // What a shared brief used to do: "(spawn: …)", "monitor: …; send --wait: …", "; prune …".
      for (const other of routes.filter((r) => r !== route)) {
        const leaf = escape(other.split(" ").at(-1)!);
        const names = new RegExp(`\\b${leaf}( --[a-z-]+)?:|; ${leaf}\\b`);
        ok(!names.test(shown), `${route} ${kebab(key)} describes ${other}: ${shown}`);
      }
    }
  }
});

Deno.test("the issue's examples: watch --session, --timeout-seconds, --force, spawn's defaults", async () => {
  const help = async (route: string) => (await call([...route.split(" "), "--help"])).stdout;
  const watch = row(await help("session watch"), "--session");
  ok(!watch.includes("lisa-") && !watch.includes("spawn"), watch);
  for (const route of ["session send", "session monitor", "session watch", "session smoke"]) {
    const line = row(await help(route), "--timeout-seconds");
    ok(!line.includes(";"), `${route}: one meaning, not a list: ${line}`);
  }
  for (const route of ["session merge", "session send", "session prune"]) {
    const line = row(await help(route), "--force");
    ok(!line.includes(";"), `${route}: ${line}`);
  }
  const spawn = await help("session spawn");
  ok(row(spawn, "--agent").includes("default and auto: claude"), row(spawn, "--agent"));
  ok(row(spawn, "--mode").includes("default and auto: interactive"), row(spawn, "--mode"));
  const detect = await help("session detect-nested");
  ok(row(detect, "--agent").includes("default and auto: codex"), row(detect, "--agent"));
  ok(!row(detect, "--prompt").includes("reads stdin"), "detect-nested reads no stdin");
});

Deno.test("the defaults the help states are the ones the code uses", async () => {
  const { DEFAULT_HEIGHT, DEFAULT_WIDTH } = await import("../../src/core/spawn/spawn_plan.ts");
  const { DEFAULT_HANDOFF_EVENTS } = await import("../../src/core/monitor/handoff.ts");
  const { DEFAULT_WAIT_TIMEOUT_SECONDS } = await import("../../src/core/turns/wait.ts");
  const { SMOKE_POLL_SECONDS } = await import("../../src/core/upkeep/smoke.ts");
  const { DEFAULT_MAX_POLLS } = await import("../../src/core/monitor/monitor.ts");
  ok(F.width.brief.includes(`default ${DEFAULT_WIDTH})`), F.width.brief);
  ok(F.height.brief.includes(`default ${DEFAULT_HEIGHT})`), F.height.brief);
  ok(F.briefOf(F.events, "session handoff").includes(`default ${DEFAULT_HANDOFF_EVENTS})`));
  ok(F.briefOf(F.timeoutSeconds, "session send").includes(`${DEFAULT_WAIT_TIMEOUT_SECONDS})`));
  ok(F.briefOf(F.pollInterval, "session smoke").includes(`default ${SMOKE_POLL_SECONDS})`));
  ok(F.maxPolls.brief.includes(`default ${DEFAULT_MAX_POLLS};`), F.maxPolls.brief);
});
