/**
 * Recent CPU from tick deltas (pure math; the reading of `/proc` happens in the caller).
 *
 * `ps %cpu` on Linux is a lifetime average, useless for "is it working now" (DESIGN §9 defect 2).
 * lisa keeps per-process samples `{pid, startTime, ticks, atMs}` in the session's state file and
 * computes `Δticks / CLK_TCK / Δt × 100` between the current reading and a stored sample a few
 * seconds old. Only when no stored sample is younger than {@link CPU_MAX_WINDOW_MS} does a call
 * take a second reading itself, {@link CPU_SECOND_SAMPLE_MS} later (bounded wait).
 */
import type { CpuSample } from "../../base/types.ts";

/** Preferred longest window: the oldest stored sample at most this old is the reference. */
export const CPU_TARGET_WINDOW_MS = 5_000;
/** A stored sample older than this is not used; the call samples twice instead. */
export const CPU_MAX_WINDOW_MS = 10_000;
/** Gap between the two readings of a call that has no usable stored sample. */
export const CPU_SECOND_SAMPLE_MS = 150;
/** A new sample is stored only when the newest stored one of that process is this old. */
export const CPU_STORE_SPACING_MS = 1_000;
/** Windows shorter than this say nothing (quantisation of 10 ms ticks). */
export const CPU_MIN_WINDOW_MS = 50;
/** Fewer ticks than this in a window never count as busy (one stray tick is noise). */
export const CPU_MIN_BUSY_TICKS = 2;
/** At most this many samples are kept in the state file. */
export const CPU_MAX_STORED = 48;

/** Recent CPU of one or more processes over a window. */
export interface CpuReading {
  /** Percent of one core (sum over the processes). */
  percent: number;
  /** Ticks spent in the window (sum). */
  deltaTicks: number;
  /** The shortest window among the processes, in ms. */
  windowMs: number;
}

function samePid(a: CpuSample, b: CpuSample): boolean {
  return a.pid === b.pid && a.startTime === b.startTime;
}

/**
 * The stored sample to measure `current` against: the oldest one of the same process no older
 * than {@link CPU_TARGET_WINDOW_MS}, else the youngest no older than {@link CPU_MAX_WINDOW_MS};
 * null when none (or only ones younger than {@link CPU_MIN_WINDOW_MS}).
 */
export function pickReference(stored: readonly CpuSample[], current: CpuSample): CpuSample | null {
  let withinTarget: CpuSample | null = null;
  let withinMax: CpuSample | null = null;
  for (const s of stored) {
    if (!samePid(s, current)) continue;
    const age = current.atMs - s.atMs;
    if (age < CPU_MIN_WINDOW_MS || age > CPU_MAX_WINDOW_MS) continue;
    if (s.ticks > current.ticks) continue; // not the same process after all
    if (age <= CPU_TARGET_WINDOW_MS) {
      if (withinTarget === null || s.atMs < withinTarget.atMs) withinTarget = s;
    } else if (withinMax === null || s.atMs > withinMax.atMs) withinMax = s;
  }
  return withinTarget ?? withinMax;
}

/** Percent of one core spent between `ref` and `cur` (same process), given `clkTck`. */
export function ratePercent(ref: CpuSample, cur: CpuSample, clkTck: number): number {
  const seconds = (cur.atMs - ref.atMs) / 1000;
  if (seconds <= 0) return 0;
  return ((cur.ticks - ref.ticks) / clkTck / seconds) * 100;
}

/**
 * Combined recent CPU of the processes in `current`, each measured against its reference in
 * `stored`. Null when no process has a reference (the caller then samples twice).
 */
export function combinedReading(
  stored: readonly CpuSample[],
  current: readonly CpuSample[],
  clkTck: number,
): CpuReading | null {
  let percent = 0;
  let deltaTicks = 0;
  let windowMs = Infinity;
  let any = false;
  for (const cur of current) {
    const ref = pickReference(stored, cur);
    if (ref === null) continue;
    any = true;
    percent += ratePercent(ref, cur, clkTck);
    deltaTicks += cur.ticks - ref.ticks;
    windowMs = Math.min(windowMs, cur.atMs - ref.atMs);
  }
  if (!any) return null;
  return { percent: Math.round(percent * 100) / 100, deltaTicks, windowMs };
}

/** True when the call has to take a second reading: no process in `current` has a reference. */
export function needsSecondSample(
  stored: readonly CpuSample[],
  current: readonly CpuSample[],
): boolean {
  return current.length > 0 && current.every((c) => pickReference(stored, c) === null);
}

/**
 * The samples to store next: those of processes still present in `current` (other processes and
 * samples older than {@link CPU_MAX_WINDOW_MS} plus a margin are dropped), plus each current
 * reading whose process has no stored sample younger than {@link CPU_STORE_SPACING_MS}.
 */
export function mergeSamples(
  stored: readonly CpuSample[],
  current: readonly CpuSample[],
  nowMs: number,
): CpuSample[] {
  const keepAfter = nowMs - CPU_MAX_WINDOW_MS - 2_000;
  const kept = stored.filter((s) =>
    s.atMs >= keepAfter && s.atMs <= nowMs && current.some((c) => samePid(s, c))
  );
  for (const cur of current) {
    const newest = kept.filter((s) => samePid(s, cur)).reduce(
      (m, s) => Math.max(m, s.atMs),
      -Infinity,
    );
    if (cur.atMs - newest >= CPU_STORE_SPACING_MS) kept.push(cur);
  }
  kept.sort((a, b) => a.atMs - b.atMs);
  return kept.slice(-CPU_MAX_STORED);
}

/** True when `reading` says busy under `busyMinPercent` (and is not one stray tick). */
export function isCpuBusy(reading: CpuReading | null, busyMinPercent: number): boolean {
  return reading !== null && reading.percent >= busyMinPercent &&
    reading.deltaTicks >= CPU_MIN_BUSY_TICKS;
}
