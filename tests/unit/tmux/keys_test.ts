import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { isValidKey, NAMED_KEYS, suggestKey } from "../../../src/tmux/keys.ts";

Deno.test("tmux's named keys, modifiers and single characters are keys, case-insensitive like tmux", () => {
  const valid = [
    ...NAMED_KEYS,
    "enter",
    "ESCAPE",
    "btab",
    "pgdn",
    "kpenter",
    "f5",
    "y",
    "Y",
    "1",
    "q",
    "-",
    "^",
    ";",
    "é",
    "日",
    "🚀",
    "C-c",
    "c-c",
    "^c",
    "^C-c",
    "C-M-x",
    "M-C-x",
    "S-Up",
    "s-up",
    "C-Enter",
    "M--",
    "C--",
    "^-",
    "C-^",
    "C-S-M-F1",
    "M-S-Up",
    "C-M-a",
    "C-M-Space",
    "C-M-[",
    "C-M-?",
    "M-日",
    "M-~",
    "C-!",
  ];
  for (const key of valid) ok(isValidKey(key), key);
});

Deno.test("words tmux would type out as text are not keys", () => {
  const invalid = [
    "Escpe",
    "Esc",
    "ab",
    "hello",
    "F13",
    "F0",
    "KP10",
    "C-",
    "M-",
    "--",
    "C-ab",
    "C-^c",
    "S-^c",
    "x-y",
    "",
    "e\u0301", // two code points (decomposed é): tmux refuses it too
    "👍🏽",
    "\x01",
    "\x1b",
    "\x7f",
    "\x9b",
    // tmux reads these, but they are no input an agent needs: refused on purpose
    "Any",
    "MouseDown1Pane",
    "WheelUpPane",
    "User0",
    "0x41",
    "C-~",
    "^|",
    'C-M-"',
    // tmux 3.3a reads these as keys but cannot send them: it types the name out as text
    "S-Enter",
    "s-enter",
    "S-Tab",
    "S-Space",
    "S-a",
    "S-1",
    "S-é",
    "S-KP0",
    "C-S-a",
    "M-S-x",
    "^S-a",
    "C-M-1",
    "C-M-/",
    "C-M-Enter",
    "C-M-Escape",
  ];
  for (const key of invalid) ok(!isValidKey(key), JSON.stringify(key));
});

Deno.test("an unknown key name gets the key it most likely meant", () => {
  const cases: [string, string | null][] = [
    ["Escpe", "Escape"],
    ["Esc", "Escape"],
    ["esc", "Escape"],
    ["Return", "Enter"],
    ["Entr", "Enter"],
    ["Backspace", "BSpace"],
    ["Del", "Delete"],
    ["PageDn", "PageDown"],
    ["Ctrl+c", "C-c"],
    ["ctrl-c", "C-c"],
    ["Alt+x", "M-x"],
    ["C+c", "C-c"],
    ["C-Escpe", "C-Escape"],
    ["Shift+Tab", "BTab"],
    ["S-Tab", "BTab"],
    ["hello", null],
    ["ab", null],
    ["C-ab", null],
  ];
  for (const [word, want] of cases) strictEqual(suggestKey(word), want, word);
  deepStrictEqual(suggestKey("Enter"), null);
});
