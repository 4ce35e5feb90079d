/**
 * The classifier (DESIGN §5): a pure function from the signals gathered about one session to its
 * state, a coarse status, the reason, and the signals it used. No I/O, no clock: everything time
 * related arrives as ages in {@link Signals}, so recorded fixtures drive it in unit tests.
 *
 * Order (first decisive answer wins):
 * 1. tmux: session missing → `not_found` (`server_gone` when no server runs on the socket of a
 *    session lisa spawned there, else `session_missing`), or the done file's verdict when one
 *    matches the run;
 *    pane dead → `completed`/`crashed` with `exitCode` (dead status, dead signal, done file).
 * 2. done file of this run while the pane still lives → `completed`/`crashed`.
 * 3. read failures → `degraded`.
 * 4. hooks (when active) and screen evidence: a pending permission (hook or dialog on screen) →
 *    `waiting_input`/`permission`, except a hook permission whose dialog is gone (Esc at the
 *    dialog fires no hook): once the record is {@link PERMISSION_RENDER_SECONDS} old and the
 *    captured screen shows no dialog, it is dismissed → `waiting_input`/`input`
 *    (`hook:permission_dismissed`) when nothing shows work, else the other evidence decides;
 *    an MCP server's request for input (claude's Elicitation) → `waiting_input`/`input`
 *    (`hook:elicitation`); a finished turn whose Stop still lists background work in flight (a
 *    Bash run in the background, a subagent) → `in_progress` (`hook:background_tasks`) until a
 *    later Stop lists none; a finished turn → `waiting_input`/`input` unless activity
 *    contradicts it (or the agent runs in exec mode, where it is about to exit); a compaction
 *    (PreCompact, no PostCompact yet) → `in_progress` (`hook:compacting`, never a stall); a
 *    running turn → `in_progress` only while it is recent or confirmed by activity; a working
 *    spinner on screen → `in_progress`. Between the permission checks and
 *    the turn hooks (issue 13): a blocked message that is the newest thing on screen, or in a
 *    failed turn's hook (a usage/rate limit, a credential, a failing API) →
 *    `waiting_input`/`quota|auth|error` unless the agent visibly works again; and a silent
 *    turn end (the hook says running, the idle prompt shows, no CPU, output or child for
 *    the quiet window, `LISA_QUIET_SECONDS`, default {@link QUIET_SECONDS}) →
 *    `waiting_input`/`input` (`hook_running_but_idle:<rule>`).
 * 5. agent alive: input sent moments ago → `in_progress`; an idle title (interactive) →
 *    `waiting_input`; a busy child (any non-agent descendant that is not a zombie or a listed
 *    idle helper; `sleep` and `cat` count: defect 4), recent CPU over the agent's threshold, or a
 *    changing screen → `in_progress`; otherwise interactive → `waiting_input` and exec →
 *    `in_progress` (`agent_alive_quiet`: exec agents that print nothing are usually waiting on
 *    their API). While the session is younger than its grace window (`LISA_GRACE_SECONDS`,
 *    default {@link SESSION_GRACE_SECONDS}), the quiet answers (idle title, quiet agent) are
 *    `just_started` instead.
 * 6. no agent: a non-shell process in the pane (the wrapper's heartbeat excluded), busy shells
 *    or a changing screen → `in_progress`; then, inside the grace window, → `just_started`;
 *    then a script between two of its commands (`command_between_steps`) → `in_progress`;
 *    otherwise → `stuck`. A fresh heartbeat alone does not count: it proves the wrapper lives,
 *    not that anything works (seed 003: stuck = no active process after grace).
 *
 * Stalls (issue 13): any `in_progress` answer past the grace window becomes `stuck`
 * (`stalled:<reason>`, with `stall: {quietSeconds, evidence}`) once nothing progressed for
 * `LISA_STALL_SECONDS` (see {@link progressOf}).
 *
 * The grace window (seed 003: `just_started` is the grace period while idle) only holds back
 * the answers a quiet fresh session could get wrongly (`waiting_input`, `stuck`); it never hides
 * work. Its clock is the session's age, never a poll count (DESIGN §9 defect 7). Busy evidence
 * wins inside it (issue 9, defect 8): an agent burning CPU, running a child or printing seconds
 * after spawn is `in_progress`. That includes codex's start-up burst (20–24 % CPU for ~5 s,
 * DESIGN §4.7): the agent is working (loading) then, and once the burst ends a quiet session is
 * `just_started` again until the window closes. Output of the first
 * {@link STARTUP_OUTPUT_SECONDS} after spawn is start-up drawing and does not count as changing.
 */
