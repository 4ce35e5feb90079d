/** The pure parts of `send --wait`: which hook lines belong to the sent turn, screen replies. */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  cleanScreenReply,
  feedHookLine,
  type HookTurn,
  newHookTurn,
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
