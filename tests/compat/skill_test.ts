/**
 * Conformance with the older Go lisa's LLM skill: every core-command line of the skill
 * (`skill_lines.ts`) runs against this lisa, as an orchestrator following the skill would run
 * it, with the fake agents in a hermetic world. Each line must be accepted (no unknown flag),
 * exit with a code the skill documents, and print the fields the skill reads next, under its
 * names and with its value shapes.
 */
import { deepStrictEqual, fail, ok, strictEqual } from "node:assert/strict";
import { type LisaResult, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { type Shape, SKILL_LINES, type SkillLine } from "./skill_lines.ts";

const MODEL = "gpt-5.3-codex-spark";

/** The value at a dotted path (`a.b.0.c`), or undefined. */
function at(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const key of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function checkShape(value: unknown, shape: Shape, vars: Record<string, string>): string | null {
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  if (typeof shape === "string") {
    return shape.split("|").includes(type) ? null : `expected ${shape}, got ${type}`;
  }
  if ("eq" in shape) {
    try {
      deepStrictEqual(value, shape.eq);
      return null;
    } catch {
      return `expected ${JSON.stringify(shape.eq)}, got ${JSON.stringify(value)}`;
    }
  }
  if ("match" in shape) {
    return typeof value === "string" && shape.match.test(value)
      ? null
      : `expected a string matching ${shape.match}, got ${JSON.stringify(value)}`;
  }
  const want = typeof shape.includes === "string" ? subst(shape.includes, vars) : shape.includes;
  return Array.isArray(value) && value.includes(want)
    ? null
    : `expected an array including ${JSON.stringify(want)}, got ${JSON.stringify(value)}`;
}

function subst(text: string, vars: Record<string, string>): string {
  return text.replace(/\$[A-Z][A-Z0-9_]*/g, (name) => vars[name] ?? name);
}

/** The JSON documents of stdout: one, or one per line (`stream`). */
function documents(line: SkillLine, r: LisaResult): Record<string, unknown>[] {
  const text = r.stdout.trim();
  if (line.out === "stream") return text.split("\n").map((l) => JSON.parse(l));
  return [JSON.parse(text)];
}

/** Waits until `session` is waiting_input (the skill's monitor lines then stop on poll 1). */
async function waitIdle(world: World, session: string): Promise<void> {
  const state = await waitFor(
    async () => {
      const r = await world.lisaInProcess(["session", "status", "--session", session, "--json"]);
      return r.json?.sessionState === "waiting_input" ? "waiting_input" : undefined;
    },
    60_000,
    250,
  );
  strictEqual(state, "waiting_input", `${session} never became waiting_input`);
}

/** Writes the transcript claude keeps for `session` (the fake agents do not). */
function writeTranscript(world: World, session: string): void {
  const metaName = [...Deno.readDirSync(world.runtimeDir)]
    .map((e) => e.name)
    .find((n) => n.endsWith(`-session-${session}-meta.json`));
  ok(metaName, `meta of ${session}`);
  const meta = JSON.parse(Deno.readTextFileSync(`${world.runtimeDir}/${metaName}`));
  ok(meta.agentSessionId, "claude sessions get a --session-id");
  const dir = `${world.home}/.claude/projects/${meta.projectRoot.replace(/[^A-Za-z0-9]/g, "-")}`;
  Deno.mkdirSync(dir, { recursive: true });
  const rows = [
    {
      type: "user",
      message: { role: "user", content: "Refactor auth module" },
      timestamp: "2026-01-01T00:00:00Z",
    },
    {
      type: "assistant",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "Refactored." }, { type: "tool_use", name: "Edit" }],
      },
      timestamp: "2026-01-01T00:00:05Z",
    },
  ];
  Deno.writeTextFileSync(
    `${dir}/${meta.agentSessionId}.jsonl`,
    rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
}

