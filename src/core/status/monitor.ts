/**
 * `lisa session monitor`: polls a session's status until it ends or a gate opens (seed 003).
 *
 * Each poll is one status computation (same recording, one tmux call) that captures the pane's
 * whole history, so that the final `nextOffset` counts the lines a later delta reads (see
 * `capture_pane.ts`), and so that a marker that scrolled far up between two polls is still seen.
 * Checks per poll, in order:
 * 1. `--until-marker` found anywhere in the pane's history (lines that only echo the prompt do
 *    not count) → `marker_found`. The whole history, not the text since the previous poll: it
 *    holds all of that, and an agent's UI redraws its bottom rows, so new text can appear above
 *    an unchanged input box where a content-anchored delta would not look;
 * 2. `--until-state` equals the state → `state_matched`;
 * 3. a terminal state (`completed`, `crashed`, `stuck`, `not_found`) → that state;
 * 4. `waiting_input` with `--stop-on-waiting true` (default) → `waiting_input`;
 * 5. stdout closed by its reader (after a poll line could not be written) → `stdout_closed`;
 * 6. `--max-polls` reached → `max_polls_exceeded` (`degraded_max_polls_exceeded` when the last
 *    poll was degraded); `--timeout-seconds` passed → `timeout`.
 * `--expect terminal` turns a non-terminal stop (waiting_input, marker_found, a non-terminal
 * matched state) into `expected_terminal`; `--expect marker` turns any stop without the marker
 * into `expected_marker`.
 *
 * Exit codes: 0 for completed, waiting_input, marker_found, state_matched; 2 for crashed,
 * stuck, not_found, max_polls_exceeded, degraded_max_polls_exceeded, expected_* and timeout
 * (the wait ended without the session reaching a success state, like max_polls_exceeded);
 * 141 for stdout_closed; 1 for errors (thrown). The grace window is the session's own (counted from spawn), so a new
 * monitor of an idle session reports waiting_input on its first poll past that window.
 */
import type { Deps } from "../../base/deps.ts";
import { UsageError } from "../../base/errors.ts";
import type { Expect, SessionStateName } from "../../base/types.ts";
import { TERMINAL_STATES } from "../../base/types.ts";
import {
  cleanCapture,
  findMarkers,
  type MarkerSummary,
  offsetMode,
  paneGeometry,
} from "../drive/capture_view.ts";
import { offsetOf } from "../drive/offset.ts";
import { sessionStatus, type StatusOutcome, type StatusReport } from "./status.ts";

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
  markerFound?: boolean;
}

/** The final payload of a monitor run. */
export interface MonitorResult {
  session: string;
  finalState: SessionStateName;
  exitReason: string;
  polls: number;
  finalStatus: StatusReport;
  /** Offset token of the pane text at the last poll (for `capture --delta-from`). */
  nextOffset: string | null;
  outputFile: string | null;
  /** The session's exit code (completed/crashed), else null. */
  exitCode: number | null;
  markers?: MarkerSummary;
  /** The process exit code of `monitor` (0 success, 2 non-success). */
  monitorExitCode: number;
}

const SUCCESS_REASONS = new Set(["completed", "waiting_input", "marker_found", "state_matched"]);

/**
 * Exit code of a monitor whose stdout reader went away (`monitor --stream-json | head -1`):
 * 128 + SIGPIPE, what a shell reports for a writer killed by a closed pipe.
 */
export const STDOUT_CLOSED_EXIT_CODE = 141;

/** The exit code of a monitor that ended with `exitReason`. */
export function monitorExitCode(exitReason: string): number {
  if (exitReason === "stdout_closed") return STDOUT_CLOSED_EXIT_CODE;
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
  report: Pick<StatusReport, "sessionState">,
  markerFound: boolean,
  options: Pick<MonitorOptions, "untilMarker" | "untilState" | "stopOnWaiting" | "expect">,
): string | null {
  const state = report.sessionState;
  const expect = options.expect ?? "any";
  const terminal = TERMINAL_STATES.includes(state);
  let reason: string | null = null;
  if (options.untilMarker !== undefined && markerFound) reason = "marker_found";
  else if (options.untilState !== undefined && state === options.untilState) {
    reason = "state_matched";
  } else if (terminal) reason = state;
  else if (state === "waiting_input" && (options.stopOnWaiting ?? true)) reason = "waiting_input";
  if (reason === null) return null;
  if (expect === "marker" && reason !== "marker_found" && monitorExitCode(reason) === 0) {
    return "expected_marker";
  }
  if (expect === "terminal" && monitorExitCode(reason) === 0 && !terminal) {
    return "expected_terminal";
  }
  return reason;
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
  const maxPolls = options.maxPolls ??
    (options.timeoutSeconds === undefined ? DEFAULT_MAX_POLLS : Infinity);
  const deadline = options.timeoutSeconds === undefined
    ? Infinity
    : deps.now().getTime() + options.timeoutSeconds * 1000;

  let polls = 0;
  // An alias or prefix is resolved by the first poll; later polls ask for that full name, so
  // a session started meanwhile can never change which one is watched.
  let session = options.session;
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
      ...(options.untilMarker !== undefined ? { markerFound } : {}),
    });
    let reason = stopReason(report, markerFound, options);
    // Nobody reads the poll lines any more: polling on would only keep the pipeline waiting.
    if (reason === null && deps.io.outClosed) reason = "stdout_closed";
    if (reason === null && polls >= maxPolls) {
      reason = report.sessionState === "degraded"
        ? "degraded_max_polls_exceeded"
        : "max_polls_exceeded";
    }
    const left = deadline - deps.now().getTime();
    if (reason === null && left <= 0) reason = "timeout";
    if (reason !== null) {
      return {
        session: report.session,
        finalState: report.sessionState,
        exitReason: reason,
        polls,
        finalStatus: report,
        nextOffset: facts.nextOffset,
        outputFile: report.outputFile,
        exitCode: report.exitCode,
        ...(facts.markers ? { markers: facts.markers } : {}),
        monitorExitCode: monitorExitCode(reason),
      };
    }
    await deps.sleep(Math.max(0, Math.min(interval * 1000, left)));
  }
}
