/**
 * Gathering what `status` classifies: one chained tmux invocation (the pane's capture, then its
 * facts), the pane's process subtree from `/proc` (`ps` only where `/proc` is absent), CPU
 * readings, the done file and the heartbeat's age. The pure helpers here are unit-tested; the
 * rest is thin I/O.
 */
import type { Runner } from "../../base/runner.ts";
import { type ProcInfo, psListing, readStat, subtree } from "../../proc/table.ts";
import {
  formatOf,
  isMissingTarget,
  isNoServer,
  type PaneIds,
  paneTarget,
  parseFormat,
  type Tmux,
} from "../../tmux/tmux.ts";
import {
  descendantsOf,
  type ExtraMatchNames,
  findAgent,
  type FoundAgent,
} from "../../agents/match.ts";
import { LisaError } from "../../base/errors.ts";
import type { Agent } from "../../base/types.ts";
import type { CpuSample } from "../../base/types.ts";

/** The done file: `{runId}:{exitCode}` (`store/done_file.ts`). */
export { parseDoneFile } from "../../store/done_file.ts";

/** History rows captured by status (also the size of the output file written at the end). */
export const STATUS_CAPTURE_LINES = 260;

/** Pane facts status reads; `pane_title` is last so a separator inside it cannot shift others. */
export const STATUS_PANE_FIELDS = [
  "pane_dead",
  "pane_dead_status",
  "pane_dead_signal",
  "pane_pid",
  "pid",
  "session_created",
  // Last output to the window (whole seconds; one pane per lisa session): the screen's freshness.
  "window_activity",
  "pane_height",
  "cursor_y",
  "history_size",
  "history_limit",
  // The alternate screen (a pager, an editor) is on: capture offsets keep the normal screen.
  "alternate_on",
  "pane_current_command",
  // Checked against the session asked for: `display-message` answers a missing target with
  // empty fields instead of failing (tmux 3.3a), so a row naming no session is no pane.
  "session_name",
  "pane_title",
] as const;

/**
 * argv[0] of the wrapper's heartbeat process (`HEARTBEAT_ARGV0` of `spawn/startup_script.ts`, not
 * imported so status does not load the script builder; a unit test keeps the two equal).
 */
export const HEARTBEAT_PROCESS_NAME = "lisa-heartbeat";

/** Shells: they run the wrapper and tool calls but are never work by themselves. */
export const SHELL_NAMES: ReadonlySet<string> = new Set([
  "bash",
  "sh",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "fish",
  "tcsh",
  "csh",
  "busybox",
]);

/** What tmux said about the pane. */
export interface PaneProbe {
  /** False when tmux has no such session (or no server at all). */
  exists: boolean;
  /** True when no tmux server answers on the socket at all (killed, crashed, never started). */
  serverGone: boolean;
  dead: boolean;
  deadStatus: number | null;
  deadSignal: number | null;
  panePid: number | null;
  serverPid: number | null;
  /** tmux's session_created (epoch seconds), null when unknown. */
  createdAtSeconds: number | null;
  /**
   * tmux's window_activity (epoch seconds): when the pane last printed anything, whatever the
   * `monitor-activity` option; null when unknown.
   */
  lastOutputSeconds: number | null;
  height: number;
  /** Cursor row on the screen, and tmux's history size and limit (for capture offsets). */
  cursorY: number;
  historySize: number;
  historyLimit: number;
  /** The pane shows its alternate screen. */
  alternateOn: boolean;
  currentCommand: string;
  title: string;
  /** Raw `capture-pane -p -J` output (history rows then the screen). */
  rawCapture: string;
}

/**
 * The commands of the one tmux invocation of a status call on the session's pane (`ids` from
 * its meta, {@link paneTarget}): capture first (`captureLines` rows of history, `Infinity` for
 * all of it), facts last. The capture fails on a target that does not resolve, so the facts
 * (whose `display-message` would answer with some other pane) never come from another pane.
 */
export function statusTmuxCommands(
  session: string,
  captureLines: number,
  ids: PaneIds | undefined,
): string[][] {
  const start = Number.isFinite(captureLines) ? `-${captureLines}` : "-";
  const target = paneTarget(session, ids);
  return [
    ["capture-pane", "-p", "-J", "-t", target, "-S", start],
    ["display-message", "-p", "-t", target, formatOf(STATUS_PANE_FIELDS)],
  ];
}

