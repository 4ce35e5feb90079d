/**
 * What a kill's process search could see (`processes.coverage` of `kill --json`), so that an
 * empty `remaining` is never read as more than it proves. A session's processes are found
 * three ways (`terminate.ts`), each blind to something:
 *
 * - `subtree`: the process subtree of each of the session's panes. Blind to what left it.
 * - `runIdScan`: every process whose environment holds the session's `LISA_RUN_ID`. Blind to a
 *   process that cleared its environment (`env -i`), and impossible without `/proc` (macOS).
 * - `subreaper`: the pane's wrapper was a child subreaper (`spawn/startup_script.ts`), so whatever
 *   double-forked away from the command was reparented to the wrapper, inside the subtree; a
 *   wrapper that exited first outlived everything it adopted. Impossible without perl or on
 *   macOS, and lost when the wrapper was killed by a signal.
 *
 * A daemon that both left the subtree and cleared its environment is found only with
 * `subreaper`; `subtree && subreaper` means nothing of the session could hide.
 */
import { HEARTBEAT_SUBREAPER, SUBREAPER_ENV } from "../spawn/mod.ts";
import { hasProcFs } from "../../proc/table.ts";
import { readTextIfExists } from "../../store/atomic.ts";
import type { PaneFacts } from "../../tmux/sessions.ts";

/** What the process search of a kill covered (each field true only when it held for every session). */
export interface KillCoverage {
  /** Every session was on tmux and each pane's subtree was walked. */
  subtree: boolean;
  /** Every process's environment was searched for each session's run id. */
  runIdScan: boolean;
  /** Every pane's wrapper was a child subreaper that still held what the pane left behind. */
  subreaper: boolean;
}

/** Coverage of a kill that ended no session: nothing to miss. */
export function fullCoverage(): KillCoverage {
  return { subtree: true, runIdScan: true, subreaper: true };
}

/** Both coverages at once: a field holds only when it holds in both. */
export function bothCovered(a: KillCoverage, b: KillCoverage): KillCoverage {
  return {
    subtree: a.subtree && b.subtree,
    runIdScan: a.runIdScan && b.runIdScan,
    subreaper: a.subreaper && b.subreaper,
  };
}

/**
 * True when a process environment (`/proc/<pid>/environ`, NUL-separated) carries the mark of a
 * wrapper that became a child subreaper for `runId` (any run when `runId` is null).
 */
export function subreaperMarked(environ: string | null, runId: string | null): boolean {
  if (environ === null) return false;
  for (const entry of environ.split("\0")) {
    if (!entry.startsWith(`${SUBREAPER_ENV}=`)) continue;
    const value = entry.slice(SUBREAPER_ENV.length + 1);
    return value.endsWith(":1") && (runId === null || value === `${runId}:1`);
  }
  return false;
}

/** `/proc/<pid>/environ` (the environment `pid` was started with); null when unreadable. */
export function readEnviron(pid: number): string | null {
  try {
    return new TextDecoder().decode(Deno.readFileSync(`/proc/${pid}/environ`));
  } catch {
    return null;
  }
}

/** The heartbeat file's content; null when absent or unreadable (a symlink is not read). */
export function readHeartbeat(path: string): string | null {
  try {
    return readTextIfExists(path) ?? null;
  } catch {
    return null;
  }
}

/** Inputs of {@link sessionCoverage}: what kill learned about one session. */
export interface SessionFacts {
  /** The session's panes; null when tmux did not have the session. */
  panes: readonly PaneFacts[] | null;
  /** The run id kill searched environments for; null when neither meta nor tmux knew it. */
  runId: string | null;
  /** Whether environments can be read here (Linux). */
  envReadable: boolean;
  /** The environment a running pane's wrapper was started with. */
  environOf: (pid: number) => string | null;
  /** Content of the session's heartbeat file (null when absent): the mark of a finished wrapper. */
  heartbeat: string | null;
}

/** The coverage of one session's process search (module doc). */
export function sessionCoverage(facts: SessionFacts): KillCoverage {
  const panes = facts.panes;
  const wasSubreaper = facts.heartbeat !== null &&
    facts.heartbeat.split("\n")[0].trim() === HEARTBEAT_SUBREAPER;
  return {
    subtree: panes !== null,
    runIdScan: facts.envReadable && facts.runId !== null,
    // A dead pane's wrapper exited: a subreaper one only after what it adopted had ended,
    // unless a signal ended it first.
    subreaper: panes !== null && panes.length > 0 &&
      panes.every((p) =>
        p.dead
          ? wasSubreaper && p.deadSignal === null
          : subreaperMarked(facts.environOf(p.pid), facts.runId)
      ),
  };
}

/** Whether process environments can be read on this system (`/proc`: Linux). */
export function environmentsReadable(): boolean {
  return hasProcFs();
}
