/**
 * The delta contract of `capture --delta-from`, on simulated pane texts: every row printed is
 * returned exactly once, above a redrawn footer too; rows redrawn in place wait in `live`
 * until they stop changing; identical lines are counted; a position lost to history trimming
 * is a reset with a reason, never a silent loss.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { captureResult, type CaptureView } from "../../../../src/core/capture/capture_view.ts";
import {
  ANCHOR_ROWS,
  formatOffset,
  type PaneGeometry,
  parseOffset,
  UNKNOWN_GEOMETRY,
} from "../../../../src/core/capture/offset.ts";

const numbered = (from: number, to: number, prefix = "line") =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix} ${from + i}`);
const geometry = (over: Partial<PaneGeometry> = {}): PaneGeometry => ({
  ...UNKNOWN_GEOMETRY,
  height: 10,
  historyLimit: 50_000,
  ...over,
});

/** A reader that polls deltas and keeps what they returned. */
class Reader {
  received: string[] = [];
  lastLive: string[] = [];
  constructor(public token: string) {}
  poll(lines: readonly string[], g: PaneGeometry = geometry()): CaptureView {
    const view = captureResult(lines, { deltaFrom: this.token, geometry: g });
    strictEqual(view.delta?.reset, false, `unexpected reset: ${view.delta?.reason}`);
    this.received.push(...view.lines);
    this.lastLive = view.live ?? [];
    this.token = view.nextOffset;
    return view;
  }
}

/** A reader whose first token is that of an empty pane. */
function freshReader(): Reader {
  return new Reader(captureResult([], { geometry: geometry() }).nextOffset);
}

Deno.test("a token round-trips through its text form and rejects garbage", () => {
  const token = captureResult(numbered(1, 30), { geometry: geometry() }).nextOffset;
  ok(token.startsWith("o2.30.0.c.0."), token);
  const cursor = captureResult(["a", "b."], { geometry: geometry({ cursorOnLastLine: true }) });
  ok(cursor.nextOffset.startsWith("o2.2.0.c.0c."), cursor.nextOffset);
  const parsed = parseOffset(token);
  ok(parsed?.kind === "window");
  strictEqual(parsed.rows.length, 10 + ANCHOR_ROWS);
  strictEqual(formatOffset(parsed), token);
  deepStrictEqual(parseOffset(" 12 "), { kind: "count", lineCount: 12 });
  for (
    const bad of ["nope", "3:abcdefabcdef:1", "o2.1.0.c.0.AAAAAAAA", "o2.5.0.x.0.", "o2.5.0.c.9."]
  ) {
    strictEqual(parseOffset(bad), undefined, bad);
  }
});

Deno.test("a delta returns exactly the lines printed since the offset, although they scrolled", () => {
  const token = captureResult(numbered(1, 50), { geometry: geometry() }).nextOffset;
  const view = captureResult(numbered(1, 80), { deltaFrom: token, geometry: geometry() });
  deepStrictEqual(view.lines, numbered(51, 80));
  deepStrictEqual(view.live, []);
  deepStrictEqual(view.delta, { from: token, reset: false });
});

Deno.test("a delta with nothing new is empty and keeps the same nextOffset", () => {
  const lines = numbered(1, 40);
  const token = captureResult(lines, { geometry: geometry() }).nextOffset;
  const view = captureResult(lines, { deltaFrom: token, geometry: geometry() });
  strictEqual(view.text, "");
  strictEqual(view.nextOffset, token);
});

Deno.test("rows printed above a redrawn footer are returned once each; the footer is live", () => {
  // An ink-style screen: a transcript, then a 4-row input box and status line redrawn in place.
  const footer = (
    tick: number,
  ) => ["╭──────────╮", "│ >        │", "╰──────────╯", `✻ Working ${tick}s`];
  const reader = freshReader();
  const log: string[] = [];
  for (let i = 1; i <= 40; i++) {
    log.push(`log ${i}`);
    reader.poll([...log, ...footer(i)]);
    // Between two new rows the footer alone is redrawn: nothing new.
    const again = reader.poll([...log, ...footer(i + 1000)]);
    deepStrictEqual(again.lines, []);
  }
  // The first poll saw the footer as new; from then on only log rows come back.
  deepStrictEqual(reader.received, ["log 1", ...footer(1), ...numbered(2, 40, "log")]);
  deepStrictEqual(reader.lastLive, footer(1040));
});

