/**
 * `session send --wait` with the fake agents, the outcomes besides a plain reply: never the reply
 * of a turn that was already running, `permission` for a dialog (nothing typed into it), and
 * `timeout`.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { spawn, waitPane } from "./lifecycle_helpers.ts";
import { hooksReady, sendWait } from "./turns_helpers.ts";

Deno.test("send --wait never returns the reply of the turn that was already running", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_REPLY_ECHO: "1",
      FAKE_TURN_SECONDS: "3",
    });
    await hooksReady(world, s);
    const first = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "first question",
      "--enter",
    ]);
    strictEqual(first.code, 0, first.stderr);
    await waitPane(world, s, "got: first question");
    const r = await sendWait(world, s, "second question");
    strictEqual(r.code, 0, r.raw);
    strictEqual(r.json.outcome, "completed");
    strictEqual(r.json.reply, "reply to: second question");
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait answers permission for a dialog and types nothing into it", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_PERMISSION: "1" });
    await hooksReady(world, s);
    const r = await sendWait(world, s, "make a file");
    strictEqual(r.code, 2, r.raw);
    strictEqual(r.json.outcome, "permission");
    strictEqual(r.json.waitingFor, "permission");
    // The dialog is still waiting: nothing answered it, so no PostToolUse and no reply.
    const pane = await waitPane(world, s, "Do you want to proceed?");
    ok(!pane.includes("fake reply"), pane);
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait answers timeout when the turn outlasts --timeout-seconds", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_TURN_SECONDS: "60" });
    await hooksReady(world, s);
    const r = await sendWait(world, s, "take long", ["--timeout-seconds", "2"]);
    strictEqual(r.code, 2, r.raw);
    strictEqual(r.json.outcome, "timeout");
    strictEqual(r.json.reply, "");
    ok(r.json.turnId !== null, "the turn had started");
  } finally {
    await world.dispose();
  }
});
