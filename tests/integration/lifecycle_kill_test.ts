/**
 * kill against real tmux: every process of the pane ends (long-running children, children
 * that called setsid, daemons that double-forked, children that ignore SIGTERM), runtime
 * artifacts go, the event log stays, and nothing is recreated afterwards.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import {
  artifactsOf,
  endStray,
  processesOf,
  readIf,
  spawn,
  type Spawned,
  waitPane,
} from "./lifecycle_helpers.ts";

async function kill(world: World, session: string) {
  const r = await world.lisaInProcess(["session", "kill", "--session", session, "--json"]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  return r.json!;
}

/** Names that must be left after a kill: the event log and its lock only. */
function onlyEvents(world: World, s: Spawned): void {
  deepStrictEqual(artifactsOf(world, s.session), [
    `.lisa-${s.projectHash}-session-${s.session}-events.jsonl`,
    `.lisa-${s.projectHash}-session-${s.session}-events.jsonl.lock`,
  ]);
}

/** Waits past two heartbeat periods and checks that nothing came back. */
async function nothingComesBack(world: World, s: Spawned): Promise<void> {
  await new Promise((r) => setTimeout(r, 4500));
  onlyEvents(world, s);
  deepStrictEqual(await processesOf(s.runId), []);
}

Deno.test("kill ends an agent with a long-running child and nothing is recreated afterwards", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "sleep-child:300" });
    await waitFor(async () => (await processesOf(s.runId)).length >= 3, 30_000); // wrapper, heartbeat, agent, sleep
    ok(
      readIf(`${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-heartbeat.txt`) !==
        undefined,
    );
    const j = await kill(world, s.session);
    strictEqual(j.ok, true);
    deepStrictEqual(j.killed, [s.session]);
    deepStrictEqual((j.processes as { remaining: unknown[] }).remaining, []);
    ok((j.processes as { signalled: number }).signalled >= 3);
    deepStrictEqual(await processesOf(s.runId), []);
    const has = await world.tmux(s.socketPath, ["has-session", "-t", `=${s.session}`]);
    strictEqual(has.code, 1);
    onlyEvents(world, s);
    const events = readIf(
      `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-events.jsonl`,
    )!;
    ok(events.includes('"reason":"spawn_success"'));
    ok(events.includes('"reason":"killed"'));
    await nothingComesBack(world, s);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill ends children that called setsid, including a daemon that double-forked", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "codex"], { FAKE_BEHAVIOR: "setsid-child" });
    await waitPane(world, s, "> ");
    // wrapper, heartbeat, agent, setsid sleep, the daemonized sleep, plain sleep
    const before = await waitFor(async () => {
      const pids = await processesOf(s.runId);
      return pids.length >= 6 ? pids : undefined;
    }, 30_000);
    ok(before, `expected 6 processes, saw ${(await processesOf(s.runId)).length}`);
    // The `setsid -f` child left its parent, the agent: the pane's wrapper, a child subreaper,
    // adopted it (kill_daemons_test.ts covers daemons that also cleared their environment).
    const wrapper = before.find((p) => !before.some((q) => q.pid === p.ppid));
    const daemon = before.find((p) => p.name === "sleep" && p.ppid === wrapper?.pid);
    ok(daemon !== undefined, "the setsid -f child should have been adopted by the wrapper");
    const j = await kill(world, s.session);
    deepStrictEqual((j.processes as { remaining: unknown[] }).remaining, []);
    deepStrictEqual(await processesOf(s.runId), []);
    onlyEvents(world, s);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a child that ignores SIGTERM is ended with SIGKILL after the grace period", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "stubborn-child" });
    await waitPane(world, s, "> ");
    await waitFor(async () => (await processesOf(s.runId)).length >= 4, 30_000);
    const j = await kill(world, s.session);
    strictEqual(j.ok, true);
    deepStrictEqual((j.processes as { remaining: unknown[] }).remaining, []);
    deepStrictEqual(await processesOf(s.runId), []);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill takes descendants first, from their parentSession links", async () => {
  const world = await makeWorld();
  try {
    const parent = await spawn(world, ["--session", "lisa-k-parent", "--command", "sleep 300"]);
    const child = await spawn(world, ["--session", "lisa-k-child", "--command", "sleep 300"], {
      LISA_SESSION_NAME: parent.session,
    });
    const grandchild = await spawn(world, ["--session", "lisa-k-grand", "--command", "sleep 300"], {
      LISA_SESSION_NAME: child.session,
    });
    const other = await spawn(world, ["--session", "lisa-k-other", "--command", "sleep 300"]);
    const j = await kill(world, parent.session);
    deepStrictEqual(j.killed, [grandchild.session, child.session, parent.session]);
    for (const s of [parent, child, grandchild]) deepStrictEqual(await processesOf(s.runId), []);
    const still = await world.tmux(other.socketPath, ["has-session", "-t", `=${other.session}`]);
    strictEqual(still.code, 0, "an unrelated session must survive");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill of a missing session is session_not_found with exit 1", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisa(["session", "kill", "--session", "lisa-ghost", "--json"]);
    strictEqual(r.code, 1);
    strictEqual(r.json?.ok, false);
    strictEqual(r.json?.errorCode, "session_not_found");
    const bad = await world.lisaInProcess(["session", "kill", "--session", "ghost", "--json"]);
    strictEqual(bad.json?.errorCode, "invalid_session_name");
    const missing = await world.lisaInProcess(["session", "kill", "--json"]);
    strictEqual(missing.code, 1);
    strictEqual(missing.json?.errorCode, "missing_argument");
  } finally {
    await world.dispose();
  }
});

Deno.test("kill ends a worker that a SIGTERM-deaf supervisor restarted during the grace period", async () => {
  const world = await makeWorld();
  try {
    // A supervisor loop (nodemon, `while :; do server; done`) that ignores SIGTERM and SIGHUP
    // restarts its worker as soon as SIGTERM ends it: the new worker did not exist when the
    // session's processes were collected, and outlives the supervisor's SIGKILL.
    const worker = `perl -e '$SIG{TERM}=$SIG{HUP}=q(DEFAULT); sleep 1000'`;
    const s = await spawn(world, [
      "--command",
      `trap "" TERM HUP; while :; do ${worker}; done`,
    ]);
    await waitFor(async () => (await processesOf(s.runId)).some((p) => p.name === "perl"), 30_000);
    const j = await kill(world, s.session);
    deepStrictEqual((j.processes as { remaining: unknown[] }).remaining, []);
    strictEqual(j.ok, true);
    await new Promise((r) => setTimeout(r, 300));
    deepStrictEqual(await processesOf(s.runId), []);
  } finally {
    await endStray();
    await world.dispose();
  }
});
