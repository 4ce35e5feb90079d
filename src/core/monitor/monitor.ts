/**
 * `lisa session monitor`: polls a session's status until it ends or a gate opens (seed 003).
 *
 * Each poll is one status computation (same recording, one tmux call) that captures the pane's
 * whole history, so that the final `nextOffset` counts the lines a later delta reads (see
 * `capture/capture.ts`), and so that a marker that scrolled far up between two polls is still seen.
 * Checks per poll, in order:
 * 1. `--until-marker` found anywhere in the pane's history (lines that only echo the prompt do
 *    not count) → `marker_found`. The whole history, not the text since the previous poll: it
 *    holds all of that, and an agent's UI redraws its bottom rows, so new text can appear above
 *    an unchanged input box where a content-anchored delta would not look;
 * 2. `--until-state` equals the state → that state's name (success, whatever the state);
 * 3. `--until-jsonpath '$.field=value'` matches the poll's status report → `jsonpath_matched`;
 * 4. a terminal state (`completed`, `crashed`, `stuck`, `not_found`) → that state;
 * 5. `waiting_input` with `--stop-on-waiting true` (default) → `waiting_input`; with
 *    `--waiting-requires-turn-complete`, only once a hook reported the turn done →
 *    `waiting_input_turn_complete`;
 * 6. stdout closed by its reader (after a poll line could not be written) → `stdout_closed`;
 * 7. `--max-polls` reached → `max_polls_exceeded` (`degraded_max_polls_exceeded` when the last
 *    poll was degraded); `--timeout-seconds` passed → `timeout`. Then `finalState` and
 *    `finalStatus` are `"timeout"` (the older Go lisa's contract); `finalReport` keeps the last
 *    poll's full status.
 * `--expect terminal` turns a non-terminal stop (waiting_input, marker_found, a non-terminal
 * matched state) into `expected_terminal_got_<reason>`; `--expect marker` turns any success
 * stop without the marker into `expected_marker_got_<reason>`.
 *
 * Exit codes ({@link monitorExitCode}): 0 for completed, waiting_input(_turn_complete),
 * marker_found, jsonpath_matched and a matched `--until-state`; 2 for crashed, stuck, not_found,
 * max_polls_exceeded, degraded_max_polls_exceeded, expected_* and timeout (the wait ended
 * without the session reaching a success state, like max_polls_exceeded); 141 for
 * stdout_closed; 1 for errors (thrown). The grace window is the session's own (counted from
 * spawn), so a new monitor of an idle session reports waiting_input on its first poll past that
 * window.
 */
import type { Deps } from "../../base/deps.ts";
import { UsageError } from "../../base/errors.ts";
import { STDOUT_CLOSED_EXIT_CODE } from "../../base/io.ts";
import type { Expect, SessionStateName } from "../../base/types.ts";
import { TERMINAL_STATES } from "../../base/types.ts";
import {
  cleanCapture,
  findMarkers,
  type MarkerSummary,
  offsetMode,
  offsetOf,
  paneGeometry,
} from "../capture/mod.ts";
import { sessionStatus, type StatusOutcome, type StatusReport } from "../status/mod.ts";
import { type JsonPathGate, jsonPathMatches, parseJsonPathGate } from "./jsonpath_gate.ts";

/** Default seconds between polls. */
export const DEFAULT_POLL_INTERVAL_SECONDS = 30;
/** Default poll limit when neither `--max-polls` nor `--timeout-seconds` is given. */
export const DEFAULT_MAX_POLLS = 120;

/** Options of {@link monitorSession}. */
export interface MonitorOptions {
  session: string;
  projectRoot?: string;
  pollIntervalSeconds?: number;
  /** Stop after this many polls (default 120, unlimited when only a timeout is given). */
  maxPolls?: number;
  timeoutSeconds?: number;
  untilMarker?: string;
  untilState?: SessionStateName;
  stopOnWaiting?: boolean;
  expect?: Expect;
  /** `--until-jsonpath`: stop when the poll's report matches (`$.field=value`). */
  untilJsonpath?: string;
  /** `--adaptive-poll`: start at 1 s (or less), double while nothing changes, up to the interval. */
  adaptivePoll?: boolean;
  /** Stop on waiting_input only once a hook reported the turn complete. */
  waitingRequiresTurnComplete?: boolean;
  /** Called after every poll (`--stream-json`). */
  onPoll?: (poll: MonitorPoll) => void;
}

