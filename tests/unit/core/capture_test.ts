import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  captureResult,
  cleanCapture,
  echoLines,
  filterNoise,
  findDeltaStart,
  findMarkers,
  makeOffset,
  parseOffset,
} from "../../../src/core/capture.ts";
import { capturePaneArgs, paneInfoArgs, parsePaneRead } from "../../../src/core/capture_pane.ts";

const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);

Deno.test("cleanCapture trims trailing spaces and trailing blank rows", () => {
  deepStrictEqual(cleanCapture("a  \n\n b \n   \n\n\n", { paneDead: false }), ["a", "", " b"]);
});

Deno.test("cleanCapture drops only the final Pane is dead row, and only for a dead pane", () => {
  const raw = "hello\nPane is dead (status 0, x)\nworld\n\n\nPane is dead (status 3, Sun Nov 22)\n";
  deepStrictEqual(cleanCapture(raw, { paneDead: true }), [
    "hello",
    "Pane is dead (status 0, x)",
    "world",
  ]);
  deepStrictEqual(
    cleanCapture(raw, { paneDead: false }).at(-1),
    "Pane is dead (status 3, Sun Nov 22)",
  );
});

Deno.test("cleanCapture hides lisa markers unless raw, and noise unless keepNoise", () => {
  const raw = [
    "__LISA_SESSION_START__:run-1:1700000000",
    "⚠ MCP client for `docs` failed to start: handshake",
    "    timed out after 10s",
    "answer: 42",
    "result__LISA_SESSION_DONE__:run-1:0",
    "",
  ].join("\n");
  deepStrictEqual(cleanCapture(raw, { paneDead: false }), ["answer: 42", "result"]);
  deepStrictEqual(cleanCapture(raw, { paneDead: false, keepNoise: true }), [
    "⚠ MCP client for `docs` failed to start: handshake",
    "    timed out after 10s",
    "answer: 42",
    "result",
  ]);
  strictEqual(cleanCapture(raw, { paneDead: false, raw: true }).length, 5);
});

Deno.test("noise filtering keeps lines an answer could contain", () => {
  const answer = [
    "Tip: run the tests with -v",
    "The MCP server failed because the port was taken.",
    "mcp is a protocol",
    "Update available in the next release",
    "Auth conflicts are resolved by the lock.",
  ];
  deepStrictEqual(filterNoise(answer), answer);
});

Deno.test("noise filtering hides known banners as whole blocks", () => {
  const lines = [
    "OpenAI Codex v0.169.0 (research preview)",
    "--------",
    "workdir: /tmp/p",
    "model: gpt-5",
    "--------",
    "user",
    "hello",
    "╭────────╮",
    "│ ✻ Welcome to Claude Code! │",
    "│ cwd: /tmp/p │",
    "╰────────╯",
    "※ Tip: Use /memory",
    "1 MCP server failed · /mcp for info",
    "▐▛███▜▌   Claude Code v2.1.197",
    "done",
  ];
  deepStrictEqual(filterNoise(lines), ["user", "hello", "done"]);
});

Deno.test("an unfinished banner box is shown, not swallowed", () => {
  const lines = ["╭────────╮", "│ ✻ Welcome to Claude Code! │", "still drawing"];
  deepStrictEqual(filterNoise(lines), lines);
});

Deno.test("makeOffset of no text is 0 and parses back as a line count", () => {
  strictEqual(makeOffset([]), "0");
  deepStrictEqual(parseOffset("0"), { lineCount: 0 });
  deepStrictEqual(parseOffset(" 12 "), { lineCount: 12 });
  strictEqual(parseOffset("nope"), undefined);
  strictEqual(parseOffset("3:abc:1"), undefined);
});

Deno.test("an offset token carries line count, anchor hash and last line length", () => {
  const token = makeOffset(["a", "", "bb", "ccc"]);
  ok(/^4:[0-9a-f]{12}:3$/.test(token), token);
  deepStrictEqual(parseOffset(token)?.lineCount, 4);
});

Deno.test("a delta returns exactly the lines printed since the offset", () => {
  const before = numbered(1, 50);
  const token = makeOffset(before);
  const view = captureResult(numbered(1, 80), { deltaFrom: token });
  deepStrictEqual(view.lines, numbered(51, 80));
  deepStrictEqual(view.delta, { from: token, reset: false });
});

Deno.test("a delta survives history trimmed at the top (the anchor moved up)", () => {
  const token = makeOffset(numbered(1, 100));
  const view = captureResult(numbered(40, 130), { deltaFrom: token });
  deepStrictEqual(view.lines, numbered(101, 130));
});

Deno.test("a delta with nothing new is empty and keeps the same nextOffset", () => {
  const lines = numbered(1, 10);
  const token = makeOffset(lines);
  const view = captureResult(lines, { deltaFrom: token });
  strictEqual(view.text, "");
  strictEqual(view.nextOffset, token);
});

Deno.test("a delta resolves repeated identical lines at the expected position", () => {
  const same = (n: number) => Array.from({ length: n }, () => "x");
  const token = makeOffset(same(3));
  deepStrictEqual(captureResult(same(303), { deltaFrom: token }).lines.length, 300);
  const token2 = makeOffset(["start", ...same(5)]);
  deepStrictEqual(captureResult(["start", ...same(8)], { deltaFrom: token2 }).lines, same(3));
});

Deno.test("a delta returns the grown part of the last anchor line, then the new lines", () => {
  const token = makeOffset(["one", "two", "$ ech"]);
  const view = captureResult(["one", "two", "$ echo hi", "hi", "$"], { deltaFrom: token });
  deepStrictEqual(view.lines, ["o hi", "hi", "$"]);
});

