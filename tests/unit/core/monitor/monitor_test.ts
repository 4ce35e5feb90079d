import { strictEqual, throws } from "node:assert/strict";
import { jsonPathMatches, parseJsonPathGate } from "../../../../src/core/monitor/jsonpath_gate.ts";
import {
  adaptiveWaitMs,
  monitorExitCode,
  stopReason,
} from "../../../../src/core/monitor/monitor.ts";
import type { SessionStateName } from "../../../../src/base/types.ts";

const st = (sessionState: SessionStateName) => ({ sessionState });

Deno.test("exit codes follow seed 003: 0 success, 2 non-success", () => {
  for (
    const r of [
      "completed",
      "waiting_input",
      "waiting_input_turn_complete",
      "marker_found",
      "jsonpath_matched",
    ]
  ) strictEqual(monitorExitCode(r), 0, r);
  // A matched --until-state is success whatever the state (its name is the exitReason).
  strictEqual(monitorExitCode("crashed", "crashed"), 0);
  strictEqual(monitorExitCode("in_progress", "in_progress"), 0);
  for (
    const r of [
      "crashed",
      "stuck",
      "not_found",
      "max_polls_exceeded",
      "degraded_max_polls_exceeded",
      "expected_terminal_got_waiting_input",
      "expected_marker_got_completed",
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
  strictEqual(stopReason(st("in_progress"), false, { untilState: "in_progress" }), "in_progress");
  strictEqual(stopReason(st("crashed"), false, { untilState: "crashed" }), "crashed");
  strictEqual(stopReason(st("in_progress"), true, { untilMarker: "M" }), "marker_found");
  strictEqual(stopReason(st("in_progress"), false, { untilMarker: "M" }), null);
  strictEqual(stopReason(st("completed"), true, { untilMarker: "M" }), "marker_found");
});

Deno.test("--expect terminal fails non-terminal successes", () => {
  const o = { expect: "terminal" as const };
  strictEqual(stopReason(st("waiting_input"), false, o), "expected_terminal_got_waiting_input");
  strictEqual(stopReason(st("completed"), false, o), "completed");
  strictEqual(stopReason(st("crashed"), false, o), "crashed");
  strictEqual(
    stopReason(st("in_progress"), false, { ...o, untilState: "in_progress" }),
    "expected_terminal_got_in_progress",
  );
  strictEqual(
    stopReason(st("in_progress"), true, { ...o, untilMarker: "M" }),
    "expected_terminal_got_marker_found",
  );
  strictEqual(stopReason(st("in_progress"), false, { ...o, stopOnWaiting: false }), null);
});

Deno.test("--expect marker fails every success without the marker", () => {
  const o = { expect: "marker" as const, untilMarker: "M" };
  strictEqual(stopReason(st("completed"), false, o), "expected_marker_got_completed");
  strictEqual(stopReason(st("waiting_input"), false, o), "expected_marker_got_waiting_input");
  strictEqual(stopReason(st("waiting_input"), true, o), "marker_found");
  strictEqual(stopReason(st("crashed"), false, o), "crashed");
});

Deno.test("--until-jsonpath stops when a field of the poll's report matches", () => {
  const gate = parseJsonPathGate("$.sessionState=waiting_input");
  strictEqual(stopReason(st("in_progress"), false, { stopOnWaiting: false }, gate), null);
  strictEqual(
    stopReason(st("waiting_input"), false, { stopOnWaiting: false }, gate),
    "jsonpath_matched",
  );
  const nested = parseJsonPathGate("$.signals.hooksActive");
  strictEqual(
    jsonPathMatches(nested, { signals: { hooksActive: true } }),
    true,
  );
  strictEqual(jsonPathMatches(nested, { signals: {} }), false);
  strictEqual(jsonPathMatches(parseJsonPathGate("$.exitCode!=0"), { exitCode: 3 }), true);
  strictEqual(jsonPathMatches(parseJsonPathGate("$.exitCode=0"), { exitCode: 0 }), true);
  throws(() => parseJsonPathGate("sessionState=waiting_input"), /--until-jsonpath/);
});

Deno.test("--waiting-requires-turn-complete stops only on a hook's turn-done", () => {
  const o = { waitingRequiresTurnComplete: true };
  strictEqual(
    stopReason({ sessionState: "waiting_input", classificationReason: "idle_cpu" }, false, o),
    null,
  );
  strictEqual(
    stopReason({ sessionState: "waiting_input", classificationReason: "hook:turn_done" }, false, o),
    "waiting_input_turn_complete",
  );
});

Deno.test("--adaptive-poll waits 1 s, doubles while the state stays, restarts on a change", () => {
  const waits: number[] = [];
  let prev: number | undefined;
  for (const changed of [false, false, false, false, false, true, false]) {
    prev = adaptiveWaitMs(prev, changed, 10_000);
    waits.push(prev);
  }
  strictEqual(waits.join(","), "1000,2000,4000,8000,10000,1000,2000");
  strictEqual(adaptiveWaitMs(undefined, false, 200), 200);
  strictEqual(adaptiveWaitMs(200, false, 200), 200);
});