/** One poll as streamed by `--stream-json`. */
export interface MonitorPoll {
  type: "poll";
  session: string;
  poll: number;
  at: string;
  sessionState: SessionStateName;
  status: string;
  classificationReason: string;
  exitCode: number | null;
  waitingFor: string | null;
  /** Offset token of the pane text at this poll (null when the session is gone). */
  nextOffset: string | null;
  markerFound?: boolean;
}

/** The final payload of a monitor run. */
export interface MonitorResult {
  session: string;
  /** The last state, or `"timeout"` when the poll limit or timeout ended the wait. */
  finalState: SessionStateName | "timeout";
  exitReason: string;
  polls: number;
  /** The last coarse status (`active`, `idle`, …), or `"timeout"` like finalState. */
  finalStatus: string;
  /** The last poll's full status report. */
  finalReport: StatusReport;
  /** Offset token of the pane text at the last poll (for `capture --delta-from`). */
  nextOffset: string | null;
  outputFile: string | null;
  /** The session's exit code (completed/crashed), else null. */
  exitCode: number | null;
  markers?: MarkerSummary;
  /** The process exit code of `monitor` (0 success, 2 non-success). */
  monitorExitCode: number;
}

const SUCCESS_REASONS = new Set([
  "completed",
  "waiting_input",
  "waiting_input_turn_complete",
  "marker_found",
  "jsonpath_matched",
]);

/** Exit reasons that end the wait without a verdict on the session (finalState "timeout"). */
const TIMEOUT_REASONS = new Set(["max_polls_exceeded", "degraded_max_polls_exceeded", "timeout"]);

/**
 * The exit code of a monitor that ended with `exitReason`: a matched `--until-state` is success
 * whatever the state (the reason is the state's name).
 */
export function monitorExitCode(exitReason: string, untilState?: string): number {
  if (exitReason === "stdout_closed") return STDOUT_CLOSED_EXIT_CODE;
  if (untilState !== undefined && exitReason === untilState) return 0;
  return SUCCESS_REASONS.has(exitReason) ? 0 : 2;
}

/** Marker facts and the offset of one poll's pane text (its whole history). */
function paneFacts(outcome: StatusOutcome, marker: string | undefined) {
  if (outcome.pane === null) return { nextOffset: null, markers: undefined };
  const { rawCapture, dead, facts } = outcome.pane;
  const lines = cleanCapture(rawCapture, { paneDead: dead });
  const markers = marker === undefined ? undefined : findMarkers(lines, [marker], outcome.prompt);
  const geometry = paneGeometry(facts, rawCapture, lines);
  return { nextOffset: offsetOf(lines, geometry, offsetMode({})), markers };
}

/**
 * Decides whether a poll ends the monitor: the exit reason, or null to keep polling. Pure.
 * `markerFound` is only meaningful with `untilMarker`.
 */
export function stopReason(
  report: Pick<StatusReport, "sessionState"> & Partial<StatusReport>,
  markerFound: boolean,
  options: Pick<
    MonitorOptions,
    "untilMarker" | "untilState" | "stopOnWaiting" | "expect" | "waitingRequiresTurnComplete"
  >,
  jsonPath?: JsonPathGate,
): string | null {
  const state = report.sessionState;
  const expect = options.expect ?? "any";
  const terminal = TERMINAL_STATES.includes(state);
  let reason: string | null = null;
  if (options.untilMarker !== undefined && markerFound) reason = "marker_found";
  else if (options.untilState !== undefined && state === options.untilState) reason = state;
  else if (jsonPath !== undefined && jsonPathMatches(jsonPath, report)) reason = "jsonpath_matched";
  else if (terminal) reason = state;
  else if (state === "waiting_input" && (options.stopOnWaiting ?? true)) {
    if (!options.waitingRequiresTurnComplete) reason = "waiting_input";
    else if (turnComplete(report)) reason = "waiting_input_turn_complete";
  }
  if (reason === null) return null;
  const success = monitorExitCode(reason, options.untilState) === 0;
  if (expect === "marker" && reason !== "marker_found" && success) {
    return `expected_marker_got_${reason}`;
  }
  if (expect === "terminal" && success && !terminal) return `expected_terminal_got_${reason}`;
  return reason;
}

/**
 * True when the agent's hooks say its last turn finished (claude Stop, codex
 * agent-turn-complete): the classification came from that hook, or the hooks' last word is a
 * finished turn (a key sent afterwards does not start a new turn).
 */
function turnComplete(report: Partial<StatusReport>): boolean {
  return report.classificationReason === "hook:turn_done" ||
    report.signals?.hooks?.pending === "turn_done";
}

