/** What the screen says about a turn that ended without its end hook (real claude screens). */
import { deepStrictEqual } from "node:assert/strict";
import { screenTurnEnd } from "../../../src/agents/turn_screen.ts";

const screen = (name: string) =>
  Deno.readTextFileSync(new URL(`../../fixtures/screens/${name}.txt`, import.meta.url));

Deno.test("claude after Esc: the turn is interrupted, whatever came before it", () => {
  deepStrictEqual(screenTurnEnd("claude", screen("real_claude_after_esc"), "create the file"), {
    outcome: "interrupted",
    reply: null,
  });
});

Deno.test("claude's finished turn: its answer block is the reply, the timing row left out", () => {
  const text = screen("real_claude_turn_done");
  const done = { outcome: "completed", reply: "MOCK_REPLY_OK" };
  deepStrictEqual(screenTurnEnd("claude", text, "say something slowly"), done);
  // The prompt as the hook cut it, or not known at all: the newest echoed prompt's turn.
  deepStrictEqual(screenTurnEnd("claude", text, "say some"), done);
  deepStrictEqual(screenTurnEnd("claude", text, null), done);
});

Deno.test("claude: the last answer of the turn, not a tool call; continuation rows joined", () => {
  const text = [
    "❯ older question",
    "● older answer",
    "❯ fix it",
    "● I'll look.",
    "● Bash(deno test)",
    "  ⎿  ok | 3 passed",
    "● Fixed: the parser",
    "  now accepts tabs.",
    "",
    "✻ Churned for 4s",
    "─".repeat(40),
    "❯",
    "─".repeat(40),
  ].join("\n");
  deepStrictEqual(screenTurnEnd("claude", text, "fix it"), {
    outcome: "completed",
    reply: "Fixed: the parser\nnow accepts tabs.",
  });
});

Deno.test("a turn that shows nothing after its prompt counts as interrupted", () => {
  const text = ["❯ say hi", "", "─".repeat(40), "❯", "─".repeat(40)].join("\n");
  deepStrictEqual(screenTurnEnd("claude", text, "say hi"), { outcome: "interrupted", reply: null });
});

Deno.test("a plain prompt-and-answer screen gives the rows after the echo", () => {
  const text = "fake claude (interactive)\n> hello\ngot: hello\nreply to: hello\n> ";
  deepStrictEqual(screenTurnEnd("claude", text, "hello"), {
    outcome: "completed",
    reply: "got: hello\nreply to: hello",
  });
  deepStrictEqual(screenTurnEnd(null, text, "hello"), {
    outcome: "completed",
    reply: "got: hello\nreply to: hello",
  });
});