Deno.test("rows above a footer are returned when many arrive between two polls", () => {
  const footer = (s: string) => ["┌─────┐", `│ ${s} │`, "└─────┘"];
  const reader = new Reader(
    captureResult([...numbered(1, 5, "log"), ...footer("a")], { geometry: geometry() }).nextOffset,
  );
  const view = reader.poll([...numbered(1, 300, "log"), ...footer("b")]);
  deepStrictEqual(view.lines, numbered(6, 300, "log"));
  deepStrictEqual(view.live, footer("b"));
  // The footer stays live as a whole while only a row of it changes.
  const next = reader.poll([...numbered(1, 300, "log"), ...footer("c")]);
  deepStrictEqual([next.lines, next.live], [[], footer("c")]);
  const same = reader.poll([...numbered(1, 300, "log"), ...footer("c")]);
  deepStrictEqual([same.lines, same.live], [[], footer("c")]);
});

Deno.test("a row growing without a newline is returned once, whole, when the next row comes", () => {
  const reader = freshReader();
  const cursorLast = geometry({ cursorOnLastLine: true });
  reader.poll(["start", "."], cursorLast);
  reader.poll(["start", "...."], cursorLast);
  const growing = reader.poll(["start", "....progress 10%"], cursorLast);
  deepStrictEqual(growing.lines, []);
  deepStrictEqual(growing.live, ["....progress 10%"]);
  reader.poll(["start", "....progress 10%", "next"], geometry()); // cursor below "next"
  deepStrictEqual(reader.received, ["start", "....progress 10%", "next"]);
});

Deno.test("a \\r progress line is not repeated per poll and its final text is returned once", () => {
  const reader = freshReader();
  const cursorLast = geometry({ cursorOnLastLine: true });
  for (let p = 0; p <= 100; p += 10) {
    const view = reader.poll(["building", `progress ${p}%`], cursorLast);
    deepStrictEqual(view.live, [`progress ${p}%`]);
  }
  reader.poll(["building", "progress 100%", "done"], geometry());
  deepStrictEqual(reader.received, ["building", "progress 100%", "done"]);
});

Deno.test("a \\r progress line is live even when the cursor position is unknown", () => {
  const reader = new Reader(
    captureResult(["building", "progress 0%"], { geometry: geometry() }).nextOffset,
  );
  for (let p = 10; p <= 100; p += 10) reader.poll(["building", `progress ${p}%`]);
  deepStrictEqual(reader.received, []);
  reader.poll(["building", "progress 100%", "done"]);
  // "progress 0%" was received in the first capture; its final text comes once more. Without
  // the cursor, the bottom row is taken for the redrawn one (as in a footer): "done" waits in
  // `live` for the next row or the end of the programme.
  deepStrictEqual(reader.received, ["progress 100%"]);
  deepStrictEqual(reader.lastLive, ["done"]);
});

Deno.test("identical repeated lines are counted, not merged", () => {
  const same = (n: number) => Array.from({ length: n }, () => "x");
  const reader = new Reader(captureResult(same(3), { geometry: geometry() }).nextOffset);
  strictEqual(reader.poll(same(303)).lines.length, 300);
  strictEqual(reader.poll(same(5303)).lines.length, 5000);
  strictEqual(reader.poll(same(5303)).lines.length, 0);
  const footer = ["> ", "status"];
  const withFooter = new Reader(
    captureResult(["start", ...same(5), ...footer], { geometry: geometry() }).nextOffset,
  );
  deepStrictEqual(withFooter.poll(["start", ...same(8), ...footer]).lines, same(3));
});

Deno.test("history trimmed at the top: distinct lines are placed by their anchor", () => {
  const trimmed = geometry({ historySize: 45_000, historyLimit: 50_000 });
  const token = captureResult(numbered(1, 100), { geometry: geometry({ historySize: 49_990 }) })
    .nextOffset;
  const view = captureResult(numbered(40, 130), { deltaFrom: token, geometry: trimmed });
  deepStrictEqual(view.lines, numbered(101, 130));
});

Deno.test("history trimmed under identical lines is a reset, never a silent loss", () => {
  const same = (n: number) => Array.from({ length: n }, () => "x");
  const token = captureResult(same(50_010), { geometry: geometry({ historySize: 50_000 }) })
    .nextOffset;
  const view = captureResult(same(45_010), {
    deltaFrom: token,
    geometry: geometry({ historySize: 45_000 }),
  });
  deepStrictEqual(view.delta, { from: token, reset: true, reason: "history_trimmed" });
  strictEqual(view.lines.length, 45_010);
});

Deno.test("an anchor scrolled out of the history resets with a reason", () => {
  const token = captureResult(numbered(1, 100), { geometry: geometry({ historySize: 49_000 }) })
    .nextOffset;
  const view = captureResult(numbered(5000, 5100), {
    deltaFrom: token,
    geometry: geometry({ historySize: 45_000 }),
  });
  deepStrictEqual(view.delta, { from: token, reset: true, reason: "history_trimmed" });
  deepStrictEqual(view.lines, numbered(5000, 5100));
});

