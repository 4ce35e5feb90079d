/**
 * Turn records with the fake agents: `send --wait` after keys that answer a permission follows
 * the turn they resumed, and a turn that ends without its Stop hook, or is interrupted without
 * one, reads the same in `send --wait`, status, `session turns` and `history show`.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, type World } from "../helpers/world.ts";
import { status, statusUntil } from "./status_helpers.ts";
import { spawn, type Spawned, waitPane } from "./lifecycle_helpers.ts";
import { hooksReady, sendWait, type Wait } from "./turns_helpers.ts";

Deno.test("send --keys 1 --wait after a permission outcome follows the turn the keys resumed", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_PERMISSION: "1",
      FAKE_REPLY_ECHO: "1",
      // The dialog (and its hook) stay a moment after the answer: not a new permission.
      FAKE_ANSWER_SECONDS: "1",
    });
    await hooksReady(world, s);
    const asked = await sendWait(world, s, "make a file");
    strictEqual(asked.json.outcome, "permission", asked.raw);
    // The answer types no prompt: the turn it resumes ends with the tool run and the reply.
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--keys",
      "1",
      "--wait",
      "--timeout-seconds",
      "60",
      "--json",
    ]);
    const json = r.json as unknown as Wait;
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(json.outcome, "completed", r.stdout);
    strictEqual(json.reply, "reply to: make a file");
    strictEqual(json.turnId, asked.json.turnId, "the same turn, under the same id");
    deepStrictEqual(json.tools.map((t) => t.tool), ["Bash"]);
    const turns = await world.lisaInProcess(["session", "turns", "--session", s.session, "--json"]);
    const list = (turns.json as { turns: { turnId: string; outcome: string }[] }).turns;
    deepStrictEqual(list.map((t) => [t.turnId, t.outcome]), [[json.turnId, "completed"]]);
  } finally {
    await world.dispose();
  }
});

type Listed = { turnId: string; outcome: string; reply: string | null; recovered: boolean };

/** `session turns --json` and `history show --json` of `s`: the turns each lists. */
async function bothViews(world: World, s: Spawned): Promise<Listed[][]> {
  const turns = await world.lisaInProcess(["session", "turns", "--session", s.session, "--json"]);
  const shown = await world.lisaInProcess(["history", "show", s.session, "--json"]);
  strictEqual(turns.code, 0, turns.stdout + turns.stderr);
  strictEqual(shown.code, 0, shown.stdout + shown.stderr);
  return [(turns.json as { turns: Listed[] }).turns, (shown.json as { turns: Listed[] }).turns];
}

Deno.test("a turn that ends without Stop is over in session turns and history once status says waiting_input", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_SILENT_END: "1",
      FAKE_CLAUDE_TITLE: "1",
      FAKE_REPLY_ECHO: "1",
    });
    await hooksReady(world, s);
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hi there",
      "--enter",
    ]);
    strictEqual(sent.code, 0, sent.stderr);
    await waitPane(world, s, "reply to: hi there");
    const r = await statusUntil(world, s.session, (x) => x.sessionState === "waiting_input");
    strictEqual(r.waitingFor, "input", JSON.stringify(r));
    // The same moment: no turn is still running in either view, and they say the same.
    for (const turns of await bothViews(world, s)) {
      strictEqual(turns.length, 1, JSON.stringify(turns));
      strictEqual(turns[0].outcome, "completed", JSON.stringify(turns));
      ok(turns[0].reply?.includes("reply to: hi there"), JSON.stringify(turns));
      strictEqual(turns[0].recovered, true);
    }
    // And status keeps saying so.
    const again = await status(world, s.session);
    strictEqual(again.sessionState, "waiting_input", JSON.stringify(again));
  } finally {
    await world.dispose();
  }
});

Deno.test("a turn interrupted without a hook is interrupted in send --wait, status, session turns and history", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_SILENT_END: "interrupt",
      FAKE_CLAUDE_TITLE: "1",
    });
    await hooksReady(world, s);
    const r = await sendWait(world, s, "cut me short", ["--timeout-seconds", "60"]);
    strictEqual(r.json.outcome, "interrupted", r.raw);
    strictEqual(r.json.reply, "");
    const now = await status(world, s.session);
    strictEqual(now.sessionState, "waiting_input", JSON.stringify(now));
    for (const turns of await bothViews(world, s)) {
      deepStrictEqual(
        turns.map((t) => [t.turnId, t.outcome, t.reply]),
        [[r.json.turnId, "interrupted", null]],
      );
    }
  } finally {
    await world.dispose();
  }
});
