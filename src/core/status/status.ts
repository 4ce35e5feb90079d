/**
 * `lisa session status`: gathers one session's signals, classifies them (`classify.ts`), and
 * records the answer (`poll_record.ts`). Cost on Linux: one tmux subprocess (capture + pane
 * facts chained), no `ps`, a few `/proc` reads; a second tmux call happens only when tmux lost a
 * dead pane's status and no done file tells it (then the server gets SIGCHLD and the pane is
 * read again).
 *
 * Recorded in the state file (under its lock, never across a tmux call): CPU samples, the
 * screen hash and when it last changed, the agent pid, the last state and reason. An event is
 * appended only on a transition or as a snapshot at most once a minute; the output file (last
 * ≤260 rows) is written once, when a terminal state is first seen. A busy state lock makes the
 * answer `degraded` (exit 0): it is retried on the next poll. Modules only some polls need
 * (event log, capture cleaning, hooks reader) are loaded on demand to keep start-up lean.
 */
import type { Deps } from "../../base/deps.ts";
import { lazyImport } from "../../base/lazy.ts";
import { LisaError } from "../../base/errors.ts";
import type { PaneFacts } from "../capture/mod.ts";
import type { Agent, Mode, WorktreeInfo } from "../../base/types.ts";
import { baseName } from "../../base/paths.ts";
import { locateSession, type SessionLocation, shownAgent } from "../session/mod.ts";
import type {
  CpuSample,
  SessionMeta,
  SessionStateFile,
  SessionStateName,
} from "../../base/types.ts";
import { TERMINAL_STATES } from "../../base/types.ts";
import {
  type Classification,
  classify,
  type CoarseStatus,
  type HookSignal,
  type Signals,
  type SignalSummary,
  type StallInfo,
  type WaitingFor,
} from "./classify.ts";
import { combinedReading, CPU_SECOND_SAMPLE_MS, type CpuReading, isCpuBusy } from "./cpu.ts";
import {
  fileAgeSeconds,
  inspectProcesses,
  missingProbe,
  movedBetween,
  type PaneProbe,
  parseDoneFile,
  probePane,
  type ProcessView,
  type ProcMark,
  readHintedAgent,
  readPaneProcesses,
  sampleCpu,
  screenHash,
  STATUS_CAPTURE_LINES,
  visibleScreen,
} from "./gather.ts";
import { readHookSignal } from "../../agents/hooks.ts";
import { extraMatchNames } from "../../agents/match.ts";
import { COMMAND_CPU, rulesFor } from "../../agents/rules/index.ts";
import {
  CLK_TCK,
  contextSwitches,
  hasProcFs,
  type ProcInfo,
  subtree,
  waitsForTerminalInput,
} from "../../proc/table.ts";
import { readTextIfExists } from "../../store/atomic.ts";
import { readState } from "../../store/session_store.ts";
import { recordPoll } from "./poll_record.ts";
import { nextProgress, type ProgressState } from "./progress.ts";
import { resolveResetsAt } from "../../agents/rules/resets.ts";
import { Tmux } from "../../tmux/tmux.ts";

export { SNAPSHOT_EVENT_INTERVAL_MS } from "./poll_record.ts";

/** Wait after nudging the tmux server with SIGCHLD before reading the pane again. */
export const SIGCHLD_SETTLE_MS = 200;
/**
 * Wait of the second look at a command that seems to run nothing: a script between two commands
 * forks the next one, or is switched in as one ends, well within it.
 */
export const SECOND_LOOK_MS = 40;

/** Options of {@link sessionStatus}. */
export interface StatusOptions {
  session: string;
  projectRoot?: string;
  /** Capture at least this many history rows (snapshot asks for more than status needs). */
  captureLines?: number;
}

