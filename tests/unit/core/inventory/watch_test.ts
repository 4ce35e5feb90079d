/** `watch --until`: which states satisfy a condition. */
import { strictEqual } from "node:assert/strict";
import { meets } from "../../../../src/core/inventory/watch.ts";

Deno.test("--until terminal is any terminal state; a state name is that state only", () => {
  for (const s of ["completed", "crashed", "stuck", "not_found"] as const) {
    strictEqual(meets(s, "terminal"), true, s);
  }
  for (const s of ["just_started", "in_progress", "waiting_input", "degraded"] as const) {
    strictEqual(meets(s, "terminal"), false, s);
  }
  strictEqual(meets("waiting_input", "waiting_input"), true);
  strictEqual(meets("in_progress", "waiting_input"), false);
  strictEqual(meets(null, "terminal"), false);
});
