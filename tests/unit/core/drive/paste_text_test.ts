import { deepStrictEqual } from "node:assert/strict";
import { sanitizePasteText } from "../../../../src/core/drive/paste_text.ts";

Deno.test("paste delimiters inside the text are removed whole, so the paste cannot end early", () => {
  deepStrictEqual(sanitizePasteText("a\nb\x1b[201~c"), { text: "a\nbc", removedChars: 6 });
  deepStrictEqual(sanitizePasteText("\x1b[200~x\x1b[201~"), { text: "x", removedChars: 12 });
  // A delimiter split by another one does not reassemble: no ESC survives at all.
  deepStrictEqual(sanitizePasteText("\x1b[20\x1b[201~1~"), { text: "[201~", removedChars: 7 });
  deepStrictEqual(sanitizePasteText("\x1b\x1b[201~[201~"), { text: "[201~", removedChars: 7 });
});

Deno.test("other control characters are removed: ESC, C0 except tab and newline, DEL, C1", () => {
  deepStrictEqual(sanitizePasteText("\x1b[2J\x1b]0;t\x07x"), { text: "[2J]0;tx", removedChars: 3 });
  deepStrictEqual(sanitizePasteText("a\x00b\x03c\x04d\x08e\x7ff"), {
    text: "abcdef",
    removedChars: 5,
  });
  deepStrictEqual(sanitizePasteText("\x9b201~\x85\x9f"), { text: "201~", removedChars: 3 });
  deepStrictEqual(sanitizePasteText("\x0b\x0c\x1f"), { text: "", removedChars: 3 });
});

Deno.test("CRLF and lone CR become one newline; tabs, unicode and shell syntax stay verbatim", () => {
  deepStrictEqual(sanitizePasteText("a\r\nb\rc\n\nd"), { text: "a\nb\nc\n\nd", removedChars: 0 });
  const verbatim =
    `tab\there "q" 'q' $(touch x) \`id\` '; rm -rf ~; ' \\ ñ 日本語 🚀 \u00a0 \u2028 é`;
  deepStrictEqual(sanitizePasteText(verbatim), { text: verbatim, removedChars: 0 });
});