/** The `status --json` payload (without `stderrPolicy`, which printJson adds). */
export interface StatusReport {
  session: string;
  /** The session's alias (issue 11), null for sessions spawned without one. */
  alias: string | null;
  /** `"command"` for a `--command` session without `--agent` (see `shownAgent`). */
  agent: Agent | "command" | null;
  mode: Mode | null;
  status: CoarseStatus;
  sessionState: SessionStateName;
  classificationReason: string;
  /** The exit code of a completed/crashed session (null otherwise or when unknown). */
  exitCode: number | null;
  waitingFor: WaitingFor | null;
  /** When a `quota` wait ends, if the agent's screen says (ISO time); else absent. */
  resetsAt?: string | null;
  /** Why a `stuck` session is stuck (no progress for LISA_STALL_SECONDS); else absent. */
  stall?: StallInfo;
  paneStatus: string;
  paneCommand: string | null;
  paneTitle: string | null;
  agentPid: number | null;
  /** Recent CPU of the agent process(es), percent of one core. */
  agentCpu: number | null;
  heartbeatAgeSeconds: number | null;
  signals: SignalSummary;
  /** The output file, once written (at a terminal state). */
  outputFile: string | null;
  /** `spawn --worktree`: the session's worktree (absent for other sessions). */
  worktree?: WorktreeInfo;
}

/** {@link sessionStatus}'s answer: the report plus what snapshot/monitor reuse. */
export interface StatusOutcome {
  report: StatusReport;
  location: SessionLocation;
  /** The pane as captured in this call (raw rows), null when the session is gone. */
  pane: { rawCapture: string; dead: boolean; facts: PaneFacts } | null;
  /** The session's prompt (its echoes do not count as markers). */
  prompt: string | null;
}

let procFsCached: boolean | undefined;
function procFs(): boolean {
  procFsCached ??= hasProcFs();
  return procFsCached;
}

/** The done file of `meta`'s run, read without following symlinks. */
function readDone(
  path: string,
  meta: SessionMeta | undefined,
  failures: string[],
): { runId: string; exitCode: number; matchesRun: boolean } | null {
  let text: string | undefined;
  try {
    text = readTextIfExists(path);
  } catch {
    failures.push("done");
    return null;
  }
  const done = parseDoneFile(text);
  return done ? { ...done, matchesRun: meta === undefined || done.runId === meta.runId } : null;
}

function sessionAgeSeconds(meta: SessionMeta | undefined, probe: PaneProbe, nowMs: number) {
  const created = meta ? Date.parse(meta.createdAt) : NaN;
  if (Number.isFinite(created)) return Math.max(0, (nowMs - created) / 1000);
  if (probe.createdAtSeconds !== null) return Math.max(0, nowMs / 1000 - probe.createdAtSeconds);
  return null;
}

/**
 * The hooks signal of the session (null when it has no hook file or its hooks are off).
 */
function readHooks(
  deps: Deps,
  hooksPath: string,
  meta: SessionMeta | undefined,
  nowMs: number,
): HookSignal | null {
  if (meta === undefined || meta.hooks === false) return null;
  return readHookSignal(hooksPath, meta.runId, nowMs, deps.config);
}

/**
 * When the visible screen last changed (epoch ms; null when unknown). The screen lisa stored
 * last time: unchanged since the stored time. Another screen (or lisa's first look) changed at
 * the latest when the pane last printed, which tmux measures (`lastOutputSeconds`, whole
 * seconds: the end of that second is taken, so the quiet time is never overstated). A stale
 * stored sample is no evidence of a recent change: the change happened anywhere since that
 * sample (issue 9, defect 7). Pure.
 */
export function outputChangedAt(
  prev: Pick<SessionStateFile, "outputHash" | "outputChangedAtMs">,
  hash: string,
  nowMs: number,
  lastOutputSeconds: number | null,
): number | null {
  if (prev.outputHash === hash) return prev.outputChangedAtMs;
  if (lastOutputSeconds === null) return prev.outputHash === null ? null : nowMs;
  return Math.min(nowMs, (lastOutputSeconds + 1) * 1000);
}

/** What the process and CPU pass found. */
export interface ProcessFacts {
  view: ProcessView | null;
  cpu: CpuReading | null;
  /** Readings to merge into the stored samples, oldest first. */
  readings: { samples: CpuSample[]; atMs: number }[];
  /**
   * Without an agent: the pane's processes all sleep and one of them waits for keyboard input
   * on the terminal (a `read` prompt, `cat`, a REPL; `/proc` only, else false).
   */
  readingTerminal: boolean;
}

