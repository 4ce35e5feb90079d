/**
 * What one `session status` costs and leaves behind: at most one tmux subprocess and no `ps`
 * (counted through the runner), no event for an unchanged poll, and the lean path (main.ts)
 * answering like the full CLI.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn, waitDone, waitPane } from "./lifecycle_helpers.ts";
import { CountingRunner, status, statusUntil } from "./status_helpers.ts";

function eventsOf(path: string): Record<string, unknown>[] {
  try {
    return Deno.readTextFileSync(path).trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

Deno.test("status of a live idle session runs one tmux subprocess and no ps", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "codex"], { FAKE_BEHAVIOR: "idle" });
    await waitPane(world, s, "> ");
    for (let i = 0; i < 3; i++) {
      const runner = new CountingRunner();
      const r = await status(world, s.session, { runner });
      ok(["just_started", "waiting_input"].includes(r.sessionState), r.sessionState);
      strictEqual(runner.count("tmux"), 1, JSON.stringify(runner.calls));
      strictEqual(runner.count("ps"), 0);
      strictEqual(runner.calls.length, 1);
    }
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("status of a finished session also runs one tmux subprocess and no ps", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "exit 3"]);
    await waitDone(world, s);
    await statusUntil(world, s.session, (r) => r.sessionState === "crashed");
    const runner = new CountingRunner();
    const r = await status(world, s.session, { runner });
    strictEqual(r.exitCode, 3);
    strictEqual(runner.calls.length, 1, JSON.stringify(runner.calls));
    strictEqual(runner.count("tmux"), 1);
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("unchanged polls append no events; a change appends one transition", async () => {
  // The product's 8 s window: all five polls fall inside it even on a busy machine.
  const world = await makeWorld({ windows: "product" });
  try {
    // A shell builtin waiting for a line: quiet, no process of its own (just_started).
    const s = await spawn(world, ["--command", "read -r line; exit 0"]);
    const events = `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-events.jsonl`;
    for (let i = 0; i < 5; i++) await status(world, s.session);
    const early = eventsOf(events);
    // spawn's lifecycle event, then one transition into just_started.
    deepStrictEqual(early.map((e) => e.type), ["lifecycle", "transition"], JSON.stringify(early));
    strictEqual(early[1].state, "just_started");
    await world.tmux(s.socketPath, ["send-keys", "-t", `=${s.session}:`, "Enter"]);
    await waitDone(world, s);
    await statusUntil(world, s.session, (r) => r.sessionState === "completed");
    for (let i = 0; i < 3; i++) await status(world, s.session);
    const after = eventsOf(events);
    deepStrictEqual(after.map((e) => e.type), ["lifecycle", "transition", "transition"]);
    strictEqual(after[2].state, "completed");
    // tmux 3.3a may miss the pane's SIGCHLD and show it dead without a status; the done file
    // then decides (status nudges tmux only when no done file tells).
    const reason = String(after[2].reason);
    ok(["pane_exited:0", "done_file:0"].includes(reason), reason);
    strictEqual(after[2].runId, s.runId);
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("the lean status path prints the same fields as the full CLI", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    const lean = await world.lisa(["session", "status", `--session=${s.session}`, "--json"]);
    strictEqual(lean.code, 0, lean.stderr);
    const full = await world.lisaInProcess(["session", "status", "--session", s.session, "--json"]);
    deepStrictEqual(Object.keys(lean.json!), Object.keys(full.json!));
    for (
      const key of [
        "session",
        "agent",
        "mode",
        "status",
        "sessionState",
        "classificationReason",
        "exitCode",
        "waitingFor",
        "paneStatus",
        "paneCommand",
        "paneTitle",
        "agentPid",
        "agentCpu",
        "heartbeatAgeSeconds",
        "signals",
        "outputFile",
        "stderrPolicy",
      ]
    ) ok(key in lean.json!, `missing ${key}`);
    const min = await world.lisa(["session", "status", "--session", s.session, "--json-min"]);
    deepStrictEqual(Object.keys(min.json!), [
      "session",
      "status",
      "sessionState",
      "classificationReason",
      "exitCode",
      "waitingFor",
      "stderrPolicy",
    ]);
    const missing = await world.lisa([
      "session",
      "status",
      "--session",
      "lisa-gone",
      "--fail-not-found",
      "--json",
    ]);
    strictEqual(missing.code, 1);
    strictEqual(missing.json?.sessionState, "not_found");
    const bad = await world.lisa(["session", "status", "--session", "not-lisa", "--json"]);
    strictEqual(bad.code, 1);
    strictEqual(bad.json?.errorCode, "invalid_session_name");
  } finally {
    endStray();
    await world.dispose();
  }
});