/** The first sleep of `--adaptive-poll` (never more than the interval). */
const ADAPTIVE_START_MS = 1000;

/**
 * The next sleep of `--adaptive-poll`: 1 s (or the interval, when shorter) at first and after a
 * state change, doubling while the state stays, never more than the interval. Pure.
 */
export function adaptiveWaitMs(
  previousMs: number | undefined,
  stateChanged: boolean,
  intervalMs: number,
): number {
  const start = Math.min(ADAPTIVE_START_MS, intervalMs);
  if (previousMs === undefined || stateChanged) return start;
  return Math.min(previousMs * 2, intervalMs);
}

/**
 * Polls `options.session` until a stop (see the module doc). Throws `invalid_argument` for
 * inconsistent options, and the errors of status (invalid name, project errors).
 */
export async function monitorSession(deps: Deps, options: MonitorOptions): Promise<MonitorResult> {
  const interval = options.pollIntervalSeconds ?? DEFAULT_POLL_INTERVAL_SECONDS;
  if (!(interval >= 0)) throw new UsageError(`--poll-interval must be 0 or more, got ${interval}`);
  if (options.expect === "marker" && options.untilMarker === undefined) {
    throw new UsageError("--expect marker needs --until-marker <text>");
  }
  if (options.untilMarker === "") throw new UsageError("--until-marker must not be empty");
  const jsonPath = options.untilJsonpath === undefined
    ? undefined
    : parseJsonPathGate(options.untilJsonpath);
  const maxPolls = options.maxPolls ??
    (options.timeoutSeconds === undefined ? DEFAULT_MAX_POLLS : Infinity);
  const deadline = options.timeoutSeconds === undefined
    ? Infinity
    : deps.now().getTime() + options.timeoutSeconds * 1000;

  let polls = 0;
  // An alias or prefix is resolved by the first poll; later polls ask for that full name, so
  // a session started meanwhile can never change which one is watched.
  let session = options.session;
  let previousWaitMs: number | undefined;
  let lastState: string | undefined;
  for (;;) {
    const outcome = await sessionStatus(deps, {
      session,
      projectRoot: options.projectRoot,
      captureLines: Infinity,
    });
    session = outcome.report.session;
    polls++;
    const report = outcome.report;
    const facts = paneFacts(outcome, options.untilMarker);
    const markerFound = (facts.markers?.found.length ?? 0) > 0;
    options.onPoll?.({
      type: "poll",
      session: report.session,
      poll: polls,
      at: deps.now().toISOString(),
      sessionState: report.sessionState,
      status: report.status,
      classificationReason: report.classificationReason,
      exitCode: report.exitCode,
      waitingFor: report.waitingFor,
      nextOffset: facts.nextOffset,
      ...(options.untilMarker !== undefined ? { markerFound } : {}),
    });
    let reason = stopReason(report, markerFound, options, jsonPath);
    // Nobody reads the poll lines any more: polling on would only keep the pipeline waiting.
    if (reason === null && deps.io.outClosed) reason = "stdout_closed";
    if (reason === null && polls >= maxPolls) {
      reason = report.sessionState === "degraded"
        ? "degraded_max_polls_exceeded"
        : "max_polls_exceeded";
    }
    const left = deadline - deps.now().getTime();
    if (reason === null && left <= 0) reason = "timeout";
    if (reason !== null) return monitorResult(report, polls, reason, facts, options.untilState);
    let waitMs = interval * 1000;
    if (options.adaptivePoll) {
      const changed = lastState !== undefined && lastState !== report.sessionState;
      waitMs = adaptiveWaitMs(previousWaitMs, changed, interval * 1000);
      previousWaitMs = waitMs;
    }
    lastState = report.sessionState;
    await deps.sleep(Math.max(0, Math.min(waitMs, left)));
  }
}

/** The monitor's answer once it stops for `reason` after `polls` polls. */
function monitorResult(
  report: StatusReport,
  polls: number,
  reason: string,
  facts: ReturnType<typeof paneFacts>,
  untilState: string | undefined,
): MonitorResult {
  const timedOut = TIMEOUT_REASONS.has(reason);
  return {
    session: report.session,
    finalState: timedOut ? "timeout" : report.sessionState,
    exitReason: reason,
    polls,
    finalStatus: timedOut ? "timeout" : report.status,
    finalReport: report,
    nextOffset: facts.nextOffset,
    outputFile: report.outputFile,
    exitCode: report.exitCode,
    ...(facts.markers ? { markers: facts.markers } : {}),
    monitorExitCode: monitorExitCode(reason, untilState),
  };
}