Deno.test({
  name: "every core-command line of the Go lisa skill runs here with its fields and exit codes",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const world = await makeWorld({
      // guard --shared-tmux reads "the default server": a private one here.
      env: { TMUX_TMPDIR: "", DISABLE_AUTOUPDATER: "1" },
      // The skill's smoke lines poll nested `--command` levels until completed: a level read
      // between two of its lisa calls after a short grace window is `stuck` and ends the run.
      windows: "product",
    });
    const tmp = `${world.base}/scratch`;
    Deno.mkdirSync(tmp);
    const tmuxTmp = `${world.base}/default-tmux`;
    Deno.mkdirSync(tmuxTmp, { mode: 0o700 });
    world.env.TMUX_TMPDIR = tmuxTmp;
    Deno.writeTextFileSync(
      `${tmp}/nested-matrix.txt`,
      [
        "# mode|prompt",
        "bypass|Use ./lisa for all child orchestration.",
        "bypass|Run lisa session spawn inside the spawned agent.",
        "bypass|Build a nested lisa chain and report markers.",
        "full-auto|Use lisa inside of lisa inside as well.",
        "full-auto|No nesting requested here.",
        "any|The string './lisa' appears in docs only.",
      ].join("\n") + "\n",
    );
    const vars: Record<string, string> = {
      $ROOT: world.projectRoot,
      $MODEL: MODEL,
      $TMP: tmp,
      $GONE: "lisa-compat-never-there",
    };
    try {
      const busy = await world.lisaInProcess([
        "session",
        "spawn",
        "--command",
        "sleep 300",
        "--session",
        "lisa-compat-busy",
        "--json",
      ]);
      strictEqual(busy.code, 0, busy.stdout + busy.stderr);
      vars.$BUSY = "lisa-compat-busy";
      let idleChecked = false;
      for (const [i, line] of SKILL_LINES.entries()) {
        const argv = [...line.argv.map((a) => subst(a, vars)), ...(line.bound ?? [])];
        const label = `${String(i + 1).padStart(3)} ${line.source}: ${argv.join(" ")}`;
        await t.step(label, async () => {
          const isMonitor = (argv[1] === "monitor" || argv[1] === "handoff") &&
            !argv.includes("--help");
          if (!idleChecked && (argv[1] === "send" || isMonitor)) {
            // The interactive workers finished their first turn (what an orchestrator awaits).
            for (const s of ["$S", "$C", "$PARENT"]) await waitIdle(world, vars[s]);
            writeTranscript(world, vars.$C);
            idleChecked = true;
          }
          const target = argv[argv.indexOf("--session") + 1];
          if (isMonitor && [vars.$S, vars.$C, vars.$PARENT].includes(target)) {
            await waitIdle(world, target);
          }
          // doctor and preflight look for the agents on PATH: run them as a process would.
          const r = argv[0] === "doctor" || argv[1] === "preflight"
            ? await world.lisa(argv)
            : await world.lisaInProcess(argv);
          const exits = Array.isArray(line.exit) ? line.exit : [line.exit];
          ok(
            !/unknown_option|No flag registered|No alias registered/.test(r.stdout + r.stderr),
            `flag rejected: ${r.stdout}${r.stderr}`,
          );
          ok(
            exits.includes(r.code),
            `exit ${r.code}, want ${exits.join("|")}: ${r.stdout}${r.stderr}`,
          );
          const isText = line.out === "text" || line.out === undefined &&
              !argv.some((a) => a === "--json" || a === "--json-min");
          if (isText) {
            if (line.text) ok(line.text.test(r.stdout), `stdout ${JSON.stringify(r.stdout)}`);
            return;
          }
          let docs: Record<string, unknown>[];
          try {
            docs = documents(line, r);
          } catch {
            fail(`stdout is not JSON: ${r.stdout}${r.stderr}`);
          }
          const doc = docs[docs.length - 1];
          strictEqual(doc.stderrPolicy, "diagnostic", "every payload has stderrPolicy");
          if (line.out === "stream") {
            ok(docs.slice(0, -1).every((d) => d.type === "poll" || d.type === "handoff"), r.stdout);
            if (argv.includes("--emit-handoff")) {
              const handoff = docs.find((d) => d.type === "handoff");
              ok(
                handoff && typeof handoff.nextAction === "string" && "reason" in handoff,
                r.stdout,
              );
            }
          }
          for (const [path, shape] of Object.entries(line.fields ?? {})) {
            const problem = checkShape(at(doc, path), shape, vars);
            if (problem !== null) fail(`${path}: ${problem}\n${JSON.stringify(doc)}`);
          }
          if (line.save) vars[line.save] = String(doc.session);
          if (typeof doc.nextOffset === "string") vars.$NEXT_OFFSET = doc.nextOffset;
        });
      }
    } finally {
      await world.lisaInProcess(["session", "kill-all", "--cleanup-all-hashes"]).catch(() => {});
      await world.dispose();
    }
  },
});
