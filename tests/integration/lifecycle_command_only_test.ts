/**
 * A `--command` session without `--agent` is command-only: its name keeps the default agent
 * word, but status expects no agent, so claude's screen rules never read the command's output.
 * With an explicit `--agent` the agent's rules still apply.
 */
import { ok, strictEqual } from "node:assert/strict";
import { SESSION_GRACE_SECONDS } from "../../src/core/classify.ts";
import type { SessionMeta } from "../../src/core/types.ts";
import { makeWorld } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn, waitPane } from "./lifecycle_helpers.ts";
import { status, statusUntil } from "./status_helpers.ts";

// Two leading spaces: claude's footer row, which its `claude_esc_to_interrupt` rule matches.
const COMMAND = "printf '  esc to interrupt\\n'; sleep 30";

Deno.test("a --command session without --agent is classified as a command, not by claude's screen", async () => {
  const world = await makeWorld();
  try {
    const plain = await spawn(world, ["--command", COMMAND]);
    const claude = await spawn(world, ["--agent", "claude", "--command", COMMAND]);
    strictEqual(plain.commandOnly, true);
    strictEqual(claude.commandOnly, false);
    ok(plain.session.includes("-claude-"), plain.session);
    const meta = JSON.parse(readIf(artifact(world, plain, "meta.json"))!) as SessionMeta;
    strictEqual(meta.commandOnly, true);
    strictEqual(meta.agent, "claude");
    await waitPane(world, plain, "esc to interrupt");
    await waitPane(world, claude, "esc to interrupt");

    const early = await status(world, plain.session);
    ok(!early.classificationReason.startsWith("screen:"), early.classificationReason);

    await new Promise((r) => setTimeout(r, SESSION_GRACE_SECONDS * 1000 + 500));
    const r = await statusUntil(world, plain.session, (x) => x.signals.inGrace === false);
    strictEqual(r.sessionState, "in_progress", JSON.stringify(r.signals));
    strictEqual(r.classificationReason, "command_running:sleep");
    strictEqual(r.agent, "claude", "the agent field still shows meta.agent");
    const explicit = await status(world, claude.session);
    strictEqual(explicit.classificationReason, "screen:claude_esc_to_interrupt");
  } finally {
    await endStray();
    await world.dispose();
  }
});