import type { Agent, Mode } from "../../base/types.ts";
import type { SessionStateName } from "../../base/types.ts";
import { type CpuReading, isCpuBusy } from "./cpu.ts";
import {
  BLOCKED_KINDS,
  type BlockedKind,
  COMMAND_CPU,
  matchScreen,
  rulesFor,
  type ScreenMatch,
} from "../../agents/rules/index.ts";
import type { BackgroundTask, HookSignal } from "../../agents/hooks.ts";

/**
 * Seconds after spawn during which a quiet session is `just_started`: the default of
 * `LISA_GRACE_SECONDS` (`Signals.graceSeconds`).
 */
export const SESSION_GRACE_SECONDS = 8;
/**
 * An interactive agent quiet (no CPU, unchanged screen) this long is waiting for input: the
 * default of `LISA_QUIET_SECONDS` (`Signals.quietSeconds`).
 */
export const QUIET_SECONDS = 3;
/**
 * Output within this many seconds of spawn is the session's start-up drawing (banner, UI), not
 * work: inside the grace window it does not count as a changing screen.
 */
export const STARTUP_OUTPUT_SECONDS = 3;
/** A hook saying "turn running" counts on its own only while younger than this. */
export const HOOK_RUNNING_FRESH_SECONDS = 10;
/**
 * A permission hook this old whose dialog is not on the captured screen was dismissed. Claude
 * draws the dialog within milliseconds of PermissionRequest (and repeats the request as a
 * `permission_prompt` Notification 6 s later), so a few seconds leave a wide margin.
 */
export const PERMISSION_RENDER_SECONDS = 4;

/**
 * The coarse status for people, derived from the precise `sessionState`:
 * `active` (just_started, in_progress), `idle` (waiting_input), `done` (completed),
 * `failed` (crashed, stuck), `degraded`, `not_found`.
 */
export type CoarseStatus = "active" | "idle" | "done" | "failed" | "degraded" | "not_found";

/**
 * What a waiting session waits for: `input` (its prompt), `permission` (a dialog where `1`, `y`
 * or Enter approves), `quota` (a usage or rate limit), `auth` (a credential to fix), `error`
 * (the model API keeps failing).
 */
export type WaitingFor = "input" | "permission" | BlockedKind;

/** Why a session is `stuck`: how long nothing progressed, and what was looked at. */
export interface StallInfo {
  quietSeconds: number;
  /** One entry per signal looked at, e.g. `cpu: 0.1% (idle)`, `output: unchanged 312s`. */
  evidence: string[];
}

/**
 * Hook health: `active` (records of this run arrived), `pending` (injected, none yet: inside the
 * grace window, or codex before its first turn ends), `silent` (injected, but claude sent no
 * SessionStart within the grace window: an agent that ignores `--settings`), `off` (not
 * injected: `--no-hooks`, `LISA_HOOKS=off`, `--command`).
 */
export type HooksHealth = "active" | "pending" | "silent" | "off";

/** Summary of the agent hooks file (read by `src/agents/hooks.ts`), the `hooks` slot. */
export type { HookSignal } from "../../agents/hooks.ts";

/** Facts tmux reports about the session's pane. */
export interface PaneSignals {
  dead: boolean;
  /** Exit status of a dead pane; null when tmux did not say (tmux 3.3a loses it at times). */
  deadStatus: number | null;
  /** Signal that killed a dead pane's process, when tmux says. */
  deadSignal: number | null;
  currentCommand: string;
  title: string;
  pid: number | null;
}

/** The agent process found in the pane. */
export interface AgentSignals {
  agent: Agent;
  pid: number;
  name: string;
  /** Recent CPU of the agent's own process(es); null when unknown. */
  cpu: CpuReading | null;
  /** Executable names of busy descendants (not agent, not zombie, not idle helper). */
  busyChildren: string[];
}