/** Processes read before the tmux answer arrived (the previous poll's agent, still alive). */
export interface EarlyProcs {
  procs: ProcInfo[];
  atMs: number;
}

async function gatherProcesses(
  deps: Deps,
  probe: PaneProbe,
  prev: SessionStateFile,
  meta: SessionMeta | undefined,
  early: EarlyProcs | null,
  failures: string[],
): Promise<ProcessFacts> {
  const facts: ProcessFacts = { view: null, cpu: null, readings: [], readingTerminal: false };
  if (!probe.exists || probe.dead || probe.panePid === null) return facts;
  let firstAt: number;
  try {
    let procs: ProcInfo[];
    if (early !== null) {
      procs = early.procs;
      firstAt = early.atMs;
    } else {
      procs = await readPaneProcesses(probe.panePid, procFs(), deps.runner);
      firstAt = deps.now().getTime();
    }
    facts.view = inspectProcesses(
      procs,
      probe.panePid,
      extraMatchNames(deps.config),
      meta?.commandOnly ? null : meta?.agent ?? null,
      (agent) => rulesFor(agent).idleHelpers,
    );
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") throw error;
    failures.push("proc");
    return facts;
  }
  if (facts.view.found === null && procFs()) {
    const procs = facts.view.sampled;
    facts.readingTerminal = procs.length > 0 && procs.every((p) => p.state === "S") &&
      procs.some((p) => waitsForTerminalInput(p.pid));
  }
  const first = sampleCpu(facts.view.sampled, firstAt, false);
  facts.readings.push({ samples: first, atMs: firstAt });
  facts.cpu = combinedReading(prev.cpuSamples, first, CLK_TCK);
  return facts;
}

/**
 * Reasons whose answer could change with a CPU reading: only for these does a status call
 * without a recent sample wait for a second one. Hooks, dialogs, spinners, busy children and
 * terminal facts decide without it, so such polls never wait.
 */
const CPU_DEPENDENT_REASONS = new Set([
  "command_reading_terminal",
  "agent_quiet",
  "agent_alive_quiet",
  "no_active_process",
  "grace_period",
]);

/**
 * The progress fields after this poll (see `progress.ts`): busy now when CPU is over the agent's
 * threshold or a tool child or command process runs; the checkpoint measured against the summed
 * ticks of the sampled processes.
 */
function trackProgress(prev: SessionStateFile, facts: ProcessFacts, nowMs: number): ProgressState {
  const view = facts.view;
  const latest = facts.readings.at(-1)?.samples ?? [];
  if (view === null || latest.length === 0) return prev;
  const agent = view.found?.agent ?? null;
  const cpu = agent ? rulesFor(agent).cpu : COMMAND_CPU;
  const busyNow = isCpuBusy(facts.cpu, cpu.busyMinPercent) || view.busyChildren.length > 0 ||
    view.commandProcesses.length > 0 || view.commandStepping;
  const ticks = latest.reduce((sum, sample) => sum + sample.ticks, 0);
  return nextProgress(prev, { ticks, busyNow }, nowMs, cpu.idleMaxPercent, CLK_TCK);
}

/** Runs the status tmux call; a tmux failure (other than a missing program) yields null. */
async function probeOrNull(
  tmux: Tmux,
  loc: SessionLocation,
  lines: number,
): Promise<PaneProbe | null> {
  try {
    return await probePane(tmux, loc.session, lines, loc.meta);
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") throw error;
    return null;
  }
}

/** What a poll reads from the session's files before (or while) tmux answers. */
export interface StatusPrelude {
  prev: SessionStateFile;
  early: EarlyProcs | null;
  done: { runId: string; exitCode: number; matchesRun: boolean } | null;
  heartbeatAge: number | null;
  failures: string[];
}

