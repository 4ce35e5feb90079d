/**
 * What `send --text` checks before it types (issue 13) with real tmux and the fake agents: it
 * never types into a permission dialog unless `--force`, and it waits for an agent that is
 * still starting, up to `--ready-timeout`.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn, waitPane } from "./lifecycle_helpers.ts";
import { statusUntil } from "./status_helpers.ts";

Deno.test("send --text is refused at a permission dialog unless --force; the send result says the state", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude", "--no-dangerously-skip-permissions"], {
      FAKE_BEHAVIOR: "idle",
      FAKE_PERMISSION: "1",
    });
    // The first send waits until the agent is ready (its prompt drawn), then types.
    const first = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "make a file",
      "--enter",
      "--json",
    ]);
    strictEqual(first.code, 0, first.stdout + first.stderr);
    const state = first.json?.agentState as Record<string, unknown>;
    // The fake draws no idle title: it is ready once its start-up grace window has passed.
    ok((state.waitedMs as number) > 0, JSON.stringify(state));
    ok(typeof state.classificationReason === "string");
    await waitPane(world, s, "Do you want to proceed?");
    await statusUntil(world, s.session, (r) => r.waitingFor === "permission");
    const refused = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "y",
      "--enter",
      "--json",
    ]);
    strictEqual(refused.code, 1);
    strictEqual(refused.json?.ok, false);
    strictEqual(refused.json?.errorCode, "agent_waiting_permission");
    // --force types anyway (the fake takes any line as the answer).
    const forced = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "1",
      "--enter",
      "--force",
      "--json",
    ]);
    strictEqual(forced.code, 0, forced.stdout + forced.stderr);
    strictEqual(forced.json?.agentState, null);
    const after = await statusUntil(world, s.session, (r) => r.waitingFor === "input");
    strictEqual(after.sessionState, "waiting_input");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("send --text waits for a starting agent, and gives up with agent_not_ready after --ready-timeout", async () => {
  const world = await makeWorld();
  try {
    // Busy for 4 s at start-up (past the world's grace window), like an agent loading: not
    // ready for input yet.
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "burst:4" });
    const early = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "too soon",
      "--enter",
      "--ready-timeout",
      "0",
      "--json",
    ]);
    strictEqual(early.code, 1, early.stdout);
    strictEqual(early.json?.errorCode, "agent_not_ready");
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hello",
      "--enter",
      "--ready-timeout",
      "30",
      "--json",
    ]);
    strictEqual(sent.code, 0, sent.stdout + sent.stderr);
    const state = sent.json?.agentState as Record<string, unknown>;
    ok((state.waitedMs as number) > 0, JSON.stringify(state));
    ok(state.sessionState !== "just_started", JSON.stringify(state));
    await waitPane(world, s, "got: hello");
    const pane = await world.lisaInProcess(["session", "capture", "--session", s.session]);
    ok(!pane.stdout.includes("too soon"), "nothing was typed by the refused send");
  } finally {
    await endStray();
    await world.dispose();
  }
});
