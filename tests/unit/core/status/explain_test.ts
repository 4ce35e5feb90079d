import { strictEqual, throws } from "node:assert/strict";
import { parseSince } from "../../../../src/core/status/explain.ts";

const NOW = Date.parse("2026-01-02T03:04:05Z");

Deno.test("--since takes durations back from now", () => {
  strictEqual(parseSince("90s", NOW), NOW - 90_000);
  strictEqual(parseSince("15m", NOW), NOW - 900_000);
  strictEqual(parseSince("2h", NOW), NOW - 7_200_000);
  strictEqual(parseSince("1d", NOW), NOW - 86_400_000);
  strictEqual(parseSince("1.5m", NOW), NOW - 90_000);
});

Deno.test("--since takes ISO times", () => {
  strictEqual(parseSince("2026-01-02T00:00:00Z", NOW), Date.parse("2026-01-02T00:00:00Z"));
});

Deno.test("--since rejects anything else", () => {
  throws(() => parseSince("yesterday", NOW), /--since/);
  throws(() => parseSince("10", NOW), /--since/);
  throws(() => parseSince("-5m", NOW), /--since/);
});