function intOrNull(text: string | undefined): number | null {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

/** The probe of a session tmux does not have (`serverGone`: because no server runs). */
export function missingProbe(serverGone = false): PaneProbe {
  return {
    exists: false,
    serverGone,
    dead: false,
    deadStatus: null,
    deadSignal: null,
    panePid: null,
    serverPid: null,
    createdAtSeconds: null,
    lastOutputSeconds: null,
    height: 0,
    cursorY: 0,
    historySize: 0,
    historyLimit: 0,
    alternateOn: false,
    currentCommand: "",
    title: "",
    rawCapture: "",
  };
}

/**
 * Parses the result of {@link statusTmuxCommands} for `session`. A missing session, or a facts
 * row that does not name `session`, gives `exists: false`, a missing server also
 * `serverGone: true`; any other tmux failure throws `tmux_failed`.
 */
export function parseProbe(
  res: { success: boolean; code: number; stdout: string; stderr: string },
  session: string,
): PaneProbe {
  if (!res.success) {
    if (isNoServer(res.stderr)) return missingProbe(true);
    if (isMissingTarget(res.stderr)) return missingProbe();
    throw new LisaError("tmux_failed", `tmux failed: ${res.stderr.trim() || `exit ${res.code}`}`);
  }
  const body = res.stdout.endsWith("\n") ? res.stdout.slice(0, -1) : res.stdout;
  const cut = body.lastIndexOf("\n");
  const row = parseFormat(body.slice(cut + 1), STATUS_PANE_FIELDS)[0];
  if (row === undefined || row.session_name !== session) return missingProbe();
  return {
    exists: true,
    serverGone: false,
    dead: row.pane_dead === "1",
    deadStatus: intOrNull(row.pane_dead_status),
    deadSignal: intOrNull(row.pane_dead_signal),
    panePid: intOrNull(row.pane_pid),
    serverPid: intOrNull(row.pid),
    createdAtSeconds: intOrNull(row.session_created),
    lastOutputSeconds: intOrNull(row.window_activity),
    height: intOrNull(row.pane_height) ?? 0,
    cursorY: intOrNull(row.cursor_y) ?? 0,
    historySize: intOrNull(row.history_size) ?? 0,
    historyLimit: intOrNull(row.history_limit) ?? 0,
    alternateOn: row.alternate_on === "1",
    currentCommand: row.pane_current_command,
    title: row.pane_title,
    rawCapture: cut < 0 ? "" : body.slice(0, cut + 1),
  };
}

/** Runs the one tmux invocation of a status call on the session's pane and parses it. */
export async function probePane(
  tmux: Tmux,
  session: string,
  captureLines: number,
  ids: PaneIds | undefined,
): Promise<PaneProbe> {
  return parseProbe(await tmux.run(statusTmuxCommands(session, captureLines, ids)), session);
}

/** The visible rows of a raw capture: its last `height` rows (all when height is unknown). */
export function visibleScreen(rawCapture: string, height: number): string {
  const rows = rawCapture.endsWith("\n")
    ? rawCapture.slice(0, -1).split("\n")
    : rawCapture.split("\n");
  return (height > 0 ? rows.slice(-height) : rows).map((r) => r.trimEnd()).join("\n").trimEnd();
}

/** A cheap 32-bit FNV-1a hash of `text` as 8 hex digits (screen change detection only). */
export function screenHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** The pane's processes as status sees them. */
export interface ProcessView {
  found: FoundAgent | null;
  /** Busy descendants of the agent (executable names, outermost first). */
  busyChildren: string[];
  /** Without an agent: non-shell processes of the pane other than the wrapper and heartbeat. */
  commandProcesses: string[];
  /**
   * Without an agent: the command moves from one of its commands to the next (see
   * {@link isStepping}); false with an agent.
   */
  commandStepping: boolean;
  /** Processes whose CPU is sampled: the agent family, else the pane's processes below the root. */
  sampled: ProcInfo[];
}

/** Drops the wrapper's heartbeat process (argv[0] `lisa-heartbeat`) and its children. */
export function withoutHeartbeat(procs: readonly ProcInfo[]): ProcInfo[] {
  const drop = new Set<number>();
  for (const p of procs) {
    if (p.argv[0] === HEARTBEAT_PROCESS_NAME) {
      drop.add(p.pid);
      for (const d of descendantsOf(p.pid, procs)) drop.add(d.pid);
    }
  }
  return procs.filter((p) => !drop.has(p.pid));
}

/**
 * The wrapper's own housekeeping: the `rm -f -- "$0"` by which the startup script deletes itself
 * in its first milliseconds (a child of the pane's root naming the root's script file, or with
 * no argv left while it exits). It is not the session's work, and inside the grace window it
 * would read as a running command.
 */
export function isWrapperHousekeeping(p: ProcInfo, root: ProcInfo | undefined): boolean {
  if (root === undefined || p.ppid !== root.pid || p.name !== "rm") return false;
  return p.argv.length === 0 || (root.argv.length >= 2 && p.argv.at(-1) === root.argv[1]);
}

/**
 * Drops what the wrapper (`rootPid`) adopted as a child subreaper (`spawn/startup_script.ts`):
 * daemons that double-forked away from the command, a tmux server a nested spawn started, and
 * everything below them. While the command runs the wrapper's own children are only the
 * heartbeat and the command, and every adopted process descends from the command, so it
 * started later: the command is the wrapper's oldest child that is not the heartbeat. Status
 * then reads the command's subtree as it did before the wrapper was a subreaper, and a daemon
 * (even a `codex app-server`) is never taken for the agent. A list without `rootPid` (an agent
 * subtree) is returned as is.
 */
export function withoutAdopted(procs: readonly ProcInfo[], rootPid: number | null): ProcInfo[] {
  if (rootPid === null || !procs.some((p) => p.pid === rootPid)) return [...procs];
  const kids = procs.filter((p) => p.ppid === rootPid && p.pid !== rootPid);
  const others = kids.filter((p) => p.argv[0] !== HEARTBEAT_PROCESS_NAME);
  const oldest = others.reduce<ProcInfo | null>(
    (best, p) =>
      best === null || p.startTime < best.startTime ||
        (p.startTime === best.startTime && p.pid < best.pid)
        ? p
        : best,
    null,
  );
  const drop = new Set<number>();
  for (const p of others) {
    if (p === oldest) continue;
    drop.add(p.pid);
    for (const d of descendantsOf(p.pid, procs)) drop.add(d.pid);
  }
  return procs.filter((p) => !drop.has(p.pid));
}

function isWork(p: ProcInfo, idleHelpers: readonly string[]): boolean {
  if (p.state === "Z" || p.state === "X") return false;
  const name = p.name.toLowerCase();
  if (idleHelpers.includes(name)) return false;
  // A shell counts only while it runs itself (a busy loop); its children count on their own.
  if (SHELL_NAMES.has(name)) return p.state === "R";
  return true;
}

/**
 * Reads the pane's processes (`procs`: the pane subtree, root first; what the wrapper adopted
 * is left out, see {@link withoutAdopted}) into agent, busy children and command processes. Busy children are the agent's descendants that are not of its own
 * family, not zombies, not listed idle helpers and not idle shells; `sleep` and `cat` count
 * (DESIGN §9 defect 4). Pure.
 */
export function inspectProcesses(
  procs: readonly ProcInfo[],
  rootPid: number | null,
  extra: ExtraMatchNames,
  prefer: Agent | null,
  idleHelpersOf: (agent: Agent) => readonly string[],
): ProcessView {
  const root = procs.find((p) => p.pid === rootPid);
  const live = withoutHeartbeat(withoutAdopted(procs, rootPid))
    .filter((p) => !isWrapperHousekeeping(p, root));
  const found = findAgent(live, extra, prefer);
  if (found !== null) {
    const family = new Set(found.family.map((p) => p.pid));
    const helpers = idleHelpersOf(found.agent);
    const busyChildren = descendantsOf(found.proc.pid, live)
      .filter((p) => !family.has(p.pid) && isWork(p, helpers))
      .map((p) => p.name);
    return {
      found,
      busyChildren,
      commandProcesses: [],
      commandStepping: false,
      sampled: found.family,
    };
  }
  const below = live.filter((p) => p.pid !== rootPid);
  const commandProcesses = below
    .filter((p) => isWork(p, []) && !SHELL_NAMES.has(p.name.toLowerCase()))
    .map((p) => p.name);
  // The pane's root is lisa's wrapper: the session's command always runs as its child, so the
  // root's own CPU (its start-up, seconds before any command runs) is never the session's work.
  const sampled = below.filter((p) => p.state !== "Z" && p.state !== "X");
  return {
    found: null,
    busyChildren: [],
    commandProcesses,
    commandStepping: isStepping(below),
    sampled,
  };
}

/**
 * True when a script moves between two of its commands (`procs`: the command's processes, the
 * wrapper and heartbeat left out): one of its shells runs (it forks the next command, or its
 * child has not exec'd yet) or a command of it has ended and waits to be reaped. A script
 * spends a moment like that between any two commands, with no other process to show; a shell
 * blocked for good (opening a FIFO nobody writes) sleeps with no such child. Pure.
 */
export function isStepping(procs: readonly ProcInfo[]): boolean {
  return procs.some((p) =>
    p.state === "Z" || (p.state === "R" && SHELL_NAMES.has(p.name.toLowerCase()))
  );
}

/** A process at a moment: who it is and how often it has been switched in so far. */
export interface ProcMark {
  pid: number;
  startTime: number;
  /** Context switches so far (voluntary and not); null when unreadable. */
  switches: number | null;
}

/**
 * True when the command's processes moved between two looks (`before`, `after`): a process came
 * or went, or one was switched in since (a shell waiting for its commands wakes as each ends;
 * one blocked for good is never switched in). Pure.
 */
export function movedBetween(before: readonly ProcMark[], after: readonly ProcMark[]): boolean {
  const key = (m: ProcMark) => `${m.pid}:${m.startTime}`;
  const earlier = new Map(before.map((m) => [key(m), m.switches]));
  if (earlier.size !== after.length) return true;
  return after.some((m) => {
    if (!earlier.has(key(m))) return true;
    const was = earlier.get(key(m));
    return was !== null && was !== undefined && m.switches !== null && m.switches !== was;
  });
}

/** Subtree of `rootPid` from a full listing (the `ps` fallback). */
function subtreeOfListing(listing: readonly ProcInfo[], rootPid: number): ProcInfo[] {
  const root = listing.find((p) => p.pid === rootPid);
  return root === undefined ? [] : [root, ...descendantsOf(rootPid, listing)];
}

/**
 * The subtree of the agent found by an earlier poll, when that process still runs (same pid and
 * start time, not a zombie): a rescan of the pane is then unnecessary. `/proc` only; null when
 * there is no usable hint. Never a full process-table scan.
 */
export function readHintedAgent(
  hint: { pid: number | null; startTime: number | null },
): ProcInfo[] | null {
  if (hint.pid === null || hint.startTime === null) return null;
  const procs = subtree(hint.pid);
  const root = procs[0];
  if (root === undefined || root.startTime !== hint.startTime || root.state === "Z") return null;
  return procs;
}

/**
 * The pane's processes: its subtree from `/proc` (no full scan), or without `/proc` (macOS) the
 * subtree cut from one `ps` listing.
 */
export async function readPaneProcesses(
  panePid: number,
  procFs: boolean,
  runner: Runner,
): Promise<ProcInfo[]> {
  if (!procFs) return subtreeOfListing(await psListing(runner), panePid);
  return subtree(panePid);
}

/**
 * CPU samples of `procs` at `atMs`: re-read from `/proc` when `reread` (and available), else the
 * ticks the listing already holds (it was read a moment ago).
 */
export function sampleCpu(procs: readonly ProcInfo[], atMs: number, reread: boolean): CpuSample[] {
  const out: CpuSample[] = [];
  for (const p of procs) {
    const stat = reread ? readStat(p.pid) : p;
    if (stat === null || stat.startTime !== p.startTime) continue;
    out.push({ pid: p.pid, startTime: p.startTime, ticks: stat.ticks, atMs });
  }
  return out;
}

/** Seconds since `path` was last modified; null when it does not exist. */
export function fileAgeSeconds(path: string, nowMs: number): number | null {
  try {
    const mtime = Deno.lstatSync(path).mtime;
    return mtime ? Math.max(0, (nowMs - mtime.getTime()) / 1000) : null;
  } catch {
    return null;
  }
}
