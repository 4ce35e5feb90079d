import { ok, strictEqual } from "node:assert/strict";
import { parseSince } from "../../../src/base/duration.ts";

const NOW = Date.parse("2026-01-02T03:04:05Z");

Deno.test("--since further back than dates go means every time, not an invalid date", () => {
  const since = parseSince("99999999999d", NOW);
  ok(Number.isFinite(new Date(since).getTime()), `${since} is no date`);
  strictEqual(new Date(since).toISOString(), new Date(-8.64e15).toISOString());
});
