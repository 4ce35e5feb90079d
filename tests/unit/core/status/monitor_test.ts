import { strictEqual } from "node:assert/strict";
import { monitorExitCode, stopReason } from "../../../../src/core/status/monitor.ts";
import type { SessionStateName } from "../../../../src/base/types.ts";

const st = (sessionState: SessionStateName) => ({ sessionState });

Deno.test("exit codes follow seed 003: 0 success, 2 non-success", () => {
  for (const r of ["completed", "waiting_input", "marker_found", "state_matched"]) {
    strictEqual(monitorExitCode(r), 0, r);
  }
  for (
    const r of [
      "crashed",
      "stuck",
      "not_found",
      "max_polls_exceeded",
      "degraded_max_polls_exceeded",
      "expected_terminal",
      "expected_marker",
      "timeout",
    ]
  ) strictEqual(monitorExitCode(r), 2, r);
});

Deno.test("a monitor whose stdout reader left exits like a writer killed by SIGPIPE", () => {
  strictEqual(monitorExitCode("stdout_closed"), 141);
});

Deno.test("terminal states stop; live ones keep polling", () => {
  strictEqual(stopReason(st("completed"), false, {}), "completed");
  strictEqual(stopReason(st("crashed"), false, {}), "crashed");
  strictEqual(stopReason(st("stuck"), false, {}), "stuck");
  strictEqual(stopReason(st("not_found"), false, {}), "not_found");
  strictEqual(stopReason(st("in_progress"), false, {}), null);
  strictEqual(stopReason(st("just_started"), false, {}), null);
  strictEqual(stopReason(st("degraded"), false, {}), null);
});

Deno.test("waiting_input stops unless --stop-on-waiting false", () => {
  strictEqual(stopReason(st("waiting_input"), false, {}), "waiting_input");
  strictEqual(stopReason(st("waiting_input"), false, { stopOnWaiting: false }), null);
});

Deno.test("--until-state and --until-marker open their gates first", () => {
  strictEqual(stopReason(st("in_progress"), false, { untilState: "in_progress" }), "state_matched");
  strictEqual(stopReason(st("crashed"), false, { untilState: "crashed" }), "state_matched");
  strictEqual(stopReason(st("in_progress"), true, { untilMarker: "M" }), "marker_found");
  strictEqual(stopReason(st("in_progress"), false, { untilMarker: "M" }), null);
  strictEqual(stopReason(st("completed"), true, { untilMarker: "M" }), "marker_found");
});

Deno.test("--expect terminal fails non-terminal successes", () => {
  const o = { expect: "terminal" as const };
  strictEqual(stopReason(st("waiting_input"), false, o), "expected_terminal");
  strictEqual(stopReason(st("completed"), false, o), "completed");
  strictEqual(stopReason(st("crashed"), false, o), "crashed");
  strictEqual(
    stopReason(st("in_progress"), false, { ...o, untilState: "in_progress" }),
    "expected_terminal",
  );
  strictEqual(stopReason(st("in_progress"), false, { ...o, stopOnWaiting: false }), null);
});

Deno.test("--expect marker fails every success without the marker", () => {
  const o = { expect: "marker" as const, untilMarker: "M" };
  strictEqual(stopReason(st("completed"), false, o), "expected_marker");
  strictEqual(stopReason(st("waiting_input"), false, o), "expected_marker");
  strictEqual(stopReason(st("waiting_input"), true, o), "marker_found");
  strictEqual(stopReason(st("crashed"), false, o), "crashed");
});
