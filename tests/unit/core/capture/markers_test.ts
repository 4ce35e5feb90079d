import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { findMarkers, markerFields } from "../../../../src/core/capture/markers.ts";

Deno.test("each marker occurrence is a hit: line from 1, character offsets in the joined text", () => {
  const lines = ["start", "● DONE and DONE", "", "🙂 ERR then DONE"];
  const s = findMarkers(lines, ["DONE", "ERR", "NOPE"]);
  deepStrictEqual(s.counts, { DONE: 3, ERR: 1, NOPE: 0 });
  deepStrictEqual(s.hits, [
    { marker: "DONE", line: 2, start: 8, end: 12 },
    { marker: "DONE", line: 2, start: 17, end: 21 },
    { marker: "ERR", line: 4, start: 25, end: 28 },
    { marker: "DONE", line: 4, start: 34, end: 38 },
  ]);
  // The offsets are characters (code points): slicing the text by them gives the marker back,
  // past the two-unit emoji too.
  const chars = [...lines.join("\n")];
  for (const h of s.hits) strictEqual(chars.slice(h.start, h.end).join(""), h.marker);
});

Deno.test("a line that only echoes the prompt gives no hit, as it gives no count", () => {
  const prompt = "do the work, then print DONE_42";
  const s = findMarkers(["> do the work, then print DONE_42", "DONE_42"], ["DONE_42"], prompt);
  deepStrictEqual(s.hits, [{ marker: "DONE_42", line: 2, start: 34, end: 41 }]);
  strictEqual(s.counts.DONE_42, 1);
});

Deno.test("markerFields adds markerHits stamped with the read time only when asked", () => {
  const s = findMarkers(["A"], ["A"]);
  strictEqual(markerFields(s).markerHits, undefined);
  deepStrictEqual(markerFields(s, { hitsAt: new Date(0) }).markerHits, [
    { marker: "A", line: 1, start: 0, end: 1, at: "1970-01-01T00:00:00.000Z" },
  ]);
  strictEqual(markerFields(s, { counts: false }).markerCounts, undefined);
});

Deno.test("a marker seen hundreds of thousands of times in a long history is still placed", () => {
  // monitor --until-marker searches the whole history: a one-letter marker can hit everywhere.
  const lines = Array.from({ length: 3000 }, () => "x".repeat(100));
  const s = findMarkers(lines, ["x"]);
  strictEqual(s.counts.x, 300_000);
  strictEqual(s.hits.length, 300_000);
  deepStrictEqual(s.hits.at(-1), { marker: "x", line: 3000, start: 302_998, end: 302_999 });
});
