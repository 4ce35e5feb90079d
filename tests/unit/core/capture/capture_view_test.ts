import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  captureResult,
  cleanCapture,
  cursorOnLastLine,
  echoLines,
  filterNoise,
  findMarkers,
} from "../../../../src/core/capture/capture_view.ts";
import {
  capturePaneArgs,
  paneInfoArgs,
  parsePaneRead,
} from "../../../../src/core/capture/capture.ts";

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
  deepStrictEqual(m, {
    found: ["A"],
    missing: ["C"],
    counts: { A: 2, C: 0 },
    hits: [{ marker: "A", line: 1, start: 0, end: 1 }, { marker: "A", line: 1, start: 6, end: 7 }],
  });
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
  const token = captureResult(["MARK", "x"]).nextOffset;
  const view = captureResult(["MARK", "x", "y"], { deltaFrom: token, markers: ["MARK"] });
  deepStrictEqual(view.markers?.missing, ["MARK"]);
});

Deno.test("capture-pane argv joins lines, starts in history and reads the session's own pane", () => {
  deepStrictEqual(capturePaneArgs("lisa-x", 250, { windowId: "@3", paneId: "%7" }), [
    "capture-pane",
    "-p",
    "-J",
    "-t",
    "=lisa-x:.%7",
    "-S",
    "-250",
  ]);
  strictEqual(capturePaneArgs("lisa-x", "all", undefined).at(-1), "-");
  // A meta without ids (written before them): the session's first pane, never the active one.
  strictEqual(capturePaneArgs("lisa-x", "all", undefined)[4], "=lisa-x:^.{top-left}");
});

Deno.test("parsePaneRead splits the pane text from the chained display-message line", () => {
  const read = parsePaneRead(
    "hello\nworld\n\n1\x1f3\x1f12\x1f2000\x1f1\x1f10\x1f4\x1flisa-x\n",
  );
  deepStrictEqual(read, {
    text: "hello\nworld\n\n",
    paneDead: true,
    deadStatus: 3,
    facts: {
      dead: true,
      height: 10,
      cursorY: 4,
      historySize: 12,
      historyLimit: 2000,
      alternateOn: true,
    },
    session: "lisa-x",
  });
  const alive = parsePaneRead("x\n0\x1f\x1f0\x1f0\x1f0\x1f10\x1f0\x1flisa-x\n");
  strictEqual(alive.paneDead, false);
  strictEqual(alive.deadStatus, null);
});

Deno.test("the cursor is on the last line only when every row below it is blank", () => {
  const raw = "one\ntwo....\n\n\n"; // a 4-row screen, cursor on row 1
  strictEqual(cursorOnLastLine(raw, ["one", "two...."], 1, 4), true);
  strictEqual(cursorOnLastLine(raw, ["one", "two...."], 2, 4), false); // on a blank row
  strictEqual(cursorOnLastLine(raw, ["one", "two...."], 0, 4), false); // text below it
  strictEqual(cursorOnLastLine(raw, ["one"], 1, 4), false); // the row was cleaned away
  strictEqual(cursorOnLastLine(raw, ["one", "two...."], 1, 0), false); // height unknown
});

Deno.test("the capture's display-message names the session it read; a missing target names none", () => {
  deepStrictEqual(paneInfoArgs("lisa-w-1", { windowId: "@0", paneId: "%0" }).slice(0, 4), [
    "display-message",
    "-p",
    "-t",
    "=lisa-w-1:.%0",
  ]);
  ok(paneInfoArgs("lisa-w-1", undefined)[5].endsWith("#{session_name}"));
  // What tmux 3.3a prints for a target it cannot find: empty fields, exit 0.
  strictEqual(parsePaneRead("\x1f\x1f\x1f\x1f\x1f\x1f\n").session, "");
});