/** Everything the classifier looks at. */
export interface Signals {
  /** False when tmux has no such session (or no server). */
  sessionExists: boolean;
  /**
   * True when no tmux server runs on the socket of a session lisa spawned there: the whole
   * server is gone, not just this session (`not_found` with reason `server_gone`).
   */
  serverGone?: boolean;
  pane: PaneSignals | null;
  /** The done file, when present; `matchesRun` says its runId is this spawn's. */
  done: { runId: string; exitCode: number; matchesRun: boolean } | null;
  /** The agent of the spawn (meta); null for `--command` sessions and unknown sessions. */
  expectedAgent: Agent | null;
  mode: Mode | null;
  /** Seconds since spawn (meta.createdAt, else tmux session_created); null when unknown. */
  sessionAgeSeconds: number | null;
  agent: AgentSignals | null;
  /**
   * Without an agent: non-shell processes in the pane (heartbeat excluded), their CPU, and
   * whether they all sleep with one waiting for keyboard input on the terminal.
   */
  command: {
    processes: string[];
    cpu: CpuReading | null;
    readingTerminal?: boolean;
    /**
     * The command moves between two of its commands: a shell of it runs, a command of it just
     * ended, or status's second look saw its processes change (`gather.ts` `isStepping`).
     */
    stepping?: boolean;
  };
  screen: {
    title: string;
    /** The visible rows of the pane. */
    text: string;
    /** Basename of the project root (codex shows it as its idle title). */
    folder: string;
    /** Seconds since the screen last changed; null when unknown (first look). */
    quietSeconds: number | null;
  };
  heartbeatAgeSeconds: number | null;
  hooks: HookSignal | null;
  /** True when lisa injected hooks at spawn (meta.hooks); absent: unknown (treated as false). */
  hooksInjected?: boolean;
  /** Seconds since lisa last sent input to the session; null when never. */
  lastInputAgeSeconds: number | null;
  /**
   * Seconds since a poll last saw the agent's CPU busy (recent reading over its threshold, or
   * its average since the previous checkpoint over its idle ceiling) or a busy tool child; null
   * when never seen. Kept in the state file between polls.
   */
  lastBusyAgeSeconds?: number | null;
  /** `LISA_STALL_SECONDS`: no progress this long makes a working answer `stuck`. */
  stallSeconds?: number;
  /** `LISA_GRACE_SECONDS`: the start-up grace window (default {@link SESSION_GRACE_SECONDS}). */
  graceSeconds?: number;
  /** `LISA_QUIET_SECONDS`: the quiet window (default {@link QUIET_SECONDS}). */
  quietSeconds?: number;
  /** Read failures (e.g. "proc", "meta", "state"); any makes an undecided answer degraded. */
  failures: string[];
}

/** The `signals` object reported with a classification (compact, JSON-ready). */
export interface SignalSummary {
  paneStatus: string;
  sessionAgeSeconds: number | null;
  inGrace: boolean;
  agentPid: number | null;
  agentCpu: number | null;
  cpuWindowMs: number | null;
  busyChildren: string[];
  commandProcesses: string[];
  /** Without an agent: the command sleeps waiting for keyboard input on its terminal. */
  readingTerminal?: boolean;
  screenRules: string[];
  outputQuietSeconds: number | null;
  heartbeatAgeSeconds: number | null;
  doneExitCode: number | null;
  /** True when the agent's hooks work for this session (`hooks.active`). */
  hooksActive: boolean;
  /** See {@link HooksHealth}. */
  hooksHealth: HooksHealth;
  hooks: HookSignal | null;
  /**
   * Work the agent still runs on its own after its turn ended (claude's `background_tasks` of
   * its last Stop, or subagents that have not stopped): `[]` when none.
   */
  backgroundTasks: BackgroundTask[];
  /** Seconds since anything showed progress (see {@link StallInfo}); null when unknown. */
  progressQuietSeconds: number | null;
  lastInputAgeSeconds: number | null;
  failures: string[];
}

/** The classifier's answer. */
export interface Classification {
  sessionState: SessionStateName;
  status: CoarseStatus;
  classificationReason: string;
  /** Set for completed/crashed (null when tmux lost it and no done file exists). */
  exitCode?: number | null;
  waitingFor?: WaitingFor;
  /** The reset time of a `quota` wait, as the agent words it (status resolves `resetsAt`). */
  resetsText?: string;
  /** Set for `stuck` after a stall. */
  stall?: StallInfo;
  signals: SignalSummary;
}