Deno.test("a cleared history that lost the anchor resets; a whole-text window never needs one", () => {
  const token = captureResult(numbered(1, 100), { geometry: geometry({ historySize: 90 }) })
    .nextOffset;
  const cleared = captureResult(["fresh", "screen"], {
    deltaFrom: token,
    geometry: geometry({ historySize: 0 }),
  });
  deepStrictEqual(cleared.delta?.reason, "history_trimmed");
  // A short text redrawn as a whole (a full-screen programme) is live, not new.
  const short = captureResult(["a", "b"], { geometry: geometry() }).nextOffset;
  const redrawn = captureResult(["other", "text"], { deltaFrom: short, geometry: geometry() });
  deepStrictEqual([redrawn.lines, redrawn.live], [[], ["other", "text"]]);
});

Deno.test("a dead pane has no live region: what was being redrawn is returned", () => {
  const reader = freshReader();
  reader.poll(["a", "progress 5%"], geometry({ cursorOnLastLine: true }));
  const end = reader.poll(["a", "progress 100%"], geometry({ dead: true }));
  deepStrictEqual(end.live, []);
  deepStrictEqual(reader.received, ["a", "progress 100%"]);
});

Deno.test("a token of another cleaning mode resets instead of misplacing", () => {
  const token = captureResult(["a", "b"], { geometry: geometry(), mode: "r" }).nextOffset;
  const view = captureResult(["a", "b", "c"], { deltaFrom: token, geometry: geometry() });
  deepStrictEqual(view.delta?.reason, "mode_changed");
});

Deno.test("a plain line count offset returns the lines after it, or resets past the end", () => {
  deepStrictEqual(captureResult(["a", "b", "c"], { deltaFrom: "1" }).lines, ["b", "c"]);
  const past = captureResult(["a"], { deltaFrom: "5" });
  deepStrictEqual(past.delta, { from: "5", reset: true, reason: "offset_beyond_end" });
  const garbage = captureResult(["a"], { deltaFrom: "zz" });
  deepStrictEqual(garbage.delta, { from: "zz", reset: true, reason: "invalid_offset" });
});

Deno.test("markers of a delta are looked for in its rows and its live region", () => {
  const token = captureResult(["a"], { geometry: geometry() }).nextOffset;
  const view = captureResult(["a", "b", "DONE_1"], {
    deltaFrom: token,
    geometry: geometry({ cursorOnLastLine: true }),
    markers: ["DONE_1"],
  });
  deepStrictEqual(view.lines, ["b"]);
  deepStrictEqual(view.live, ["DONE_1"]);
  deepStrictEqual(view.markers?.found, ["DONE_1"]);
});

Deno.test("a delta of a long history costs one pass: 50 000 new lines under a footer", () => {
  const footer = ["> ", "✻ 1s"];
  const token = captureResult([...numbered(1, 10), ...footer], { geometry: geometry() })
    .nextOffset;
  const view = captureResult([...numbered(1, 50_000), "> ", "✻ 2s"], {
    deltaFrom: token,
    geometry: geometry({ historySize: 40_000 }),
  });
  strictEqual(view.lines.length, 49_990);
  deepStrictEqual(view.live, ["> ", "✻ 2s"]);
});

Deno.test("codex drawing a reply's last line first, then the whole reply below it: each line once", () => {
  // Six distinct screens of a real codex 0.169 turn (recorded from the real-agent tier): idle,
  // working, then for ~70 ms "CHARLIE three" alone on row 7, then the reply on rows 8-12. A
  // reader polling at any moment must get each reply line once: the row it was given at row 7
  // is the one now on row 12, not a new one (rows with text outweigh blank rows in the match).
  const frames = JSON.parse(
    Deno.readTextFileSync(
      new URL("../../../fixtures/screens/codex_reply_insert.json", import.meta.url),
    ),
  ) as { lines: string[]; geometry: PaneGeometry }[];
  const reply = ["• ALPHA one", "  BRAVO two", "  CHARLIE three"];
  // Every order-preserving choice of the screens after the first is a possible polling schedule.
  for (let mask = 1; mask < 1 << (frames.length - 1); mask++) {
    const polled = frames.slice(1).filter((_, k) => (mask >> k) & 1);
    const reader = new Reader(
      captureResult(frames[0].lines, { geometry: frames[0].geometry }).nextOffset,
    );
    for (const f of polled) reader.poll(f.lines, f.geometry);
    const last = frames[frames.length - 1];
    reader.poll(last.lines, last.geometry);
    for (const line of reply) {
      strictEqual(
        reader.received.filter((l) => l === line).length,
        1,
        `${line} in schedule ${mask.toString(2)}: ${
          JSON.stringify(reader.received.filter((l) => l))
        }`,
      );
    }
  }
});

