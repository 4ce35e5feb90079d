/**
 * Progress tracking between status polls, for stall detection (issue 13). A poll sees CPU only
 * over a few seconds; an agent polled every 30 s could work between polls and look idle at
 * each. So the state file keeps a checkpoint (`progressMark*`): the agent's summed CPU ticks and
 * bytes read at some earlier poll. A later poll at least {@link PROGRESS_MARK_MS} after it
 * measures what happened in between (average CPU over the agent's idle ceiling, or bytes read:
 * a reply streaming in, however slowly) and moves the checkpoint. `lastBusyAtMs` is the last
 * time any poll saw the agent busy that way, or busy right now (CPU over its threshold, a tool
 * child, a command process). Pure, except {@link readRchar}, one small `/proc` read per process.
 */
import type { SessionStateFile } from "../../base/types.ts";

/** A checkpoint is measured against (and moved) once it is this old. */
export const PROGRESS_MARK_MS = 10_000;
/**
 * Bytes read since the checkpoint that count as progress. The real agents read nothing while
 * they idle at a prompt or wait on an unreachable API; a streaming reply reads its events.
 */
export const PROGRESS_MIN_READ_BYTES = 1;

/** The progress fields of the state file. */
export type ProgressState = Pick<
  SessionStateFile,
  "lastBusyAtMs" | "progressMarkAtMs" | "progressMarkTicks" | "progressMarkRchar"
>;

/** What one poll measured. */
export interface ProgressReading {
  /** Summed CPU ticks of the sampled processes (null when unknown). */
  ticks: number | null;
  /** Summed bytes read by them (`rchar`; null when unknown). */
  rchar: number | null;
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
    progressMarkRchar: prev.progressMarkRchar,
  };
  const fresh = {
    progressMarkAtMs: nowMs,
    progressMarkTicks: reading.ticks,
    progressMarkRchar: reading.rchar,
  };
  if (prev.progressMarkAtMs === null || prev.progressMarkAtMs > nowMs) {
    mark = fresh;
  } else if (nowMs - prev.progressMarkAtMs >= PROGRESS_MARK_MS) {
    const seconds = (nowMs - prev.progressMarkAtMs) / 1000;
    const dTicks = reading.ticks !== null && prev.progressMarkTicks !== null
      ? reading.ticks - prev.progressMarkTicks
      : null;
    const dRead = reading.rchar !== null && prev.progressMarkRchar !== null
      ? reading.rchar - prev.progressMarkRchar
      : null;
    if (dTicks !== null && dTicks > 0 && (dTicks / clkTck / seconds) * 100 > idleMaxPercent) {
      busy = true;
    }
    if (dRead !== null && dRead >= PROGRESS_MIN_READ_BYTES) busy = true;
    mark = fresh;
  }
  return { lastBusyAtMs: busy ? nowMs : prev.lastBusyAtMs, ...mark };
}

/** True when two progress states differ. */
export function progressChanged(a: ProgressState, b: ProgressState): boolean {
  return a.lastBusyAtMs !== b.lastBusyAtMs || a.progressMarkAtMs !== b.progressMarkAtMs ||
    a.progressMarkTicks !== b.progressMarkTicks || a.progressMarkRchar !== b.progressMarkRchar;
}

/** Bytes `pid` has read (`rchar` of `/proc/<pid>/io`); null when unreadable. */
export function readRchar(pid: number): number | null {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/io`);
    const m = /^rchar:\s*(\d+)/m.exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
