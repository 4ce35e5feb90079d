/** attach's tmux client command. */
import { deepStrictEqual } from "node:assert/strict";
import { attachArgv } from "../../../../src/core/drive/attach.ts";

Deno.test("attach's client is UTF-8 whatever the locale (-u), exact pane target, -r read-only", () => {
  deepStrictEqual(attachArgv("/s.sock", "=lisa-a:@1.%2", false), [
    "tmux",
    "-u",
    "-S",
    "/s.sock",
    "attach-session",
    "-t",
    "=lisa-a:@1.%2",
  ]);
  deepStrictEqual(attachArgv("/s.sock", "=lisa-a:@1.%2", true).slice(4), [
    "attach-session",
    "-r",
    "-t",
    "=lisa-a:@1.%2",
  ]);
});
