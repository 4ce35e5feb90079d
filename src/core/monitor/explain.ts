/**
 * `lisa session explain`: a session's status plus its last events, to answer "why is it in this
 * state, and how did it get there".
 */
import type { Deps } from "../../base/deps.ts";
import type { EventRecord } from "../../base/types.ts";
import { sessionStatus, type StatusReport } from "../status/mod.ts";
import { readEvents } from "../../store/events.ts";

/** Default number of events explain shows. */
export const DEFAULT_EXPLAIN_EVENTS = 10;

/** Options of {@link explainSession}. */
export interface ExplainOptions {
  session: string;
  projectRoot?: string;
  /** At most this many events (the newest; default 10). */
  events?: number;
  /** Only events at or after this time (epoch ms). */
  sinceMs?: number;
}

/** One signal the classifier considered, what it said, and its part in the answer. */
export interface Consideration {
  signal: string;
  said: string;
  /** `decided`: this signal gave the answer; `overruled`: it said otherwise and lost. */
  role: "decided" | "overruled" | "considered";
}

/** The explain payload. */
export interface ExplainResult extends StatusReport {
  /** Each signal considered for the current answer (classifier order), and which decided. */
  decision: Consideration[];
  events: EventRecord[];
  eventFile: string;
}

function age(seconds: number | null, what: string): string {
  return seconds === null ? `no ${what}` : `${what} ${seconds}s ago`;
}

/**
 * The signals behind `report`'s answer, in the classifier's order (tmux, done file, read
 * failures, hooks, screen, input, tool children, CPU, output, agent process, command processes,
 * grace window, stall), each with what it said, and the one that decided (the reason's source);
 * a signal whose word the answer went against is `overruled`. Pure.
 */
export function decisionOf(report: StatusReport): Consideration[] {
  const r = report.classificationReason;
  const base = r.startsWith("stalled:") ? r.slice("stalled:".length) : r;
  const is = (...prefixes: string[]) => prefixes.some((p) => base.startsWith(p));
  const rows = [
    ...sourceRows(report.signals, is),
    ...processRows(report.signals, is, r.startsWith("stalled:")),
  ];
  return rows.map(([signal, said, decided, overruled]) => ({
    signal,
    said,
    role: decided ? "decided" : overruled ? "overruled" : "considered",
  }));
}

/** A row of the decision: the signal, what it said, whether it decided, whether it was overruled. */
type DecisionRow = [string, string, boolean, boolean?];

/** Steps 1 to 4 of the classifier: tmux, the done file, read failures, hooks, screen rules. */
function sourceRows(sig: StatusReport["signals"], is: (...p: string[]) => boolean): DecisionRow[] {
  const hooks = sig.hooks;
  const hookSaid = hooks === null
    ? `${sig.hooksHealth ?? "off"} (no record of this run)`
    : `${sig.hooksHealth ?? "active"}: ${hooks.pending ?? "nothing pending"}, last ${
      hooks.lastEvent ?? "none"
    } ${hooks.lastEventAgeSeconds ?? "?"}s ago${hooks.failure ? ` (${hooks.failure})` : ""}`;
  return [
    [
      "tmux",
      `pane ${sig.paneStatus}`,
      is("pane_", "session_missing", "server_gone", "read_failed:tmux"),
    ],
    [
      "done file",
      sig.doneExitCode === null ? "none for this run" : `exit ${sig.doneExitCode}`,
      is("done_file"),
    ],
    [
      "read failures",
      sig.failures.length === 0 ? "none" : sig.failures.join(", "),
      is("read_failed", "state_"),
    ],
    ["hooks", hookSaid, is("hook:"), is("hook_running_but")],
    [
      "screen rules",
      sig.screenRules.length === 0 ? "none matched" : sig.screenRules.join(", "),
      is("screen:", "hook_running_but_idle"),
    ],
  ];
}

/** Steps 5 and 6: input, children, CPU, output, the processes, the grace window, a stall. */
function processRows(
  sig: StatusReport["signals"],
  is: (...p: string[]) => boolean,
  stalled: boolean,
): DecisionRow[] {
  return [
    ["input", age(sig.lastInputAgeSeconds, "sent"), is("input_sent_recently")],
    [
      "tool children",
      sig.busyChildren.length === 0 ? "none" : sig.busyChildren.join(", "),
      is("agent_child_busy"),
    ],
    [
      "cpu",
      sig.agentCpu === null
        ? "unknown"
        : `${sig.agentCpu}% over ${((sig.cpuWindowMs ?? 0) / 1000).toFixed(1)}s`,
      is("agent_cpu_busy", "command_cpu_busy"),
    ],
    [
      "output",
      sig.outputQuietSeconds === null ? "unknown" : `unchanged ${sig.outputQuietSeconds}s`,
      is("agent_output_changing", "command_output_changing"),
    ],
    [
      "agent process",
      sig.agentPid === null ? "none found" : `pid ${sig.agentPid}`,
      is("agent_quiet", "agent_alive_quiet", "hook_running_but_quiet"),
    ],
    [
      "command processes",
      sig.commandProcesses.length === 0 ? "none" : sig.commandProcesses.join(", "),
      is("command_running", "command_between_steps", "no_active_process"),
    ],
    [
      "terminal input",
      sig.agentPid !== null
        ? "not read (an agent runs)"
        : sig.readingTerminal
        ? "the command waits for keyboard input"
        : "not awaited",
      is("command_reading_terminal"),
    ],
    [
      "grace window",
      `session ${sig.sessionAgeSeconds ?? "?"}s old${sig.inGrace ? ", in grace" : ""}`,
      is("grace_period"),
    ],
    [
      "stall",
      sig.progressQuietSeconds === null || sig.progressQuietSeconds === undefined
        ? "progress unknown"
        : `no progress for ${sig.progressQuietSeconds}s`,
      stalled,
    ],
  ];
}

/**
 * Status of `options.session` plus its newest events (oldest first). Throws what status throws,
 * `lock_busy` when the event log stays locked, and `events_file_unsafe` when the log is a
 * symlink or not a regular file.
 */
export async function explainSession(deps: Deps, options: ExplainOptions): Promise<ExplainResult> {
  const { report, location } = await sessionStatus(deps, {
    session: options.session,
    projectRoot: options.projectRoot,
  });
  const events = await readEvents(location.paths.events, deps.config, {
    limit: options.events ?? DEFAULT_EXPLAIN_EVENTS,
    sinceMs: options.sinceMs,
  });
  return { ...report, decision: decisionOf(report), events, eventFile: location.paths.events };
}