/** The coarse status of a session state. */
export function coarseStatus(state: SessionStateName): CoarseStatus {
  switch (state) {
    case "just_started":
    case "in_progress":
      return "active";
    case "waiting_input":
      return "idle";
    case "completed":
      return "done";
    case "crashed":
    case "stuck":
      return "failed";
    case "degraded":
      return "degraded";
    case "not_found":
      return "not_found";
  }
}

/** `alive`, `exited:N`, `crashed:N`, `dead` (status unknown) or `missing`. */
export function paneStatusOf(s: Pick<Signals, "sessionExists" | "pane">): string {
  if (!s.sessionExists || s.pane === null) return "missing";
  const p = s.pane;
  if (!p.dead) return "alive";
  if (p.deadStatus !== null) return p.deadStatus === 0 ? "exited:0" : `crashed:${p.deadStatus}`;
  if (p.deadSignal !== null) return `crashed:${128 + p.deadSignal}`;
  return "dead";
}

/** The session's grace window in seconds: `LISA_GRACE_SECONDS`, else the default. */
function graceOf(s: Signals): number {
  return s.graceSeconds ?? SESSION_GRACE_SECONDS;
}

/** Hook health of a session (see {@link HooksHealth}). Pure. */
export function hooksHealth(s: Signals): HooksHealth {
  if (s.hooks?.active) return "active";
  if (s.hooksInjected !== true) return "off";
  const agent = s.agent?.agent ?? s.expectedAgent;
  const pastGrace = s.sessionAgeSeconds !== null && s.sessionAgeSeconds >= graceOf(s);
  // claude sends SessionStart as it boots; codex only notifies when a turn ends.
  if (agent === "claude" && pastGrace && s.agent !== null) return "silent";
  return "pending";
}

function summarize(
  s: Signals,
  screenRules: ScreenMatch[],
  inGrace: boolean,
  quiet: number | null,
): SignalSummary {
  const cpu = s.agent?.cpu ?? s.command.cpu;
  return {
    paneStatus: paneStatusOf(s),
    sessionAgeSeconds: s.sessionAgeSeconds === null ? null : Math.round(s.sessionAgeSeconds),
    inGrace,
    agentPid: s.agent?.pid ?? null,
    agentCpu: s.agent?.cpu?.percent ?? null,
    cpuWindowMs: cpu ? Math.round(cpu.windowMs) : null,
    busyChildren: s.agent?.busyChildren ?? [],
    commandProcesses: s.agent ? [] : s.command.processes,
    readingTerminal: s.agent === null && s.command.readingTerminal === true,
    screenRules: screenRules.map((m) => m.name),
    outputQuietSeconds: s.screen.quietSeconds === null ? null : Math.round(s.screen.quietSeconds),
    heartbeatAgeSeconds: s.heartbeatAgeSeconds === null
      ? null
      : Math.round(s.heartbeatAgeSeconds * 10) / 10,
    doneExitCode: s.done?.matchesRun ? s.done.exitCode : null,
    hooksActive: s.hooks?.active === true,
    hooksHealth: hooksHealth(s),
    hooks: s.hooks,
    backgroundTasks: s.hooks?.active ? s.hooks.backgroundTasks ?? [] : [],
    progressQuietSeconds: quiet === null ? null : Math.round(quiet),
    lastInputAgeSeconds: s.lastInputAgeSeconds === null
      ? null
      : Math.round(s.lastInputAgeSeconds * 10) / 10,
    failures: s.failures,
  };
}

/** Ends as completed (0) or crashed (anything else, or unknown). */
function exited(code: number | null, reason: string): Omit<Classification, "signals"> {
  const state = code === 0 ? "completed" : "crashed";
  return {
    sessionState: state,
    status: coarseStatus(state),
    classificationReason: reason,
    exitCode: code,
  };
}

function answer(
  state: SessionStateName,
  reason: string,
  waitingFor?: WaitingFor,
): Omit<Classification, "signals"> {
  return {
    sessionState: state,
    status: coarseStatus(state),
    classificationReason: reason,
    ...(waitingFor ? { waitingFor } : {}),
  };
}

