/**
 * tmux key names as `send-keys` understands them (tmux 3.3a, `key_string_lookup_string`), so
 * lisa can refuse a word tmux would not read as a key: `send-keys` types an unknown name out as
 * text (`Escpe` arrives as five letters), which is never what `--keys` meant.
 *
 * Grammar, checked against tmux 3.3a (`bind-key` and `send-keys` on a private server):
 * - an optional leading `^` (Ctrl), then any number of modifiers `C-` (Ctrl), `M-` (Meta/Alt),
 *   `S-` (Shift), case-insensitive (`c-c` is `C-c`);
 * - then either a named key, case-insensitive like tmux (`enter` is `Enter`): {@link NAMED_KEYS};
 * - or exactly one character (one Unicode code point: `y`, `1`, `q`, `-`, `é`, `日`), which is
 *   case-sensitive as any character is; with Ctrl, tmux refuses the ASCII characters
 *   `"$%&*{|}~` (it has no control code for them).
 *
 * tmux also reads some modified keys it then cannot send (extended-keys off, as lisa's servers
 * run): `send-keys` types their NAME out as text (`S-Enter` arrives as the seven characters
 * `S-Enter`). Checked key by key against tmux 3.3a, so refused here:
 * - Shift on anything but the cursor, navigation and function keys ({@link MODIFIABLE_KEYS}):
 *   `S-Enter`, `S-Tab` (Shift-Tab is `BTab`), `S-Space`, `S-a`, `C-S-a`, `S-KP0`;
 * - Ctrl and Meta together on a key without a control code: only a letter, `Space` and
 *   `@[\]^_?` have one (`C-M-a` is ESC ^A; `C-M-1`, `C-M-Enter` would be typed out).
 *
 * And Ctrl alone on a key without a control code (`C-Enter`, `C-Tab`, `C-BSpace`, `C-1`,
 * `C-!`, `C-KP0`) is read and then silently dropped: nothing reaches the pane. Ctrl alone
 * goes with a letter, `Space`, `@[\]^_?` and `2 6 - /`; a non-ASCII character loses it
 * (`C-é` arrives as `é`). Refused as well.
 *
 * Refused although tmux reads them: mouse and wheel names, `Any`, `User0`…, and `0x…` codes
 * (nothing an agent's input needs; a typo there would otherwise type text), and control
 * characters as single characters (use `C-x`, `Enter`, `Tab`, `BSpace`, `Escape`).
 */
import { closeEnough, editDistance } from "../base/suggest.ts";

/** Named keys tmux 3.3a accepts, spelled as tmux prints them (matching is case-insensitive). */
export const NAMED_KEYS: readonly string[] = [
  "Enter",
  "Escape",
  "Tab",
  "BTab",
  "Space",
  "BSpace",
  "Up",
  "Down",
  "Left",
  "Right",
  "Home",
  "End",
  "PageUp",
  "PgUp",
  "PPage",
  "PageDown",
  "PgDn",
  "NPage",
  "Insert",
  "IC",
  "Delete",
  "DC",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  ...Array.from({ length: 10 }, (_, i) => `KP${i}`),
  "KP/",
  "KP*",
  "KP-",
  "KP+",
  "KP.",
  "KPEnter",
];

const NAMED_LOWER = new Set(NAMED_KEYS.map((k) => k.toLowerCase()));

/**
 * Keys tmux 3.3a sends with any modifiers (xterm's `ESC[1;<m>A` forms): the cursor,
 * navigation and function keys. Every other key takes Shift nowhere (see the module doc).
 */
export const MODIFIABLE_KEYS: ReadonlySet<string> = new Set([
  "up",
  "down",
  "left",
  "right",
  "home",
  "end",
  "pageup",
  "pgup",
  "ppage",
  "pagedown",
  "pgdn",
  "npage",
  "insert",
  "ic",
  "delete",
  "dc",
  ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
]);

/** Keys with a control code, which Ctrl and Meta may modify together (`C-M-a`). */
const CTRL_META_BASE = /^(?:[A-Za-z@[\\\]^_?]|space)$/i;
/** Keys tmux 3.3a sends with Ctrl alone: those above, and `2 6 - /` (`C-2` is NUL, `C-/` ^_). */
const CTRL_BASE = /^(?:[A-Za-z@[\\\]^_?26/-]|space)$/i;

/** Names other tools use, mapped to tmux's (lowercase keys). */
const ALIASES: Readonly<Record<string, string>> = {
  esc: "Escape",
  return: "Enter",
  ret: "Enter",
  cr: "Enter",
  lf: "Enter",
  newline: "Enter",
  backspace: "BSpace",
  bs: "BSpace",
  del: "Delete",
  ins: "Insert",
  pagedn: "PageDown",
  pgdown: "PageDown",
  arrowup: "Up",
  arrowdown: "Down",
  arrowleft: "Left",
  arrowright: "Right",
  spacebar: "Space",
  backtab: "BTab",
};

