/** The pure parts of `send --wait`: which hook lines belong to the sent turn, screen replies. */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  cleanScreenReply,
  feedHookLine,
  type HookTurn,
  newHookTurn,
  resumeOpenTurn,
} from "../../../../src/core/turns/wait.ts";
import { lineKey, promptMatches } from "../../../../src/core/turns/records.ts";

/** The turn's end, read through a call (assertions above would narrow `turn.end` to null). */
const endOf = (turn: HookTurn) => turn.end;

const line = (event: string, extra: Record<string, unknown> = {}, runId = "r1") =>
  JSON.stringify({ at: "2026-01-01T00:00:00.000Z", runId, agent: "claude", event, ...extra });

Deno.test("the previous turn's Stop after the send is not the sent turn's end", () => {
  const turn = newHookTurn();
  feedHookLine(turn, line("Stop", { reply: "old answer" }), "r1", "new question");
  strictEqual(turn.end, null);
  const start = line("UserPromptSubmit", { prompt: "new question" });
  feedHookLine(turn, start, "r1", "new question");
  feedHookLine(turn, line("PostToolUse", { tool: "Bash", preview: "Bash: ls" }), "r1", "x");
  feedHookLine(turn, line("Stop", { reply: "new answer" }), "r1", "new question");
  strictEqual(turn.turnId, lineKey(start));
  strictEqual(endOf(turn)?.outcome, "completed");
  strictEqual(endOf(turn)?.reply, "new answer");
  deepStrictEqual(turn.tools.map((t) => [t.tool, t.input]), [["Bash", "ls"]]);
});

Deno.test("a queued prompt that is not the sent text does not start the turn", () => {
  const turn = newHookTurn();
  feedHookLine(turn, line("UserPromptSubmit", { prompt: "someone else's" }), "r1", "mine");
  feedHookLine(turn, line("Stop", { reply: "theirs" }), "r1", "mine");
  strictEqual(turn.started, false);
  strictEqual(turn.end, null);
});

Deno.test("lines of another run are ignored; a permission request is reported", () => {
  const turn = newHookTurn();
  feedHookLine(turn, line("UserPromptSubmit", { prompt: "go" }, "other"), "r1", "go");
  strictEqual(turn.started, false);
  feedHookLine(turn, line("UserPromptSubmit", { prompt: "go" }), "r1", "go");
  feedHookLine(turn, line("PermissionRequest", { tool: "Bash" }), "r1", "go");
  strictEqual(turn.permission, true);
  strictEqual(turn.end, null);
});

Deno.test("codex: the turn is the first agent-turn-complete whose input is the sent text", () => {
  const turn = newHookTurn();
  const codex = (prompt: string, reply: string) =>
    JSON.stringify({
      at: "x",
      runId: "r1",
      agent: "codex",
      event: "agent-turn-complete",
      prompt,
      reply,
    });
  feedHookLine(turn, codex("earlier task", "earlier reply"), "r1", "say ok");
  strictEqual(turn.end, null);
  feedHookLine(turn, codex("say ok", "ok!"), "r1", "say ok");
  strictEqual(endOf(turn)?.reply, "ok!");
});

Deno.test("StopFailure ends the turn as failed with its error", () => {
  const turn = newHookTurn();
  feedHookLine(turn, line("UserPromptSubmit", { prompt: "go" }), "r1", "go");
  feedHookLine(turn, line("StopFailure", { error: "rate limited" }), "r1", "go");
  strictEqual(endOf(turn)?.outcome, "failed");
  strictEqual(endOf(turn)?.error, "rate limited");
});

Deno.test("prompts match whole, or a cut prompt as a prefix, whitespace flattened", () => {
  strictEqual(promptMatches("fix  the\nbug", "fix the bug"), true);
  strictEqual(promptMatches("fix the bug", "fix the bugs"), false);
  // A prompt cut to fit its hook line is a prefix of what was sent.
  strictEqual(promptMatches("a".repeat(130), "a".repeat(600)), true);
  strictEqual(promptMatches("a".repeat(80), "a".repeat(600)), true);
  // The same long preamble with another ending is another prompt.
  strictEqual(promptMatches("a".repeat(130), "a".repeat(120) + "b".repeat(500)), false);
  strictEqual(promptMatches("a".repeat(130) + " one", "a".repeat(130) + " two"), false);
  strictEqual(promptMatches(undefined, "anything"), true);
});