/** Progress as the classifier sees it: how long nothing moved, and the evidence looked at. */
interface Progress {
  quietSeconds: number | null;
  evidence: string[];
}

function round(n: number): number {
  return Math.round(n);
}

/**
 * How long the session shows no progress (pure): the youngest of its age, the last screen
 * change, the last hook record, the last input, the last time CPU or a tool child was seen busy;
 * 0 while CPU, a tool child or a command process is busy now. While the newest rows say the
 * agent is retrying an unreachable API, neither its output nor its CPU counts. `evidence`
 * names each signal and what it said.
 */
export function progressOf(
  s: Signals,
  screenRules: readonly ScreenMatch[],
  cpuBusyNow: boolean,
): Progress {
  const evidence: string[] = [];
  const ages: number[] = [];
  // An agent that says it is retrying an unreachable API: its new rows and the CPU of its retry
  // loop (codex: 5–6 % bursts between "Reconnecting..." rows, measured) are not progress.
  const retrying = screenRules.find((m) => m.kind === "retrying");
  const cpu = s.agent?.cpu ?? s.command.cpu;
  const cpuSaid = cpu === null
    ? "cpu: unknown"
    : `cpu: ${cpu.percent}% over ${(cpu.windowMs / 1000).toFixed(1)}s (${
      cpuBusyNow ? "busy" : "idle"
    })`;
  evidence.push(retrying && cpuBusyNow ? `${cpuSaid}, the retry loop's, not progress` : cpuSaid);
  if (cpuBusyNow && !retrying) ages.push(0);
  const children = s.agent ? s.agent.busyChildren : s.command.processes;
  evidence.push(children.length > 0 ? `children: ${children.join(", ")}` : "children: none");
  if (children.length > 0) ages.push(0);
  if (s.agent === null && s.command.stepping === true) {
    evidence.push("command: between two of its commands");
    ages.push(0);
  }
  if (retrying) {
    evidence.push("last busy: not counted while retrying");
  } else if (s.lastBusyAgeSeconds !== undefined && s.lastBusyAgeSeconds !== null) {
    evidence.push(`last busy: ${round(s.lastBusyAgeSeconds)}s ago`);
    ages.push(s.lastBusyAgeSeconds);
  } else evidence.push("last busy: never seen");
  const quiet = s.screen.quietSeconds;
  if (retrying) {
    evidence.push(`output: only retries (${retrying.name}), not progress`);
  } else if (quiet !== null) {
    evidence.push(`output: unchanged ${round(quiet)}s`);
    ages.push(quiet);
  } else evidence.push("output: unknown");
  const hooks = s.hooks?.active ? s.hooks : null;
  if (hooks && hooks.lastEventAgeSeconds !== null) {
    evidence.push(`hook: ${hooks.lastEvent} ${round(hooks.lastEventAgeSeconds)}s ago`);
    ages.push(hooks.lastEventAgeSeconds);
  } else evidence.push("hook: none");
  if (s.lastInputAgeSeconds !== null) {
    evidence.push(`input: sent ${round(s.lastInputAgeSeconds)}s ago`);
    ages.push(s.lastInputAgeSeconds);
  }
  if (s.sessionAgeSeconds !== null) ages.push(s.sessionAgeSeconds);
  return { quietSeconds: ages.length === 0 ? null : Math.min(...ages), evidence };
}

/** Steps 1–2: answers that need no process or screen evidence. */
function terminal(s: Signals): Omit<Classification, "signals"> | null {
  const done = s.done?.matchesRun ? s.done : null;
  if (!s.sessionExists || s.pane === null) {
    return done
      ? exited(done.exitCode, `done_file:${done.exitCode}`)
      : answer("not_found", s.serverGone ? "server_gone" : "session_missing");
  }
  const p = s.pane;
  if (p.dead) {
    if (p.deadStatus !== null) return exited(p.deadStatus, `pane_exited:${p.deadStatus}`);
    if (p.deadSignal !== null) return exited(128 + p.deadSignal, `pane_signaled:${p.deadSignal}`);
    if (done) return exited(done.exitCode, `done_file:${done.exitCode}`);
    return exited(null, "pane_dead_status_unknown");
  }
  if (done) return exited(done.exitCode, `done_file:${done.exitCode}`);
  return null;
}

