/**
 * Recording one status poll: the state file (under its lock, never across a tmux call), then,
 * outside the lock, the event (a transition when the state or reason changed, otherwise a
 * snapshot at most once a minute, nothing else) and the output file (once, at the first
 * terminal state). A poll that changes nothing the next poll needs (no new CPU sample, same
 * screen, same answer, no event due) writes nothing, so frequent polling costs no lock and no
 * write; `pollCount` therefore counts recorded polls and is informational only.
 */
import { warn } from "../../base/io.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { Deps } from "../../base/deps.ts";
import { LockBusyError } from "../../base/errors.ts";
import type { SessionLocation } from "../session/mod.ts";
import type { CpuSample, EventRecord, SessionStateFile } from "../../base/types.ts";
import { TERMINAL_STATES } from "../../base/types.ts";
import { type Classification, degrade } from "./classify.ts";
import { mergeSamples } from "./cpu.ts";
import { progressChanged, type ProgressState } from "./progress.ts";
import type { PaneProbe, ProcessView } from "./gather.ts";
import { STATUS_CAPTURE_LINES } from "./gather.ts";
import { writeFileAtomic } from "../../store/atomic.ts";
import { updateState } from "../../store/session_store.ts";

/** A snapshot event is appended at most this often for an unchanged session. */
export const SNAPSHOT_EVENT_INTERVAL_MS = 60_000;

/** What a poll saw that the state file keeps. */
export interface PollFacts {
  probe: Pick<PaneProbe, "exists" | "dead" | "rawCapture">;
  view: ProcessView | null;
  /** CPU readings of this poll, oldest first. */
  readings: { samples: CpuSample[]; atMs: number }[];
  hash: string;
  /** When the screen last changed as this poll measured it (null: unknown). */
  changedAtMs: number | null;
  nowMs: number;
  runId: string | null;
  /** The progress fields after this poll (stall detection); absent: unchanged. */
  progress?: ProgressState;
  /**
   * The caller keeps this poll's CPU samples itself (watch, polling several times a second):
   * new samples alone are no reason to write the state file.
   */
  samplesInMemory?: boolean;
}

/** What applying a poll to the state asks for afterwards. */
export interface PollEffects {
  event: EventRecord["type"] | null;
  writeOutput: boolean;
}

function samplesAfter(
  st: Pick<SessionStateFile, "cpuSamples">,
  facts: Pick<PollFacts, "readings">,
): CpuSample[] {
  let samples = st.cpuSamples;
  for (const r of facts.readings) samples = mergeSamples(samples, r.samples, r.atMs);
  return samples;
}

function sameSamples(a: readonly CpuSample[], b: readonly CpuSample[]): boolean {
  return a.length === b.length &&
    a.every((s, i) => s.pid === b[i].pid && s.atMs === b[i].atMs && s.ticks === b[i].ticks);
}

/**
 * A busy session moves `lastBusyAtMs` on every poll; alone, that is written at most this often
 * (a list of 100 busy sessions would otherwise rewrite 100 state files per call). The stored
 * time then lags by less than this, against stall thresholds of minutes (LISA_STALL_SECONDS).
 */
export const BUSY_WRITE_SPACING_MS = 2_000;

/** True when the progress fields changed enough to be written (see the spacing above). Pure. */
function progressWorthWriting(st: SessionStateFile, next: ProgressState): boolean {
  if (!progressChanged(st, next)) return false;
  if (st.progressMarkAtMs !== next.progressMarkAtMs) return true;
  if (st.progressMarkTicks !== next.progressMarkTicks) return true;
  if (st.lastBusyAtMs === null || next.lastBusyAtMs === null) return true;
  return next.lastBusyAtMs - st.lastBusyAtMs >= BUSY_WRITE_SPACING_MS;
}

/** True when `facts` and `c` would change `st` in a way later polls need. Pure. */
export function pollChangesState(
  st: SessionStateFile,
  c: Classification,
  facts: PollFacts,
): boolean {
  if (st.pollCount === 0) return true;
  if (st.lastState !== c.sessionState || st.lastReason !== c.classificationReason) return true;
  if (st.lastSnapshotEventAtMs === null) return true;
  if (facts.nowMs - st.lastSnapshotEventAtMs >= SNAPSHOT_EVENT_INTERVAL_MS) return true;
  if (facts.probe.exists && st.outputHash !== facts.hash) return true;
  if (TERMINAL_STATES.includes(c.sessionState) && facts.probe.exists && !st.outputWritten) {
    return true;
  }
  if (facts.progress !== undefined && progressWorthWriting(st, facts.progress)) return true;
  if (facts.view !== null) {
    const found = facts.view.found?.proc;
    if ((found?.pid ?? null) !== st.agentPid) return true;
    if ((found?.startTime ?? null) !== st.agentStartTime) return true;
  }
  if (facts.samplesInMemory) return false;
  return !sameSamples(samplesAfter(st, facts), st.cpuSamples);
}

