/** Words written to a tmux control-mode client reach tmux's parser unchanged. */
import { strictEqual } from "node:assert/strict";
import { quoteWord } from "../../../src/tmux/control.ts";

Deno.test("control-mode words are quoted so tmux reads them literally", () => {
  strictEqual(quoteWord("=lisa-a:"), "'=lisa-a:'");
  strictEqual(quoteWord("#{session_name}\x1f#{pane_pid}"), "'#{session_name}\x1f#{pane_pid}'");
  strictEqual(quoteWord("x;"), "'x;'");
  strictEqual(quoteWord(`it's "$HOME"`), `"it's \\"\\$HOME\\""`);
});