/** Classifies one session from its signals. Pure. */
export function classify(s: Signals): Classification {
  const e = evidenceOf(s);
  const done = (a: Answer): Classification => finish(e, a);
  // Without tmux's answer nothing is known, not even whether the session exists.
  if (s.failures.includes("tmux")) return done(answer("degraded", "read_failed:tmux"));
  const fixed = terminal(s);
  if (fixed) return done(fixed);
  if (s.failures.length > 0) return done(answer("degraded", `read_failed:${s.failures[0]}`));
  for (const rung of LADDER) {
    const found = rung(e);
    if (found !== null) return done(found);
  }
  return done(commandProcess(e));
}

/** A classification before the signals it used are summarized. */
type Answer = Omit<Classification, "signals">;

/** What the ladder's rungs read (steps 4 to 6 of the module doc), computed once per call. */
interface Evidence {
  s: Signals;
  inGrace: boolean;
  screenRules: ScreenMatch[];
  permission: ScreenMatch | undefined;
  working: ScreenMatch | undefined;
  idle: ScreenMatch | undefined;
  /** The first blocked rule in rule order: limits before credentials before plain errors. */
  blocked: ScreenMatch | undefined;
  busyChild: string | undefined;
  cpuBusy: boolean;
  quiet: number | null;
  /** `LISA_QUIET_SECONDS`: how long an interactive agent must be quiet to wait for input. */
  quietWindow: number;
  /** The screen changes (not only with the session's start-up drawing). */
  changing: boolean;
  inputRecent: boolean;
  /** The hooks' signal when they are active. */
  hooks: HookSignal | null;
  progress: Progress;
}

function evidenceOf(s: Signals): Evidence {
  const inGrace = s.sessionAgeSeconds !== null && s.sessionAgeSeconds < graceOf(s);
  const agentKind = s.agent?.agent ?? s.expectedAgent;
  const rules = agentKind ? rulesFor(agentKind) : null;
  const screenRules = rules
    ? matchScreen(
      rules.rules,
      s.screen.title,
      s.screen.text,
      s.screen.folder,
      s.hooks?.active ? s.hooks.failure ?? "" : "",
    )
    : [];
  const agent = s.agent;
  const cpuBusy = agent !== null && rules !== null &&
    isCpuBusy(agent.cpu, rules.cpu.busyMinPercent);
  const quiet = s.screen.quietSeconds;
  const startupOutput = inGrace && quiet !== null &&
    (s.sessionAgeSeconds ?? 0) - quiet < STARTUP_OUTPUT_SECONDS;
  const quietWindow = s.quietSeconds ?? QUIET_SECONDS;
  return {
    s,
    inGrace,
    screenRules,
    permission: screenRules.find((m) => m.kind === "permission"),
    working: screenRules.find((m) => m.kind === "working"),
    idle: screenRules.find((m) => m.kind === "idle"),
    blocked: screenRules.find((m) => (BLOCKED_KINDS as readonly string[]).includes(m.kind)),
    busyChild: agent?.busyChildren[0],
    cpuBusy,
    quiet,
    quietWindow,
    changing: quiet !== null && quiet < quietWindow && !startupOutput,
    inputRecent: s.lastInputAgeSeconds !== null && s.lastInputAgeSeconds < quietWindow,
    hooks: s.hooks?.active ? s.hooks : null,
    progress: progressOf(
      s,
      screenRules,
      agent !== null ? cpuBusy : isCpuBusy(s.command.cpu, COMMAND_CPU.busyMinPercent),
    ),
  };
}

/**
 * `a` with the signals it used; a working answer with no progress for LISA_STALL_SECONDS is a
 * stall (issue 13), never inside the grace window, whatever the threshold.
 */
function finish(e: Evidence, a: Answer): Classification {
  const stallAfter = e.s.stallSeconds ?? Infinity;
  // A compaction is work however long it stays silent (its end hook says when it is over).
  if (
    a.sessionState === "in_progress" && !e.inGrace && e.progress.quietSeconds !== null &&
    e.progress.quietSeconds >= stallAfter && a.classificationReason !== "hook:compacting"
  ) {
    a = {
      ...answer("stuck", `stalled:${a.classificationReason}`),
      stall: { quietSeconds: round(e.progress.quietSeconds), evidence: e.progress.evidence },
    };
  }
  return {
    ...a,
    signals: summarize(
      e.s,
      e.screenRules,
      e.inGrace && a.sessionState === "just_started",
      e.progress.quietSeconds,
    ),
  };
}

