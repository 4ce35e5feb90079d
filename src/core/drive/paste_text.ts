/**
 * What `send --text` may paste. tmux wraps the paste in `ESC[200~ … ESC[201~` (bracketed
 * paste); an `ESC[201~` inside the text would end the paste early and everything after it would
 * reach the agent as typed keys (an Enter in it submits, an ESC sequence moves or deletes).
 * So the text is made inert before it is pasted:
 *
 * - the paste delimiters `ESC[200~` and `ESC[201~` are removed whole;
 * - every other control character is removed: ESC anywhere (so no escape sequence survives
 *   to be pieced together), the other C0 controls (U+0000–U+001F) except tab and newline, DEL
 *   (U+007F) and the C1 controls (U+0080–U+009F, whose U+009B is a one-character CSI);
 * - line ends are normalised to `\n`: CRLF is one line end, not two, and a lone CR is a line end
 *   (inside a paste tmux turns every `\n` into the CR a terminal sends for Enter anyway).
 *
 * Everything else (any Unicode, quotes, `$(…)`, backslashes, tabs) arrives byte for byte.
 */

/** Delimiters, line ends and control characters, matched in one pass over the text. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE = /\x1b\[20[01]~|\r\n?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/** Text made safe to paste, and how many characters were removed from it. */
export interface SanitizedText {
  text: string;
  /** Characters removed (a removed delimiter counts its 6 characters); CRLF → LF not counted. */
  removedChars: number;
}

/** Makes `text` safe to paste inside a bracketed paste (see the module doc). */
export function sanitizePasteText(text: string): SanitizedText {
  let removedChars = 0;
  // One pass over the original: what is removed cannot join its neighbours into a new
  // sequence, because no ESC (nor U+009B) is left at all.
  const clean = text.replace(UNSAFE, (m) => {
    if (m[0] === "\r") return "\n";
    removedChars += m.length;
    return "";
  });
  return { text: clean, removedChars };
}