/** The CPU samples a state holds after applying `facts` (what the next poll measures from). */
export function samplesAfterPoll(
  st: Pick<SessionStateFile, "cpuSamples">,
  facts: Pick<PollFacts, "readings">,
): CpuSample[] {
  return samplesAfter(st, facts);
}

/** Applies one poll to the state in place and says which event and output it calls for. Pure. */
export function applyPoll(st: SessionStateFile, c: Classification, facts: PollFacts): PollEffects {
  const { nowMs } = facts;
  let event: EventRecord["type"] | null = null;
  let writeOutput = false;
  st.pollCount += 1;
  st.cpuSamples = samplesAfter(st, facts);
  if (facts.progress !== undefined) {
    st.lastBusyAtMs = facts.progress.lastBusyAtMs;
    st.progressMarkAtMs = facts.progress.progressMarkAtMs;
    st.progressMarkTicks = facts.progress.progressMarkTicks;
  }
  if (facts.view !== null) {
    st.agentPid = facts.view.found?.proc.pid ?? null;
    st.agentStartTime = facts.view.found?.proc.startTime ?? null;
    st.lastScanAtMs = nowMs;
  }
  if (facts.probe.exists && st.outputHash !== facts.hash) {
    st.outputChangedAtMs = facts.changedAtMs;
    st.outputHash = facts.hash;
  }
  if (st.lastState !== c.sessionState || st.lastReason !== c.classificationReason) {
    event = "transition";
    st.lastSnapshotEventAtMs = nowMs;
  } else if (
    st.lastSnapshotEventAtMs === null ||
    nowMs - st.lastSnapshotEventAtMs >= SNAPSHOT_EVENT_INTERVAL_MS
  ) {
    event = "snapshot";
    st.lastSnapshotEventAtMs = nowMs;
  }
  st.lastState = c.sessionState;
  st.lastReason = c.classificationReason;
  if (c.sessionState === "in_progress") {
    st.hasEverBeenActive = true;
    st.lastActiveAtMs = nowMs;
  }
  if (TERMINAL_STATES.includes(c.sessionState) && facts.probe.exists && !st.outputWritten) {
    st.outputWritten = true;
    writeOutput = true;
  }
  return { event, writeOutput };
}

/**
 * Records a poll (see the module doc); `prev` is the state read before the poll. Returns the
 * classification, degraded when the state lock is busy or the state cannot be written.
 */
export async function recordPoll(
  deps: Deps,
  loc: SessionLocation,
  prev: SessionStateFile,
  c: Classification,
  facts: PollFacts,
): Promise<Classification> {
  if (!pollChangesState(prev, c, facts)) return c;
  let effects: PollEffects = { event: null, writeOutput: false };
  let poll = 0;
  try {
    await updateState(loc.paths, deps.config.stateLockTimeoutMs, (st) => {
      effects = applyPoll(st, c, facts);
      poll = st.pollCount;
    });
  } catch (error) {
    return degrade(c, error instanceof LockBusyError ? "state_lock_busy" : "state_write_failed");
  }
  if (effects.writeOutput) await writeOutput(deps, loc, facts.probe);
  if (effects.event !== null) {
    const event: EventRecord = {
      at: new Date(facts.nowMs).toISOString(),
      type: effects.event,
      session: loc.session,
      runId: facts.runId,
      state: c.sessionState,
      status: c.status,
      reason: c.classificationReason,
      poll,
      signals: c.signals as unknown as Record<string, unknown>,
    };
    try {
      // Loaded on demand: most polls append nothing, and status start-up time counts.
      const { appendEvent } = await lazyImport<typeof import("../../store/events.ts")>(
        new URL("../../store/events.ts", import.meta.url),
      );
      await appendEvent(loc.paths.events, event, deps.config);
    } catch (error) {
      warn(deps.io, `could not log the ${effects.event} event: ${(error as Error).message}`);
    }
  }
  return c;
}

/** Writes the last ≤260 rows of the pane to the output file (markers hidden, noise kept). */
async function writeOutput(
  deps: Deps,
  loc: SessionLocation,
  probe: Pick<PaneProbe, "dead" | "rawCapture">,
): Promise<void> {
  try {
    const { cleanCapture } = await lazyImport<typeof import("./capture_text.ts")>(
      new URL("./capture_text.ts", import.meta.url),
    );
    const rows = cleanCapture(probe.rawCapture, { paneDead: probe.dead, keepNoise: true });
    const tail = rows.slice(-STATUS_CAPTURE_LINES);
    writeFileAtomic(loc.paths.output, tail.length > 0 ? tail.join("\n") + "\n" : "");
  } catch (error) {
    warn(deps.io, `could not write the output file: ${(error as Error).message}`);
  }
}