/**
 * Step 4, a pending permission hook: it waits for a person, unless its dialog is gone. Esc at a
 * dialog fires no hook: a permission record old enough for its dialog to have been drawn, with a
 * captured screen that shows none, was dismissed. A visible dialog still wins.
 */
function hookPermission(e: Evidence): Answer | null {
  if (e.hooks?.pending !== "permission") return null;
  const dismissed = e.permission === undefined && e.s.screen.text !== "" &&
    e.hooks.lastEventAgeSeconds !== null &&
    e.hooks.lastEventAgeSeconds >= PERMISSION_RENDER_SECONDS;
  if (!dismissed) return answer("waiting_input", "hook:permission", "permission");
  if (e.s.mode !== "exec" && !e.working && e.busyChild === undefined) {
    return answer("waiting_input", "hook:permission_dismissed", "input");
  }
  return null;
}

/** Step 4, a dialog on screen: a person-facing answer wins when sources disagree. */
function screenPermission(e: Evidence): Answer | null {
  return e.permission ? answer("waiting_input", `screen:${e.permission.name}`, "permission") : null;
}

/** Step 4, an MCP server asks the person for input (claude's Elicitation: a form or a URL). */
function hookElicitation(e: Evidence): Answer | null {
  return e.hooks?.pending === "elicitation"
    ? answer("waiting_input", "hook:elicitation", "input")
    : null;
}

/**
 * Step 4, a limit, a credential or a failing API (screen, or the failed turn's hook): a person
 * must act, unless the agent visibly works again (it retries, or a new turn runs).
 */
function blockedOnPerson(e: Evidence): Answer | null {
  const blocked = e.blocked;
  if (!blocked || e.working || e.busyChild !== undefined || e.inputRecent) return null;
  return {
    ...answer("waiting_input", `${blocked.source}:${blocked.name}`, blocked.kind as BlockedKind),
    ...(blocked.resets ? { resetsText: blocked.resets } : {}),
  };
}

/**
 * Step 4, a finished turn whose work runs on (a background Bash, a subagent): the agent reports
 * it with a turn of its own, so it is not done until a later Stop lists none.
 */
function hookBackgroundTasks(e: Evidence): Answer | null {
  if (e.hooks?.pending !== "turn_done" || (e.hooks.backgroundTasks?.length ?? 0) === 0) {
    return null;
  }
  return answer("in_progress", "hook:background_tasks");
}

/**
 * Step 4, a finished turn: a wait for input unless input came after it or work shows. An exec
 * agent ends its only turn and exits: a finished turn there is not a wait for input.
 */
function hookTurnDone(e: Evidence): Answer | null {
  if (e.hooks?.pending !== "turn_done" || e.s.mode === "exec") return null;
  const inputAfter = e.s.lastInputAgeSeconds !== null && e.hooks.lastEventAgeSeconds !== null &&
    e.s.lastInputAgeSeconds < e.hooks.lastEventAgeSeconds;
  if (inputAfter || e.working || e.busyChild !== undefined) return null;
  return answer("waiting_input", "hook:turn_done", "input");
}

/**
 * A silent end: the hook says running (or compacting), but the agent sits at its idle prompt with
 * no CPU, no output change and no tool child for a few seconds (a turn that ended without a Stop
 * hook, an Esc). The screen wins, and the reason names the disagreement.
 */
function silentEnd(e: Evidence): boolean {
  return e.s.mode !== "exec" && e.idle !== undefined && !e.working &&
    e.busyChild === undefined && !e.cpuBusy && !e.inputRecent && e.quiet !== null &&
    e.quiet >= e.quietWindow && !e.inGrace;
}

/**
 * Step 4, a compaction (PreCompact, no PostCompact yet): work, never a stall, unless it ended
 * silently.
 */
function hookCompacting(e: Evidence): Answer | null {
  if (e.hooks?.pending !== "compacting") return null;
  return silentEnd(e)
    ? answer("waiting_input", `hook_compacting_but_idle:${e.idle!.name}`, "input")
    : answer("in_progress", "hook:compacting");
}