Deno.test("a screen reply drops the echo of the sent text and a bare prompt row", () => {
  strictEqual(cleanScreenReply("> ping\nanswer: ping\n> ", "ping"), "answer: ping");
  strictEqual(cleanScreenReply("ping\nline 1\nline 2\n$", "ping"), "line 1\nline 2");
});

Deno.test("keys that answer a permission resume the open turn: its tools, end and id", () => {
  const start = line("UserPromptSubmit", { prompt: "make a file" });
  const before = [
    line("Stop", { reply: "an earlier turn" }),
    start,
    line("PermissionRequest", { tool: "Bash" }),
  ];
  const turn = newHookTurn();
  strictEqual(resumeOpenTurn(turn, before, "r1", ""), true);
  strictEqual(turn.turnId, lineKey(start));
  strictEqual(turn.permission, false, "the send answered it");
  // claude's Notification for the answered dialog comes after the send: not a new dialog.
  feedHookLine(turn, line("Notification", { notificationType: "permission_prompt" }), "r1", "");
  strictEqual(turn.permission, false);
  feedHookLine(turn, line("PostToolUse", { tool: "Bash", preview: "Bash: touch f" }), "r1", "");
  // Once the agent took the answer, a permission is a new dialog again.
  feedHookLine(turn, line("PermissionRequest", { tool: "Write" }), "r1", "");
  strictEqual(turn.permission, true);
  feedHookLine(turn, line("PostToolUse", { tool: "Write", preview: "Write: g" }), "r1", "");
  feedHookLine(turn, line("Stop", { reply: "done" }), "r1", "");
  strictEqual(endOf(turn)?.outcome, "completed");
  strictEqual(endOf(turn)?.reply, "done");
  deepStrictEqual(turn.tools.map((t) => t.tool), ["Bash", "Write"]);
});

Deno.test("a turn is resumed only when open, and by text only when it waits on a dialog", () => {
  const open = [line("UserPromptSubmit", { prompt: "go" }), line("PostToolUse", { tool: "Read" })];
  const closed = [...open, line("Stop", { reply: "ok" })];
  const other = [line("UserPromptSubmit", { prompt: "go" }, "r0")];
  strictEqual(resumeOpenTurn(newHookTurn(), closed, "r1", ""), false);
  strictEqual(resumeOpenTurn(newHookTurn(), other, "r1", ""), false);
  // A new prompt while a turn runs is a turn of its own (claude queues it).
  strictEqual(resumeOpenTurn(newHookTurn(), open, "r1", "next question"), false);
  const asking = [...open, line("PermissionRequest", { tool: "Bash" })];
  strictEqual(resumeOpenTurn(newHookTurn(), asking, "r1", "1"), true);
});

Deno.test("keys that resumed a turn but typed a prompt of their own follow that prompt's turn", () => {
  const turn = newHookTurn();
  ok(resumeOpenTurn(turn, [line("UserPromptSubmit", { prompt: "old" })], "r1", ""));
  const start = line("UserPromptSubmit", { prompt: "typed with keys" });
  feedHookLine(turn, start, "r1", "");
  strictEqual(turn.turnId, lineKey(start));
  strictEqual(turn.end, null);
  feedHookLine(turn, line("Stop", { reply: "new" }), "r1", "");
  strictEqual(endOf(turn)?.reply, "new");
});

Deno.test("lisa's own turn end ends the waited turn as status decided, at the turn's last sign", () => {
  const done = newHookTurn();
  feedHookLine(done, line("UserPromptSubmit", { prompt: "go" }), "r1", "go");
  feedHookLine(
    done,
    line("lisa:turn_end", {
      outcome: "completed",
      reply: "shown",
      endedAt: "2025-12-31T23:59:58.000Z",
    }),
    "r1",
    "go",
  );
  deepStrictEqual([endOf(done)?.outcome, endOf(done)?.reply], ["completed", "shown"]);
  strictEqual(endOf(done)?.atMs, Date.parse("2025-12-31T23:59:58.000Z"));
  const cut = newHookTurn();
  feedHookLine(cut, line("UserPromptSubmit", { prompt: "go" }), "r1", "go");
  feedHookLine(cut, line("lisa:turn_end", { outcome: "interrupted" }), "r1", "go");
  strictEqual(endOf(cut)?.outcome, "interrupted");
});
