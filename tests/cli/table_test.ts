/**
 * The command table, verb by verb, without tmux: argv → the flags a verb receives (stub
 * implementations), help output against snapshots, and the JSON error contract for bad input.
 * `UPDATE_SNAPSHOTS=1 deno test -A tests/cli/table_test.ts` rewrites the help snapshots.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { LisaError } from "../../src/base/errors.ts";
import { fakeDeps } from "../helpers/fake_deps.ts";
import { callStubbed } from "../helpers/cli_call.ts";

const SNAPSHOTS = new URL("./snapshots/help/", import.meta.url).pathname;
const UPDATE = Deno.env.get("UPDATE_SNAPSHOTS") === "1";

const call = callStubbed;

Deno.test("argv reaches each verb as typed flags, kebab-case and --flag=value alike", async () => {
  const spawn = await call([
    "session",
    "spawn",
    "--agent=codex",
    "--mode",
    "exec",
    "--prompt",
    "fix it",
    "--width",
    "120",
    "--no-hooks",
    "--nested-policy",
    "force",
    "--json",
  ]);
  strictEqual(spawn.code, 0, spawn.stderr);
  deepStrictEqual(spawn.flags, {
    agent: "codex",
    mode: "exec",
    prompt: "fix it",
    width: 120,
    hooks: false,
    dangerouslySkipPermissions: true,
    nestedPolicy: "force",
    nestingIntent: "auto",
    json: true,
  });
  const monitor = await call([
    "session",
    "monitor",
    "--session",
    "lisa-a",
    "--stop-on-waiting",
    "false",
    "--until-state",
    "completed",
    "--poll-interval=0.5",
  ]);
  deepStrictEqual(monitor.flags, {
    session: "lisa-a",
    stopOnWaiting: false,
    untilState: "completed",
    pollInterval: 0.5,
    expect: "any",
  });
  const capture = await call([
    "session",
    "capture",
    "--session",
    "lisa-a",
    "--markers",
    "A, B,,C",
    "--lines",
    "5",
    "--json-min",
  ]);
  deepStrictEqual(capture.flags, {
    session: "lisa-a",
    markers: ["A", "B", "C"],
    lines: 5,
    jsonMin: true,
  });
  const completions = await call(["completions", "fish"]);
  deepStrictEqual(completions.args, ["fish", undefined]);
  const candidates = await call(["completions", "sessions", "app-"]);
  deepStrictEqual(candidates.args, ["sessions", "app-"]);
  const wait = await call([
    "session",
    "send",
    "--session",
    "lisa-a",
    "--text",
    "hi",
    "--wait",
    "--timeout-seconds",
    "90",
    "--json",
  ]);
  deepStrictEqual(wait.flags, {
    session: "lisa-a",
    text: "hi",
    wait: true,
    timeoutSeconds: 90,
    json: true,
  });
  const turns = await call(["session", "turns", "--session", "lisa-a", "--json"]);
  deepStrictEqual(turns.flags, { session: "lisa-a", json: true });
  const list = await call([
    "history",
    "list",
    "--all-projects",
    "--since",
    "2d",
    "--agent",
    "codex",
  ]);
  deepStrictEqual(list.flags, { allProjects: true, since: "2d", agent: "codex" });
  const show = await call(["history", "show", "lisa-a", "--json"]);
  deepStrictEqual([show.flags, show.args], [{ json: true }, ["lisa-a"]]);
  const search = await call(["history", "search", "parser bug"]);
  deepStrictEqual(search.args, ["parser bug"]);
});

Deno.test("every verb prints its help from the table, matching its snapshot", async () => {
  for (const route of ["", ...Object.keys(VERBS), "session"]) {
    const argv = [...(route === "" ? [] : route.split(" ")), "--help"];
    const r = await call(argv);
    strictEqual(r.code, 0, `${route}: ${r.stderr}`);
    ok(r.stdout.startsWith("USAGE\n"), `${route}: ${r.stdout}`);
    strictEqual(r.flags, undefined, `${route}: --help ran the verb`);
    const file = `${SNAPSHOTS}${route === "" ? "lisa" : route.replaceAll(" ", "_")}.txt`;
    if (UPDATE) Deno.writeTextFileSync(file, r.stdout);
    strictEqual(r.stdout, Deno.readTextFileSync(file), `help of "${route}" changed`);
  }
});

Deno.test("every verb answers bad input with a JSON error under --json, exit 1, verb not run", async () => {
  for (const route of Object.keys(VERBS)) {
    const words = route.split(" ");
    const unknown = await call([...words, "--definitely-not-a-flag", "--json"]);
    strictEqual(unknown.code, 1, route);
    strictEqual(unknown.flags, undefined, route);
    strictEqual(unknown.json?.ok, false, `${route}: ${unknown.stdout}`);
    strictEqual(unknown.json?.errorCode, "unknown_option", route);
    strictEqual(unknown.json?.stderrPolicy, "diagnostic", route);
    ok(String(unknown.json?.error).includes("--definitely-not-a-flag"), route);
    strictEqual(unknown.stderr, "", `${route}: nothing on stderr with --json`);
    // Every flag with a parser rejects a value it cannot read.
    for (const [key, spec] of Object.entries(VERBS[route].flags)) {
      if (spec.kind !== "parsed") continue;
      let accepts = true;
      try {
        spec.parse("bogus-value"); // free text and lists take any value
      } catch {
        accepts = false;
      }
      if (accepts) continue;
      const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      const bad = await call([...words, flag, "bogus-value", "--json"]).catch(() => null);
      ok(bad !== null, `${route} ${flag}`);
      strictEqual(bad.code, 1, `${route} ${flag}`);
      strictEqual(bad.flags, undefined, `${route} ${flag}`);
      ok(
        ["invalid_argument", "invalid_agent", "invalid_mode"].includes(
          String(bad.json?.errorCode),
        ),
        `${route} ${flag}: ${bad.stdout}`,
      );
      ok(String(bad.json?.error).startsWith(`${flag}:`), `${route} ${flag}: ${bad.json?.error}`);
    }
  }
});

Deno.test("without --json a bad call prints one line and a help hint on stderr", async () => {
  const r = await call(["session", "status", "--sesion", "x"]);
  strictEqual(r.code, 1);
  strictEqual(r.stdout, "");
  ok(r.stderr.startsWith("lisa: "), r.stderr);
  ok(r.stderr.includes("--session"), "did you mean --session");
  ok(r.stderr.includes("(see: lisa session status --help)"), r.stderr);
});

Deno.test("an unknown command is unknown_command with the closest command named", async () => {
  const r = await call(["session", "statsu", "--json"]);
  strictEqual(r.code, 1);
  deepStrictEqual(
    { code: r.json?.errorCode, error: r.json?.error },
    { code: "unknown_command", error: 'unknown command "statsu" (did you mean "status"?)' },
  );
});

Deno.test("a verb's LisaError becomes its code and exit code; anything else internal_error", async () => {
  const lisa = await call(["session", "status", "--session", "x", "--json"], () => {
    throw new LisaError("session_not_found", 'Session "x" was not found', { exitCode: 1 });
  });
  deepStrictEqual([lisa.code, lisa.json?.errorCode], [1, "session_not_found"]);
  const bug = await call(["session", "list", "--json"], () => {
    throw new TypeError("boom");
  });
  deepStrictEqual([bug.code, bug.json?.errorCode, bug.json?.error], [1, "internal_error", "boom"]);
});

Deno.test("a flag a verb needs and was not given is missing_argument", async () => {
  const r = await main(["session", "status", "--json"], fakeDeps({ io: new MemoryIo() }));
  strictEqual(r, 1);
});

Deno.test("--version and version agree", async () => {
  const flag = await call(["--version"]);
  strictEqual(flag.code, 0);
  ok(/^\d+\.\d+\.\d+\n$/.test(flag.stdout), flag.stdout);
});

Deno.test("every flag is declared once: one spec per flag name across all verbs, all from flags.ts", async () => {
  const flagsModule = await import("../../src/cli/flags.ts");
  const declared = new Set(Object.values(flagsModule));
  // The one name with a second spec, and the only verb that takes it: skill install's --agent
  // takes `all`, which is no agent and which no other verb may accept.
  const variants = new Map<unknown, { key: string; route: string }>([
    [flagsModule.skillAgent, { key: "agent", route: "skill install" }],
  ]);
  const byName = new Map<string, unknown>();
  for (const [route, verb] of Object.entries(VERBS)) {
    for (const [key, spec] of Object.entries(verb.flags)) {
      ok(declared.has(spec), `${route} --${key}: not a flag of flags.ts`);
      const variant = variants.get(spec);
      if (variant !== undefined) {
        deepStrictEqual({ key, route }, variant, `${route} --${key}: a variant spec elsewhere`);
        continue;
      }
      const seen = byName.get(key);
      ok(seen === undefined || seen === spec, `--${key} has two declarations`);
      byName.set(key, spec);
    }
  }
  // No flag spec is written anywhere else in src/cli.
  for (const entry of Deno.readDirSync(new URL("../../src/cli/", import.meta.url))) {
    if (!entry.isFile || entry.name === "flags.ts") continue;
    const text = Deno.readTextFileSync(new URL(`../../src/cli/${entry.name}`, import.meta.url));
    ok(!/^\s*kind: "(parsed|boolean)",$/m.test(text), `${entry.name} declares a flag`);
  }
});

Deno.test("every verb receives every one of its flags from argv", async () => {
  for (const [route, verb] of Object.entries(VERBS)) {
    const argv = route.split(" ");
    const expected: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(verb.flags)) {
      const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      if (spec.kind === "boolean") {
        argv.push(spec.default === true ? `--no-${flag.slice(2)}` : flag);
        expected[key] = spec.default !== true;
        continue;
      }
      const choices = String(spec.placeholder ?? "").split("|");
      const candidates = ["30", choices.at(-1)!, "completed", "some text"];
      const text = candidates.find((c) => {
        try {
          spec.parse(c);
          return true;
        } catch {
          return false;
        }
      })!;
      argv.push(`${flag}=${text}`);
      expected[key] = spec.parse(text);
    }
    for (const p of verb.positional?.parameters ?? []) argv.push(p.placeholder.split("|")[0]);
    const r = await call(argv);
    strictEqual(r.code, 0, `${argv.join(" ")}: ${r.stdout}${r.stderr}`);
    deepStrictEqual(r.flags, expected, route);
  }
});

Deno.test("a call that names a verb outright builds only that verb; groups still list all", async () => {
  const { routeOf } = await import("../../src/cli/route_map.ts");
  strictEqual(routeOf(["session", "name", "--json"]), "session name");
  strictEqual(routeOf(["completions", "bash"]), "completions");
  strictEqual(routeOf(["session", "nmae"]), undefined);
  strictEqual(routeOf(["session", "--help"]), undefined);
  const group = await call(["session", "--help"]);
  strictEqual(group.code, 0);
  for (const route of Object.keys(VERBS).filter((r) => r.startsWith("session "))) {
    ok(group.stdout.includes(route), `session help lists ${route}`);
  }
  const typo = await call(["session", "nmae", "--json"]);
  strictEqual(typo.json?.errorCode, "unknown_command");
  ok(String(typo.json?.error).includes("name"), String(typo.json?.error));
});

Deno.test("worktree flags reach spawn, diff and merge; diff/merge take the session as a word or --session", async () => {
  const spawn = await call([
    "session",
    "spawn",
    "--command",
    "true",
    "--worktree",
    "--branch",
    "feat/x",
    "--base=main~1",
  ]);
  strictEqual(spawn.code, 0, spawn.stderr);
  strictEqual(spawn.flags?.worktree, true);
  strictEqual(spawn.flags?.branch, "feat/x");
  strictEqual(spawn.flags?.base, "main~1");
  const diff = await call(["session", "diff", "lisa-a", "--stat", "--json"]);
  deepStrictEqual([diff.flags, diff.args], [{ stat: true, json: true }, ["lisa-a"]]);
  const diffFlag = await call(["session", "diff", "--session", "lisa-a"]);
  deepStrictEqual([diffFlag.flags, diffFlag.args], [{ session: "lisa-a" }, [undefined]]);
  const merge = await call([
    "session",
    "merge",
    "--session",
    "lisa-a",
    "--squash",
    "--message",
    "m",
    "--force",
  ]);
  deepStrictEqual(merge.flags, { session: "lisa-a", squash: true, message: "m", force: true });
});

Deno.test("diff and merge without a session, or with two different ones, are usage errors", async () => {
  const io = new MemoryIo();
  const none = await main(["session", "merge", "--json"], fakeDeps({ io }));
  strictEqual(none, 1);
  strictEqual(JSON.parse(io.stdout).errorCode, "missing_argument");
  const io2 = new MemoryIo();
  const two = await main(
    ["session", "diff", "lisa-a", "--session", "lisa-b", "--json"],
    fakeDeps({ io: io2 }),
  );
  strictEqual(two, 1);
  strictEqual(JSON.parse(io2.stdout).errorCode, "conflicting_options");
});

Deno.test("send takes --force and --ready-timeout seconds (0 to 3600)", async () => {
  const send = await call([
    "session",
    "send",
    "--session",
    "lisa-a",
    "--text",
    "hi",
    "--force",
    "--ready-timeout=5",
  ]);
  strictEqual(send.code, 0, send.stderr);
  deepStrictEqual(send.flags, { session: "lisa-a", text: "hi", force: true, readyTimeout: 5 });
  const bad = await call([
    "session",
    "send",
    "--session",
    "lisa-a",
    "--ready-timeout",
    "-1",
    "--json",
  ]);
  strictEqual(bad.code, 1);
  strictEqual(bad.json?.errorCode, "invalid_argument");
});
