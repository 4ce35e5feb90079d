/**
 * Progress tracking between status polls, for stall detection (issue 13). A poll sees CPU only
 * over a few seconds; an agent polled every 30 s could work between polls and look idle at
 * each. So the state file keeps a checkpoint (`progressMark*`): the agent's summed CPU ticks at
 * some earlier poll. A later poll at least {@link PROGRESS_MARK_MS} after it measures the
 * average CPU in between against the agent's idle ceiling, and moves the checkpoint.
 * `lastBusyAtMs` is the last time any poll saw the agent busy that way, or busy right now (CPU
 * over its threshold, a tool child, a command process). Pure.
 *
 * Bytes read (`/proc/<pid>/io` rchar) were measured as a candidate and rejected: over 20 s, idle
 * claude read 2 KB, claude -p waiting on an unreachable API 1.9 KB and a slowly streaming reply
 * 4.7 KB, idle codex 25 KB: noise of the same size as the signal.
 */
import type { SessionStateFile } from "../../base/types.ts";

/** A checkpoint is measured against (and moved) once it is this old. */
export const PROGRESS_MARK_MS = 10_000;

/** The progress fields of the state file. */
export type ProgressState = Pick<
  SessionStateFile,
  "lastBusyAtMs" | "progressMarkAtMs" | "progressMarkTicks"
>;

/** What one poll measured. */
export interface ProgressReading {
  /** Summed CPU ticks of the sampled processes (null when unknown). */
  ticks: number | null;
  /** Busy right now: CPU over the threshold, a tool child, a command process. */
  busyNow: boolean;
}

/**
 * The next progress fields after a poll at `nowMs`. `idleMaxPercent` is the agent's idle CPU
 * ceiling; `clkTck` the kernel's ticks per second. A checkpoint whose counters went down (other
 * processes now) is replaced without a verdict.
 */
export function nextProgress(
  prev: ProgressState,
  reading: ProgressReading,
  nowMs: number,
  idleMaxPercent: number,
  clkTck: number,
): ProgressState {
  let busy = reading.busyNow;
  let mark = {
    progressMarkAtMs: prev.progressMarkAtMs,
    progressMarkTicks: prev.progressMarkTicks,
  };
  const fresh = {
    progressMarkAtMs: nowMs,
    progressMarkTicks: reading.ticks,
  };
  if (prev.progressMarkAtMs === null || prev.progressMarkAtMs > nowMs) {
    mark = fresh;
  } else if (nowMs - prev.progressMarkAtMs >= PROGRESS_MARK_MS) {
    const seconds = (nowMs - prev.progressMarkAtMs) / 1000;
    const dTicks = reading.ticks !== null && prev.progressMarkTicks !== null
      ? reading.ticks - prev.progressMarkTicks
      : null;
    if (dTicks !== null && dTicks > 0 && (dTicks / clkTck / seconds) * 100 > idleMaxPercent) {
      busy = true;
    }
    mark = fresh;
  }
  return { lastBusyAtMs: busy ? nowMs : prev.lastBusyAtMs, ...mark };
}

/** True when two progress states differ. */
export function progressChanged(a: ProgressState, b: ProgressState): boolean {
  return a.lastBusyAtMs !== b.lastBusyAtMs || a.progressMarkAtMs !== b.progressMarkAtMs ||
    a.progressMarkTicks !== b.progressMarkTicks;
}