Deno.test("blank rows after the offset are not skipped when text lands in them", () => {
  // The screen showed "a" and blank rows; the offset must not count those rows.
  const token = makeOffset(cleanCapture("a\n\n\n\n\n", { paneDead: false }));
  const later = cleanCapture("a\nb\n\n\n\n", { paneDead: false });
  strictEqual(captureResult(later, { deltaFrom: token }).text, "b");
});

Deno.test("a lost anchor resets to the whole text with a reason", () => {
  const token = makeOffset(["old", "text", "gone"]);
  const view = captureResult(["fresh", "screen"], { deltaFrom: token });
  deepStrictEqual(view.lines, ["fresh", "screen"]);
  deepStrictEqual(view.delta, { from: token, reset: true, reason: "anchor_not_found" });
});

Deno.test("a plain line count offset returns the lines after it, or resets past the end", () => {
  deepStrictEqual(captureResult(["a", "b", "c"], { deltaFrom: "1" }).lines, ["b", "c"]);
  const past = captureResult(["a"], { deltaFrom: "5" });
  deepStrictEqual(past.delta, { from: "5", reset: true, reason: "offset_beyond_end" });
  deepStrictEqual(findDeltaStart(["a"], undefined), { found: false, reason: "invalid_offset" });
});

Deno.test("a plain capture returns the last N lines and a delta is uncapped unless asked", () => {
  const all = numbered(1, 500);
  const plain = captureResult(all, {});
  strictEqual(plain.lines.length, 200);
  strictEqual(plain.truncated, true);
  deepStrictEqual(captureResult(all, { lines: 50 }).lines, numbered(451, 500));
  strictEqual(captureResult(all, { deltaFrom: "0" }).lines.length, 500);
  deepStrictEqual(captureResult(all, { deltaFrom: "0", lines: 2 }).lines, numbered(499, 500));
});

Deno.test("markers report found, missing and counts", () => {
  const m = findMarkers(["A and A", "B?", "none"], ["A", "C", "A"]);
  deepStrictEqual(m, { found: ["A"], missing: ["C"], counts: { A: 2, C: 0 } });
});

Deno.test("a marker that only appears in the echoed prompt does not count", () => {
  const prompt = "Fix the bug and then print DONE_42 on its own line";
  const echoed = [
    "╭──────────────────────────────╮",
    "│ > Fix the bug and then print │",
    "│   DONE_42 on its own line    │",
    "╰──────────────────────────────╯",
    "> Fix the bug and then print DONE_42 on its own line",
  ];
  deepStrictEqual(findMarkers(echoed, ["DONE_42"], prompt).found, []);
  const answered = [...echoed, "", "⏺ DONE_42"];
  deepStrictEqual(findMarkers(answered, ["DONE_42"], prompt).counts, { DONE_42: 1 });
});

Deno.test("in a long history a marker far up counts once, and a wrapped echo of it does not", () => {
  const prompt = "Fix the bug and then print DONE_42 on its own line";
  const filler = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
  const lines = [
    "│ > Fix the bug and then print │",
    "│   DONE_42                    │",
    "│   on its own line            │",
    ...filler,
    "⏺ DONE_42",
    ...filler,
  ];
  deepStrictEqual(findMarkers(lines, ["DONE_42"], prompt).counts, { DONE_42: 1 });
  deepStrictEqual(echoLines(lines.slice(0, 4), prompt, ["DONE_42"]), [true, true, true, false]);
});

Deno.test("a shell echo of a command does not count but its output does", () => {
  const prompt = "echo DONE_7";
  deepStrictEqual(echoLines(["$ echo DONE_7", "DONE_7"], prompt, ["DONE_7"]), [true, false]);
  deepStrictEqual(findMarkers(["$ echo DONE_7"], ["DONE_7"], prompt).missing, ["DONE_7"]);
});

Deno.test("without a prompt no line is an echo", () => {
  deepStrictEqual(echoLines(["> hi"], null), [false]);
  deepStrictEqual(findMarkers(["> DONE"], ["DONE"]).found, ["DONE"]);
});

Deno.test("captureResult checks markers in the returned lines only", () => {
  const token = makeOffset(["MARK", "x"]);
  const view = captureResult(["MARK", "x", "y"], { deltaFrom: token, markers: ["MARK"] });
  deepStrictEqual(view.markers?.missing, ["MARK"]);
});

Deno.test("capture-pane argv joins lines and starts in history", () => {
  deepStrictEqual(capturePaneArgs("lisa-x", 250), [
    "capture-pane",
    "-p",
    "-J",
    "-t",
    "=lisa-x:",
    "-S",
    "-250",
  ]);
  strictEqual(capturePaneArgs("lisa-x", "all").at(-1), "-");
});

Deno.test("parsePaneRead splits the pane text from the chained display-message line", () => {
  const read = parsePaneRead("hello\nworld\n\n1\x1f3\x1f12\x1flisa-x\n");
  deepStrictEqual(read, {
    text: "hello\nworld\n\n",
    paneDead: true,
    deadStatus: 3,
    historySize: 12,
    session: "lisa-x",
  });
  const alive = parsePaneRead("x\n0\x1f\x1f0\x1flisa-x\n");
  strictEqual(alive.paneDead, false);
  strictEqual(alive.deadStatus, null);
});

Deno.test("the capture's display-message names the session it read; a missing target names none", () => {
  deepStrictEqual(paneInfoArgs("lisa-w-1").slice(0, 4), [
    "display-message",
    "-p",
    "-t",
    "=lisa-w-1:",
  ]);
  ok(paneInfoArgs("lisa-w-1")[5].endsWith("#{session_name}"));
  // What tmux 3.3a prints for a target it cannot find: empty fields, exit 0.
  strictEqual(parsePaneRead("\x1f\x1f\x1f\n").session, "");
});