/** Step 4, a running turn: working while recent or confirmed by activity ({@link silentEnd}). */
function hookTurnRunning(e: Evidence): Answer | null {
  if (e.hooks?.pending !== "turn_running") return null;
  const recent = e.hooks.lastEventAgeSeconds !== null &&
    e.hooks.lastEventAgeSeconds < HOOK_RUNNING_FRESH_SECONDS;
  if (silentEnd(e)) {
    return answer("waiting_input", `hook_running_but_idle:${e.idle!.name}`, "input");
  }
  if (recent || e.working || e.busyChild !== undefined || e.cpuBusy || e.changing) {
    return answer("in_progress", "hook:turn_running");
  }
  return null;
}

/** Step 4, a working spinner (or `esc to interrupt`) on screen. */
function screenWorking(e: Evidence): Answer | null {
  return e.working ? answer("in_progress", `screen:${e.working.name}`) : null;
}

/** Step 5, the agent process: busy evidence wins even inside the grace window. */
function agentProcess(e: Evidence): Answer | null {
  if (e.s.agent === null) return null;
  const interactive = e.s.mode !== "exec";
  if (e.inputRecent) return answer("in_progress", "input_sent_recently");
  // The agent's own idle screen is surer than CPU or children, inside the grace window too.
  if (interactive && e.idle) {
    return e.inGrace
      ? answer("just_started", "grace_period")
      : answer("waiting_input", `screen:${e.idle.name}`, "input");
  }
  if (e.busyChild !== undefined) return answer("in_progress", `agent_child_busy:${e.busyChild}`);
  if (e.cpuBusy) return answer("in_progress", "agent_cpu_busy");
  if (e.changing) return answer("in_progress", "agent_output_changing");
  if (e.inGrace) return answer("just_started", "grace_period");
  if (interactive) {
    const why = e.hooks?.pending === "turn_running" ? "hook_running_but_quiet" : "agent_quiet";
    return answer("waiting_input", why, "input");
  }
  return answer("in_progress", "agent_alive_quiet");
}

/** Step 6, no agent process: the command in the pane, its CPU and its screen. */
function commandProcess(e: Evidence): Answer {
  const commandCpuBusy = isCpuBusy(e.s.command.cpu, COMMAND_CPU.busyMinPercent);
  // Blocked reading the terminal (a `read` prompt, `cat`, a REPL), nothing else at work and the
  // screen settled: the command waits for a person, it is neither working nor stuck.
  if (e.s.command.readingTerminal === true && !commandCpuBusy && !e.changing) {
    return e.inGrace
      ? answer("just_started", "grace_period")
      : answer("waiting_input", "command_reading_terminal", "input");
  }
  const proc = e.s.command.processes[0];
  if (proc !== undefined) return answer("in_progress", `command_running:${proc}`);
  if (commandCpuBusy) return answer("in_progress", "command_cpu_busy");
  // A command of shell builtins only (an echo loop) still shows its work on the screen.
  if (e.changing) return answer("in_progress", "command_output_changing");
  if (e.inGrace) return answer("just_started", "grace_period");
  // A script between two commands shows no process for a moment: it moves, it is not stuck.
  // (Inside the grace window its starting shell runs like that too: that is just_started.)
  if (e.s.command.stepping === true) return answer("in_progress", "command_between_steps");
  return answer("stuck", "no_active_process");
}

/** Steps 4 and 5 in order (the module doc): the first rung with an answer decides. */
const LADDER: readonly ((e: Evidence) => Answer | null)[] = [
  hookPermission,
  screenPermission,
  hookElicitation,
  blockedOnPerson,
  hookBackgroundTasks,
  hookTurnDone,
  hookCompacting,
  hookTurnRunning,
  screenWorking,
  agentProcess,
];

/**
 * Turns a classification into `degraded` (non-terminal, retried) because of an infrastructure
 * failure such as a busy state lock. Terminal answers from tmux or the done file stand: they do
 * not depend on the failed read.
 */
export function degrade(c: Classification, reason: string): Classification {
  if (
    c.sessionState === "completed" || c.sessionState === "crashed" || c.sessionState === "not_found"
  ) {
    return c;
  }
  return {
    sessionState: "degraded",
    status: "degraded",
    classificationReason: reason,
    signals: { ...c.signals, failures: [...c.signals.failures, reason] },
  };
}