Deno.test("back from the alternate screen (a pager closed), a delta repeats nothing of the normal screen", () => {
  const normal = ["$ run", "start", ...numbered(1, 5, "a"), "$"];
  const onAlt = geometry({ alternateOn: true, alternateLines: 3 });
  const onNormal = geometry({ alternateOn: false });
  const reader = new Reader(captureResult(normal, { geometry: onNormal }).nextOffset);
  // The pager's rows are read as any screen's (live while redrawn in place).
  reader.poll(["x 1", "x 2"], onAlt);
  ok(reader.token.includes("~"), reader.token);
  reader.poll(["x 1", "x 2", "x 3"], onAlt);
  // Back: the normal screen as the reader had it; nothing again.
  const back = reader.poll(normal, onNormal);
  deepStrictEqual(back.lines, []);
  ok(!reader.token.includes("~"), reader.token);
  // What comes after is new, once.
  reader.poll([...normal.slice(0, -1), "after 1", "$"], onNormal);
  deepStrictEqual(reader.received.filter((l) => !l.startsWith("x ")), ["after 1"]);
});

Deno.test("an alternate-screen token keeps the normal window it carries; without tmux's word, none", () => {
  const normal = ["one", "two", "three"];
  const t = captureResult(normal, { geometry: geometry({ alternateOn: false }) }).nextOffset;
  // A plain capture on the alternate screen, with no token before it: nothing to carry.
  const alt1 = geometry({ alternateOn: true, alternateLines: 1 });
  const plainAlt = captureResult(["x"], { geometry: alt1 }).nextOffset;
  ok(plainAlt.endsWith("~"), plainAlt);
  deepStrictEqual(parseOffset(plainAlt), {
    ...parseOffset(plainAlt.slice(0, -1))!,
    alt: { carry: null },
  });
  // A delta into the alternate screen carries the normal token; the next carries it on.
  const a1 = captureResult(["x"], { deltaFrom: t, geometry: alt1 });
  const a2 = captureResult(["y"], { deltaFrom: a1.nextOffset, geometry: alt1 });
  for (const token of [a1.nextOffset, a2.nextOffset]) {
    const parsed = parseOffset(token)!;
    ok(parsed.kind === "window" && parsed.alt?.carry, token);
    strictEqual(formatOffset(parsed.alt!.carry!), t);
    strictEqual(formatOffset(parsed), token, "round trip");
  }
  // A reset on the alternate screen returns the whole text, history included: nothing is
  // carried (returning to the old window would repeat that history).
  const reset = captureResult(["z"], {
    deltaFrom: `${t}~`.replace("o2.3.", "o2.99."),
    geometry: alt1,
  });
  strictEqual(reset.delta?.reset, true);
  ok(reset.nextOffset.endsWith("~"), reset.nextOffset);
  // Geometry that does not say (unit callers): tokens as before; without the number of
  // alternate rows nothing can be carried.
  const plain = captureResult(["x"], { deltaFrom: t, geometry: geometry() }).nextOffset;
  ok(!plain.includes("~"), plain);
  const unknownRows = captureResult(["x"], {
    deltaFrom: t,
    geometry: geometry({ alternateOn: true }),
  }).nextOffset;
  ok(unknownRows.endsWith("~"), unknownRows);
  // Malformed carried windows are invalid tokens, not half-read ones.
  for (const bad of [`${t}~1.2`, `${t}~~`, `${t}~1.0.5.AAAAAA`]) {
    strictEqual(parseOffset(bad), undefined, bad);
  }
});

Deno.test("lines that scrolled into history before a pager opened come once, after it closed", () => {
  const g = (alt: boolean, over: Partial<PaneGeometry> = {}) =>
    geometry({ height: 5, alternateOn: alt, ...over });
  const before = numbered(0, 19);
  const reader = new Reader(captureResult(before, { geometry: g(false) }).nextOffset);
  // new 20..27 printed (20..22 scroll into history), then a pager over the screen, twice
  // polled; the history above it is the normal screen's: held back while the pager shows.
  const history = [...before, ...numbered(20, 22, "new")];
  reader.poll([...history, ...numbered(1, 5, "p")], g(true, { alternateLines: 5 }));
  reader.poll([...history, ...numbered(2, 6, "p")], g(true, { alternateLines: 5 }));
  // Closed: the normal screen shows new 23..27 under its history.
  const back = reader.poll([...before, ...numbered(20, 27, "new")], g(false));
  deepStrictEqual(back.lines, numbered(20, 27, "new"));
  deepStrictEqual(reader.received.filter((l) => !l.startsWith("p ")), numbered(20, 27, "new"));
});