/** Reads the state, the done file, the heartbeat's age and the last known agent's processes. */
export function readPrelude(
  deps: Deps,
  loc: SessionLocation,
  memorySamples?: readonly CpuSample[],
): StatusPrelude {
  const failures: string[] = [];
  const prev = readState(loc.paths);
  if (memorySamples !== undefined && memorySamples.length > 0) {
    // The caller's own recent samples join the stored ones (watch keeps them in memory).
    const seen = new Set(prev.cpuSamples.map((x) => `${x.pid}:${x.startTime}:${x.atMs}`));
    const extra = memorySamples.filter((x) => !seen.has(`${x.pid}:${x.startTime}:${x.atMs}`));
    prev.cpuSamples = [...prev.cpuSamples, ...extra].sort((a, b) => a.atMs - b.atMs);
  }
  let early: EarlyProcs | null = null;
  try {
    const procs = procFs()
      ? readHintedAgent({ pid: prev.agentPid, startTime: prev.agentStartTime })
      : null;
    if (procs !== null) early = { procs, atMs: deps.now().getTime() };
  } catch { /* the pane is scanned after the tmux answer instead */ }
  const done = readDone(loc.paths.done, loc.meta, failures);
  const heartbeatAge = fileAgeSeconds(loc.paths.heartbeat, deps.now().getTime());
  return { prev, early, done, heartbeatAge, failures };
}

/** True when tmux lost a dead pane's status and no done file of this run tells it. */
export function lostExitStatus(probe: PaneProbe, done: StatusPrelude["done"]): boolean {
  return probe.exists && probe.dead && probe.deadStatus === null && probe.deadSignal === null &&
    !done?.matchesRun && probe.serverPid !== null;
}

/** One session's poll between its classification and its recording. */
export interface Evaluation {
  loc: SessionLocation;
  prelude: StatusPrelude;
  probe: PaneProbe;
  facts: ProcessFacts;
  signals: Signals;
  c: Classification;
  hash: string;
  changedAt: number | null;
  nowMs: number;
  /** The progress fields after this poll (recorded with it). */
  progress: ProgressState;
}

/**
 * Classifies a session from its prelude and its pane probe: reads its processes and CPU,
 * builds the signals, runs the classifier. `captured: false` says the probe holds no capture
 * (a terminal session whose output file is written): the stored screen hash is kept.
 */
export async function evaluateSession(
  deps: Deps,
  loc: SessionLocation,
  prelude: StatusPrelude,
  probe: PaneProbe,
  captured = true,
): Promise<Evaluation> {
  const meta = loc.meta;
  const { prev, failures } = prelude;
  const nowMs = deps.now().getTime();
  const age = sessionAgeSeconds(meta, probe, nowMs);
  const facts = await gatherProcesses(deps, probe, prev, meta, prelude.early, failures);
  const visible = visibleScreen(probe.rawCapture, probe.height);
  const hash = !captured && prev.outputHash !== null ? prev.outputHash : screenHash(visible);
  const changedAt = outputChangedAt(prev, hash, nowMs, probe.lastOutputSeconds);
  const hooks = readHooks(deps, loc.paths.hooks, meta, nowMs);
  const progress = trackProgress(prev, facts, nowMs);
  const signals = signalsOf(deps, loc, {
    prelude,
    probe,
    facts,
    age,
    visible,
    changedAt,
    nowMs,
    hooks,
    progress,
  });
  return {
    loc,
    prelude,
    probe,
    facts,
    signals,
    c: classify(signals),
    hash,
    changedAt,
    nowMs,
    progress,
  };
}