/** Modifier spellings of other tools (`Ctrl+c`, `alt-x`), mapped to tmux's prefixes. */
const MODIFIER_ALIASES: readonly [RegExp, string][] = [
  [/^(?:ctrl|control|ctl)[-+_]/i, "C-"],
  [/^(?:alt|meta|opt|option)[-+_]/i, "M-"],
  [/^shift[-+_]/i, "S-"],
  [/^([CMS])\+/i, "$1-"],
];

/** True for C0/C1 control characters and DEL. */
function isControl(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/** The key part of `word` after its `^`/modifier prefix, or null when a prefix is malformed. */
function splitModifiers(word: string): { prefix: string; base: string } | null {
  let rest = word;
  if (rest.length > 1 && rest[0] === "^") rest = rest.slice(1);
  while (rest.length >= 2 && rest[1] === "-") {
    if (!/^[CMScms]$/.test(rest[0])) return null;
    rest = rest.slice(2);
  }
  return { prefix: word.slice(0, word.length - rest.length), base: rest };
}

/** ASCII characters tmux cannot combine with Ctrl (`C-~` is an unknown key in tmux 3.3a). */
const NO_CTRL = new Set('"$%&*{|}~');

function isKeyBase(base: string, ctrl: boolean): boolean {
  if (NAMED_LOWER.has(base.toLowerCase())) return true;
  const chars = [...base];
  return chars.length === 1 && !isControl(chars[0]) && !(ctrl && NO_CTRL.has(chars[0]));
}

/** True when a prefix of {@link splitModifiers} holds Ctrl (`^` or a `C-`). */
function hasCtrl(prefix: string): boolean {
  return prefix.startsWith("^") || hasModifier(prefix, "C");
}

/** True when a prefix of {@link splitModifiers} holds the modifier `m` (`C`, `M` or `S`). */
function hasModifier(prefix: string, m: string): boolean {
  for (let i = prefix.startsWith("^") ? 1 : 0; i < prefix.length; i += 2) {
    if (prefix[i].toUpperCase() === m) return true;
  }
  return false;
}

/**
 * True when tmux 3.3a can send the key `base` with the modifiers of `prefix`, rather than type
 * the word out as text (see the module doc).
 */
function isSendable(prefix: string, base: string): boolean {
  if (MODIFIABLE_KEYS.has(base.toLowerCase())) return true;
  if (hasModifier(prefix, "S")) return false;
  if (!hasCtrl(prefix)) return true;
  return (hasModifier(prefix, "M") ? CTRL_META_BASE : CTRL_BASE).test(base);
}

/** True when tmux reads `word` as one key lisa may send. */
export function isValidKey(word: string): boolean {
  const parts = splitModifiers(word);
  return parts !== null && parts.base !== "" &&
    isKeyBase(parts.base, hasCtrl(parts.prefix)) && isSendable(parts.prefix, parts.base);
}

function suggestBase(base: string): string | null {
  const lower = base.toLowerCase();
  if (ALIASES[lower] !== undefined) return ALIASES[lower];
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of NAMED_KEYS) {
    const dist = editDistance(lower, name.toLowerCase());
    if (dist < bestDistance) [best, bestDistance] = [name, dist];
  }
  return closeEnough(bestDistance, lower.length) ? best : null;
}

/** The valid key `word` most likely meant (`Escpe` → `Escape`, `Ctrl+c` → `C-c`), or null. */
export function suggestKey(word: string): string | null {
  let rest = word;
  let prefix = "";
  for (let changed = true; changed;) {
    changed = false;
    for (const [re, to] of MODIFIER_ALIASES) {
      const m = re.exec(rest);
      if (m !== null) {
        prefix += m[0].replace(re, to).toUpperCase();
        rest = rest.slice(m[0].length);
        changed = true;
      }
    }
  }
  const parts = splitModifiers(rest);
  if (parts === null || parts.base === "") return null;
  const ctrl = hasCtrl(prefix) || hasCtrl(parts.prefix);
  prefix += parts.prefix;
  const base = isKeyBase(parts.base, ctrl) ? parts.base : suggestBase(parts.base);
  if (base === null) return null;
  let suggestion = `${prefix}${base}`;
  if (!isValidKey(suggestion) && base.toLowerCase() === "tab" && hasModifier(prefix, "S")) {
    suggestion = `${prefix.replace(/s-/gi, "")}BTab`; // Shift-Tab is tmux's BTab
  }
  return suggestion !== word && isValidKey(suggestion) ? suggestion : null;
}
