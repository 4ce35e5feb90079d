/**
 * `capture --markers … --markers-json` adds `markerHits[]` (marker, line, start, end, at), as the
 * older Go lisa's documentation promised its users: each occurrence of a marker in the text the
 * capture read, which a caller can find again in that text.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { endStray, spawn } from "./lifecycle_helpers.ts";

interface Hit {
  marker: string;
  line: number;
  start: number;
  end: number;
  at: string;
}

Deno.test("capture --markers --markers-json lists each marker occurrence with its line, offsets and time", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, [
      "--command",
      "printf 'start\\n● DONE_1 and DONE_1\\nnothing here\\n🙂 DONE_2\\n'; exec sleep 600",
    ]);
    const capture = async (...args: string[]) =>
      await world.lisaInProcess(["session", "capture", "--session", s.session, ...args]);
    // The same text the marker search reads: the capture without markers.
    const ready = await waitFor(async () => {
      const r = await capture("--json");
      return String(r.json?.capture ?? "").includes("DONE_2") ? r : null;
    }, 20_000);
    ok(ready, "the pane printed its lines");
    const text = String(ready.json?.capture);
    const before = Date.now();
    // --markers-json alone prints JSON (no --json needed), as in the Go lisa.
    const r = await capture("--markers", "DONE_1,DONE_2,MISSING", "--markers-json");
    strictEqual(r.code, 0, r.stderr);
    ok(r.json, r.stdout);
    deepStrictEqual(r.json.markerCounts, { DONE_1: 2, DONE_2: 1, MISSING: 0 });
    const hits = r.json.markerHits as Hit[];
    deepStrictEqual(hits.map((h) => h.marker), ["DONE_1", "DONE_1", "DONE_2"]);
    const chars = [...text];
    const lines = text.split("\n");
    for (const h of hits) {
      strictEqual(chars.slice(h.start, h.end).join(""), h.marker, JSON.stringify(h));
      ok(lines[h.line - 1].includes(h.marker), `${JSON.stringify(h)} in ${lines[h.line - 1]}`);
      const at = Date.parse(h.at);
      ok(at >= before - 1000 && at <= Date.now() + 1000, h.at);
    }
    strictEqual(hits[0].line, hits[1].line);
    ok(hits[0].end <= hits[1].start);
    // Compact JSON asks for them too; plain --json with markers keeps the Go shape without them.
    const min = await capture("--markers", "DONE_2", "--markers-json", "--json-min");
    deepStrictEqual((min.json?.markerHits as Hit[]).map((h) => h.line), [hits[2].line]);
    const plain = await capture("--markers", "DONE_2", "--json");
    strictEqual(plain.json?.markerHits, undefined);
    // snapshot's marker mode says the same.
    const snap = await world.lisaInProcess([
      "session",
      "snapshot",
      "--session",
      s.session,
      "--markers",
      "DONE_2",
      "--markers-json",
    ]);
    deepStrictEqual(
      (snap.json?.markerHits as Hit[]).map(({ at: _at, ...h }) => h),
      [{ marker: "DONE_2", line: hits[2].line, start: hits[2].start, end: hits[2].end }],
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("--markers-json without --markers is missing_argument, before anything is read", async () => {
  const world = await makeWorld();
  try {
    for (const verb of ["capture", "snapshot"]) {
      const r = await world.lisaInProcess([
        "session",
        verb,
        "--session",
        "lisa-nothing-here",
        "--markers-json",
        "--json",
      ]);
      strictEqual(r.code, 1, verb);
      strictEqual(r.json?.errorCode, "missing_argument", r.stdout);
      ok(String(r.json?.error).includes("--markers"), r.stdout);
    }
  } finally {
    await world.dispose();
  }
});