/** What the classifier reads of one poll (DESIGN §5), from what the poll gathered. */
function signalsOf(
  deps: Deps,
  loc: SessionLocation,
  poll: {
    prelude: StatusPrelude;
    probe: PaneProbe;
    facts: ProcessFacts;
    age: number | null;
    visible: string;
    changedAt: number | null;
    nowMs: number;
    hooks: Signals["hooks"];
    progress: ProgressState;
  },
): Signals {
  const { prelude, probe, facts, age, visible, changedAt, nowMs, hooks, progress } = poll;
  const meta = loc.meta;
  const { prev, done, failures } = prelude;
  const found = facts.view?.found ?? null;
  return {
    sessionExists: probe.exists,
    // Only a session lisa spawned on that socket can have lost its server.
    serverGone: probe.serverGone && meta !== undefined,
    pane: probe.exists
      ? {
        dead: probe.dead,
        deadStatus: probe.deadStatus,
        deadSignal: probe.deadSignal,
        currentCommand: probe.currentCommand,
        title: probe.title,
        pid: probe.panePid,
      }
      : null,
    done,
    // A command-only session's meta.agent is just the name's default: no agent is expected.
    expectedAgent: meta?.commandOnly ? null : meta?.agent ?? null,
    mode: meta?.mode ?? null,
    sessionAgeSeconds: age,
    agent: found
      ? {
        agent: found.agent,
        pid: found.proc.pid,
        name: found.proc.name,
        cpu: facts.cpu,
        busyChildren: facts.view?.busyChildren ?? [],
      }
      : null,
    command: {
      processes: facts.view?.commandProcesses ?? [],
      cpu: found ? null : facts.cpu,
      readingTerminal: facts.readingTerminal,
      stepping: facts.view?.commandStepping ?? false,
    },
    screen: {
      title: probe.title,
      text: visible,
      folder: baseName(meta?.projectRoot ?? loc.projectRoot),
      quietSeconds: changedAt === null ? null : Math.max(0, (nowMs - changedAt) / 1000),
    },
    heartbeatAgeSeconds: prelude.heartbeatAge,
    hooks,
    hooksInjected: meta?.hooks === true,
    lastInputAgeSeconds: prev.lastInputAtMs === null
      ? null
      : Math.max(0, (nowMs - prev.lastInputAtMs) / 1000),
    lastBusyAgeSeconds: progress.lastBusyAtMs === null
      ? null
      : Math.max(0, (nowMs - progress.lastBusyAtMs) / 1000),
    stallSeconds: deps.config.stallSeconds,
    graceSeconds: deps.config.graceSeconds,
    quietSeconds: deps.config.quietSeconds,
    failures,
  };
}

/** True when the answer hinges on CPU and no recent sample exists: a second one is due. */
export function needsSecondSample(ev: Evaluation): boolean {
  return ev.facts.cpu === null && ev.prelude.done === null &&
    CPU_DEPENDENT_REASONS.has(ev.c.classificationReason);
}

/**
 * Takes the second CPU sample (the caller waited {@link CPU_SECOND_SAMPLE_MS} since the first)
 * and classifies again.
 */
export function resample(deps: Deps, ev: Evaluation): void {
  const first = ev.facts.readings[0]?.samples ?? [];
  if (ev.facts.view === null || first.length === 0) return;
  const laterAt = deps.now().getTime();
  const later = sampleCpu(ev.facts.view.sampled, laterAt, procFs());
  ev.facts.readings.push({ samples: later, atMs: laterAt });
  ev.facts.cpu = combinedReading(first, later, CLK_TCK);
  if (ev.signals.agent) ev.signals.agent = { ...ev.signals.agent, cpu: ev.facts.cpu };
  else ev.signals.command = { ...ev.signals.command, cpu: ev.facts.cpu };
  ev.c = classify(ev.signals);
}

/**
 * True when the answer is `no_active_process` and the pane's processes can be read again: a
 * script between two commands shows no process for a moment, so status looks once more before
 * it answers `stuck` (which monitor and smoke take as final).
 */
export function needsSecondLook(ev: Evaluation): boolean {
  return ev.c.classificationReason === "no_active_process" && ev.facts.view !== null &&
    ev.probe.panePid !== null && procFs();
}

/** The marks of `procs` now (who they are, how often each was switched in). */
function marksOf(procs: readonly ProcInfo[]): ProcMark[] {
  return procs.map((p) => ({
    pid: p.pid,
    startTime: p.startTime,
    switches: contextSwitches(p.pid),
  }));
}

/**
 * The second look at a command that seemed to run nothing (`before`: its processes' marks at
 * the first look, a moment ago): reads the pane's processes again and classifies again. The
 * command moves when a process of it runs now, or its processes came, went or were switched in
 * between the looks ({@link movedBetween}); a shell blocked for good does none of that.
 */
