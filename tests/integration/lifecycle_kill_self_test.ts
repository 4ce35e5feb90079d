/**
 * kill and kill-all run from inside a session they end: lisa survives its own session's
 * hangup, ends everything else first, and its own session last (after its result is written);
 * and a kill of a name nothing knows leaves no file behind.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { shellJoin, shellQuote } from "../../src/base/shell_quote.ts";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import {
  artifactsOf,
  endStray,
  processesOf,
  readIf,
  spawn,
  type Spawned,
} from "./lifecycle_helpers.ts";

/**
 * A `--command` that waits for `go`, runs lisa with `args` (stdout to `out`), and records
 * lisa's exit status in `code`. The shell traps HUP (a trap, not an ignore, so lisa still gets
 * the default action) so it outlives the pane and can write the status.
 */
function lisaCommand(world: World, args: string[], name: string): {
  command: string;
  go: string;
  out: string;
  code: string;
} {
  const go = `${world.base}/${name}.go`;
  const out = `${world.base}/${name}.json`;
  const code = `${world.base}/${name}.code`;
  const command = [
    "trap : HUP",
    `while [ ! -e ${shellQuote(go)} ]; do sleep 0.1; done`,
    `${shellJoin([...LISA_ARGV, ...args])} > ${shellQuote(out)} 2> ${shellQuote(`${out}.err`)}`,
    `echo $? > ${shellQuote(code)}`,
  ].join("\n");
  return { command, go, out, code };
}

/** The event log (and its lock) are all that is left of `s`. */
function onlyEvents(world: World, s: Spawned): void {
  deepStrictEqual(artifactsOf(world, s.session), [
    `.lisa-${s.projectHash}-session-${s.session}-events.jsonl`,
    `.lisa-${s.projectHash}-session-${s.session}-events.jsonl.lock`,
  ]);
}

function events(world: World, s: Spawned): string {
  return readIf(`${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-events.jsonl`) ??
    "";
}

async function gone(world: World, s: Spawned): Promise<boolean> {
  return (await world.tmux(s.socketPath, ["has-session", "-t", `=${s.session}`])).code !== 0;
}

Deno.test("kill --session <own session> from inside it ends the session and reports in full", async () => {
  const world = await makeWorld();
  try {
    const run = lisaCommand(world, ["session", "kill", "--session", "lisa-self", "--json"], "self");
    const s = await spawn(world, ["--session", "lisa-self", "--command", run.command]);
    Deno.writeTextFileSync(run.go, "");
    const code = await waitFor(() => readIf(run.code), 60_000);
    strictEqual(code?.trim(), "0", `exit status; stderr: ${readIf(`${run.out}.err`)}`);
    const j = JSON.parse(readIf(run.out)!);
    strictEqual(j.ok, true);
    deepStrictEqual(j.killed, ["lisa-self"]);
    deepStrictEqual(j.processes.remaining, []);
    ok(await gone(world, s), "the session should be gone");
    ok(events(world, s).includes('"reason":"killed"'), events(world, s));
    onlyEvents(world, s);
    ok(await waitFor(async () => (await processesOf(s.runId)).length === 0, 30_000));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill-all from inside one session ends every session, its own last", async () => {
  const world = await makeWorld();
  try {
    const run = lisaCommand(world, ["session", "kill-all", "--json"], "all");
    const a0 = await spawn(world, ["--session", "lisa-a0", "--command", run.command]);
    // A child of lisa-a0 comes before it in the walk; lisa-x2 after it.
    const x1 = await spawn(world, ["--session", "lisa-x1", "--command", "sleep 300"], {
      LISA_SESSION_NAME: a0.session,
    });
    const x2 = await spawn(world, ["--session", "lisa-x2", "--command", "sleep 300"]);
    Deno.writeTextFileSync(run.go, "");
    const code = await waitFor(() => readIf(run.code), 60_000);
    strictEqual(code?.trim(), "0", `exit status; stderr: ${readIf(`${run.out}.err`)}`);
    const j = JSON.parse(readIf(run.out)!);
    strictEqual(j.ok, true);
    deepStrictEqual([...j.killed].sort(), ["lisa-a0", "lisa-x1", "lisa-x2"]);
    strictEqual(j.count, 3);
    for (const s of [a0, x1, x2]) {
      ok(await gone(world, s), `${s.session} should be gone`);
      ok(events(world, s).includes('"reason":"killed"'), `${s.session}: ${events(world, s)}`);
      onlyEvents(world, s);
    }
    for (const s of [x1, x2]) deepStrictEqual(await processesOf(s.runId), []);
    ok(await waitFor(async () => (await processesOf(a0.runId)).length === 0, 30_000));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill of a name nothing knows creates no file", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["session", "kill", "--session", "lisa-typo", "--json"]);
    strictEqual(r.code, 1);
    strictEqual(r.json?.errorCode, "session_not_found");
    deepStrictEqual(artifactsOf(world, "lisa-typo"), []);
  } finally {
    await world.dispose();
  }
});

Deno.test("kill of a session whose tmux session is gone still logs against its artifacts", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--session", "lisa-stale", "--command", "sleep 300"]);
    await world.tmux(s.socketPath, ["kill-session", "-t", `=${s.session}`]);
    const r = await world.lisaInProcess(["session", "kill", "--session", s.session, "--json"]);
    strictEqual(r.code, 1);
    strictEqual(r.json?.errorCode, "session_not_found");
    ok(events(world, s).includes('"reason":"kill_not_found"'), events(world, s));
    onlyEvents(world, s);
  } finally {
    await endStray();
    await world.dispose();
  }
});
