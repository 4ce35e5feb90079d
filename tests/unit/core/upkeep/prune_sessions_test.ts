/** `--older-than` durations of prune. */
import { strictEqual, throws } from "node:assert/strict";
import { parseDuration } from "../../../../src/base/duration.ts";
import { DEFAULT_PRUNE_AGE_MS } from "../../../../src/core/upkeep/prune_sessions.ts";

Deno.test("--older-than takes s, m, h, d and w units, and a bare 0", () => {
  strictEqual(parseDuration("0s"), 0);
  strictEqual(parseDuration("90s"), 90_000);
  strictEqual(parseDuration("30m"), 1_800_000);
  strictEqual(parseDuration("12h"), 43_200_000);
  strictEqual(parseDuration("7d"), DEFAULT_PRUNE_AGE_MS);
  strictEqual(parseDuration("1w"), DEFAULT_PRUNE_AGE_MS);
  strictEqual(parseDuration("0"), 0);
  strictEqual(parseDuration("1.5h"), 5_400_000);
});

Deno.test("a bad --older-than is invalid_argument naming the value", () => {
  // A bare number but 0 too: "7" was 7 seconds, for a user who meant a week.
  for (const bad of ["", "-1d", "7 days", "d", "1y", "7", "45"]) {
    throws(() => parseDuration(bad), (e: Error & { code?: string }) => {
      strictEqual(e.code, "invalid_argument");
      return e.message.includes(`"${bad}"`);
    });
  }
});