function lookAgain(deps: Deps, ev: Evaluation, before: readonly ProcMark[]): void {
  const first = ev.facts.view!;
  let view: ProcessView;
  try {
    view = inspectProcesses(
      subtree(ev.probe.panePid!),
      ev.probe.panePid,
      extraMatchNames(deps.config),
      null,
      (agent) => rulesFor(agent).idleHelpers,
    );
  } catch {
    return;
  }
  if (view.found !== null) return;
  const moved = view.commandStepping || movedBetween(before, marksOf(view.sampled));
  ev.facts.view = { ...view, sampled: first.sampled, commandStepping: moved };
  ev.progress = trackProgress(ev.prelude.prev, ev.facts, ev.nowMs);
  ev.signals.command = {
    ...ev.signals.command,
    processes: view.commandProcesses,
    stepping: moved,
  };
  if (ev.progress.lastBusyAtMs !== null) {
    ev.signals.lastBusyAgeSeconds = Math.max(0, (ev.nowMs - ev.progress.lastBusyAtMs) / 1000);
  }
  ev.c = classify(ev.signals);
}

/**
 * The second pass of a poll, after one wait shared by every evaluation of `evals` that needs it:
 * a second CPU sample where the answer hinges on CPU and none is recent
 * ({@link CPU_SECOND_SAMPLE_MS}), and a second look at a command that seems to run nothing
 * ({@link SECOND_LOOK_MS}).
 */
export async function secondPass(deps: Deps, evals: readonly Evaluation[]): Promise<void> {
  const sample = evals.filter(needsSecondSample);
  const look = evals.filter(needsSecondLook);
  if (sample.length === 0 && look.length === 0) return;
  const marks = new Map(look.map((ev) => [ev, marksOf(ev.facts.view!.sampled)]));
  await deps.sleep(sample.length > 0 ? CPU_SECOND_SAMPLE_MS : SECOND_LOOK_MS);
  for (const ev of sample) resample(deps, ev);
  for (const ev of look) if (needsSecondLook(ev)) lookAgain(deps, ev, marks.get(ev)!);
}

/**
 * Records the poll (state file, event, output file) and builds the report. With
 * `samplesInMemory` the caller keeps the CPU samples (see `PollFacts.samplesInMemory`).
 */
export async function finishEvaluation(
  deps: Deps,
  ev: Evaluation,
  samplesInMemory = false,
): Promise<StatusOutcome> {
  const { loc, probe, facts } = ev;
  const meta = loc.meta;
  let c = ev.c;
  if (meta !== undefined || probe.exists) {
    c = await recordPoll(deps, loc, ev.prelude.prev, c, {
      probe,
      view: facts.view,
      readings: facts.readings,
      hash: ev.hash,
      changedAtMs: ev.changedAt,
      nowMs: ev.nowMs,
      runId: meta?.runId ?? null,
      progress: ev.progress,
      samplesInMemory,
    });
  }
  await recordSilentEnd(deps, ev, c);
  const report = reportOf(ev, c);
  return {
    report,
    location: loc,
    pane: probe.exists
      ? {
        rawCapture: probe.rawCapture,
        dead: probe.dead,
        facts: {
          dead: probe.dead,
          height: probe.height,
          cursorY: probe.cursorY,
          historySize: probe.historySize,
          historyLimit: probe.historyLimit,
          alternateOn: probe.alternateOn,
        },
      }
      : null,
    prompt: meta?.prompt ?? null,
  };
}

/**
 * Status answers that the agent waits for input while its hooks still say the turn runs: the
 * turn ended without its end hook, and the hook log says so from now on (turn_end.ts).
 */
async function recordSilentEnd(deps: Deps, ev: Evaluation, c: Classification): Promise<void> {
  const pending = ev.signals.hooks?.pending;
  if (
    !(c.sessionState === "waiting_input" && c.waitingFor === "input" &&
      (pending === "turn_running" || pending === "permission" || pending === "compacting"))
  ) return;
  const { recordSilentTurnEnd } = await lazyImport<typeof import("./turn_end.ts")>(
    new URL("./turn_end.ts", import.meta.url),
  );
  await recordSilentTurnEnd(deps, {
    loc: ev.loc,
    classification: c,
    hooks: ev.signals.hooks,
    screen: ev.probe.rawCapture,
    quietSeconds: ev.signals.screen.quietSeconds,
    nowMs: ev.nowMs,
  });
}

/** The status report of a recorded poll (`session status --json`). */
function reportOf(ev: Evaluation, c: Classification): StatusReport {
  const { loc, probe, facts } = ev;
  const meta = loc.meta;
  const paths = loc.paths;
  // The output file is written at a terminal state only (spawn removes stale ones).
  let outputFile: string | null = null;
  if (TERMINAL_STATES.includes(c.sessionState)) {
    try {
      if (Deno.lstatSync(paths.output).isFile) outputFile = paths.output;
    } catch { /* not written */ }
  }
  const found = facts.view?.found ?? null;
  return {
    session: loc.session,
    alias: meta?.alias ?? loc.alias ?? null,
    agent: meta ? shownAgent(meta) : found?.agent ?? null,
    mode: meta?.mode ?? null,
    status: c.status,
    sessionState: c.sessionState,
    classificationReason: c.classificationReason,
    exitCode: c.exitCode ?? null,
    waitingFor: c.waitingFor ?? null,
    ...(c.waitingFor === "quota"
      ? { resetsAt: c.resetsText ? resolveResetsAt(c.resetsText, ev.nowMs) : null }
      : {}),
    ...(c.stall ? { stall: c.stall } : {}),
    paneStatus: c.signals.paneStatus,
    paneCommand: probe.exists ? probe.currentCommand : null,
    paneTitle: probe.exists ? probe.title : null,
    agentPid: c.signals.agentPid,
    agentCpu: c.signals.agentCpu,
    heartbeatAgeSeconds: c.signals.heartbeatAgeSeconds,
    signals: c.signals,
    outputFile,
    ...(meta?.worktree ? { worktree: meta.worktree } : {}),
  };
}

/**
 * Computes the status of `options.session`. Throws `invalid_session_name`, the project errors,
 * and `tmux_failed` only through the report (a failing tmux gives `degraded`). A session tmux
 * does not know is `not_found` (the caller decides the exit code).
 */
export async function sessionStatus(deps: Deps, options: StatusOptions): Promise<StatusOutcome> {
  const loc = await locateSession(deps, options.session, options.projectRoot);
  const tmux = new Tmux(deps.runner, loc.socketPath, deps.config.cmdTimeoutSeconds * 1000);
  const lines = Math.max(options.captureLines ?? 0, STATUS_CAPTURE_LINES);

  // The tmux call runs while the files and the known agent's processes are read.
  const probing = probeOrNull(tmux, loc, lines);
  const prelude = readPrelude(deps, loc);
  let probe = await probing;
  if (probe === null) {
    prelude.failures.push("tmux");
    probe = missingProbe();
  }
  if (lostExitStatus(probe, prelude.done)) {
    // tmux 3.3a can lose SIGCHLD and keep an empty pane_dead_status; a nudge makes it reap.
    try {
      Deno.kill(probe.serverPid!, "SIGCHLD");
      await deps.sleep(SIGCHLD_SETTLE_MS);
      probe = await probePane(tmux, loc.session, lines, loc.meta);
    } catch { /* keep what we have: the classifier reports the status as unknown */ }
    prelude.done = readDone(loc.paths.done, loc.meta, prelude.failures);
  }
  const ev = await evaluateSession(deps, loc, prelude, probe);
  // No recent CPU sample where the answer hinges on it (~150 ms), or a command that seems to
  // run nothing (~40 ms): one more look before answering.
  await secondPass(deps, [ev]);
  const outcome = await finishEvaluation(deps, ev);
  const { session, sessionState: state, waitingFor } = outcome.report;
  deps.noteState?.({ session, state, waitingFor });
  return outcome;
}
