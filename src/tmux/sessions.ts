/**
 * Session-level tmux operations used by spawn, send, list, exists and kill. Each is one tmux
 * invocation (commands chained with `;` when several facts or steps are needed), always on the
 * project's socket through {@link Tmux}. Failures other than "no server" / "no such session"
 * throw `command_failed` with tmux's message.
 */
import { CommandFailedError } from "../base/errors.ts";
import type { Runner, RunResult } from "../base/runner.ts";
import {
  commandString,
  escapeFormat,
  formatOf,
  hasPaneIds,
  isMissingTarget,
  isNoServer,
  type PaneIds,
  parseFormat,
  sessionTarget,
  Tmux,
} from "./tmux.ts";

/** Options of {@link newSessionCommands}. */
export interface NewSessionSpec {
  session: string;
  width: number;
  height: number;
  cwd: string;
  /** Session environment (`-e NAME=VALUE`, shown by `show-environment`). */
  env: Readonly<Record<string, string>>;
  /** The pane's program and arguments (run directly by tmux, no shell). */
  argv: readonly string[];
}

/**
 * The `pane-died` hook lisa's servers run (hook index {@link PANE_DIED_HOOK_INDEX}, so a
 * user's own hook at index 0 stays): a pane whose command ended takes no more input
 * (`select-pane -d`). tmux 3.3a crashes, ending every session of the server, when anything
 * pastes into a dead pane kept by `remain-on-exit` (`paste-buffer` writes to the closed pty's
 * event without checking it), but skips a pane whose input is off. lisa's own writes check the
 * pane in the same tmux invocation ({@link pasteText}); this covers everyone else: a person's
 * attached client pasting with `prefix ]`, another tool. tmux runs the hook from its global
 * queue, which it drains before any client's commands, so a paste that follows the death
 * finds the input already off.
 */
export const PANE_DIED_HOOK = "select-pane -d -t #{hook_pane}";
/** Index of {@link PANE_DIED_HOOK} in the server's `pane-died` hook array. */
export const PANE_DIED_HOOK_INDEX = 47;

/** What `new-session` prints (`-P -F`): the ids of the window and pane it created. */
export const NEW_PANE_FORMAT = "#{window_id} #{pane_id}";

/**
 * The chained commands that create a session: server options first (so a command that exits
 * at once is still kept by `remain-on-exit`, and a dead pane takes no input,
 * {@link PANE_DIED_HOOK}), then `new-session -d`, which prints {@link NEW_PANE_FORMAT}
 * (read back with {@link parseNewPane}).
 */
export function newSessionCommands(spec: NewSessionSpec): string[][] {
  const env = Object.entries(spec.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  return [
    ["set-option", "-g", "remain-on-exit", "on"],
    ["set-option", "-g", "history-limit", "50000"],
    ["set-hook", "-g", `pane-died[${PANE_DIED_HOOK_INDEX}]`, PANE_DIED_HOOK],
    [
      "new-session",
      "-d",
      "-P",
      "-F",
      NEW_PANE_FORMAT,
      "-s",
      spec.session,
      "-x",
      String(spec.width),
      "-y",
      String(spec.height),
      "-c",
      // tmux expands formats in -c: a `#(…)` in a directory name must not run.
      escapeFormat(spec.cwd),
      ...env,
      "--",
      ...spec.argv,
    ],
  ];
}

/** The window and pane ids in the output of {@link newSessionCommands}; {} when absent. */
export function parseNewPane(stdout: string): PaneIds {
  const m = /^(@\d+) (%\d+)$/m.exec(stdout);
  return m === null ? {} : { windowId: m[1], paneId: m[2] };
}

/** True when tmux refused `new-session` because the name is taken. */
export function isDuplicateSession(stderr: string): boolean {
  return /duplicate session/i.test(stderr);
}

function fail(tmux: Tmux, commands: string[][], result: RunResult): never {
  throw new CommandFailedError(tmux.argv(commands), result);
}

/** True when `session` exists on this server (false when no server runs). */
export async function hasSession(tmux: Tmux, session: string): Promise<boolean> {
  const commands = [["has-session", "-t", sessionTarget(session)]];
  const r = await tmux.run(commands);
  if (r.success) return true;
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return false;
  return fail(tmux, commands, r);
}

/** One pane's facts in a {@link SessionRow}. */
export interface PaneRow {
  windowId: string;
  paneId: string;
  panePid: number;
  paneDead: boolean;
  /** Exit status of a dead pane; null while alive or when tmux has not reported it yet. */
  paneDeadStatus: number | null;
}

/** One session with its panes; the pane facts at the top are its first pane's. */
export interface SessionRow {
  session: string;
  /** Unix seconds. */
  createdAt: number;
  panePid: number;
  paneDead: boolean;
  /** Exit status of a dead pane; null while alive or when tmux has not reported it yet. */
  paneDeadStatus: number | null;
  /** Every pane of the session. */
  panes: PaneRow[];
}

const PANE_ROW_FIELDS = [
  "session_created",
  "window_index",
  "window_id",
  "pane_id",
  "pane_at_top",
  "pane_at_left",
  "pane_pid",
  "pane_dead",
  "pane_dead_status",
  // Last: a session name cannot hold the separator, but the last field takes any rest anyway.
  "session_name",
] as const;

/**
 * Every session on this server with its panes; [] when no server runs. One tmux call
 * (`list-panes -a`). The facts at the top of a row are the session's first pane's (first
 * window, top-left: what a target without ids resolves to); {@link paneRowOf} picks the pane
 * lisa created.
 */
export async function listSessions(tmux: Tmux): Promise<SessionRow[]> {
  const commands = [["list-panes", "-a", "-F", formatOf(PANE_ROW_FIELDS)]];
  const r = await tmux.run(commands);
  if (!r.success) {
    if (isNoServer(r.stderr)) return [];
    return fail(tmux, commands, r);
  }
  const rows = new Map<string, { row: SessionRow; first: [number, boolean] }>();
  for (const f of parseFormat(r.stdout, PANE_ROW_FIELDS)) {
    const pane: PaneRow = {
      windowId: f.window_id,
      paneId: f.pane_id,
      panePid: Number(f.pane_pid),
      paneDead: f.pane_dead === "1",
      paneDeadStatus: f.pane_dead_status === "" ? null : Number(f.pane_dead_status),
    };
    // tmux's first pane of a session: lowest window index, then the top-left pane.
    const first: [number, boolean] = [
      Number(f.window_index),
      f.pane_at_top === "1" && f.pane_at_left === "1",
    ];
    const facts = {
      panePid: pane.panePid,
      paneDead: pane.paneDead,
      paneDeadStatus: pane.paneDeadStatus,
    };
    const seen = rows.get(f.session_name);
    if (seen === undefined) {
      const row = { session: f.session_name, createdAt: Number(f.session_created), ...facts };
      rows.set(f.session_name, { row: { ...row, panes: [pane] }, first });
      continue;
    }
    seen.row.panes.push(pane);
    if (first[0] < seen.first[0] || (first[0] === seen.first[0] && first[1] && !seen.first[1])) {
      Object.assign(seen.row, facts);
      seen.first = first;
    }
  }
  return [...rows.values()].map((s) => s.row);
}

/**
 * The facts of the pane lisa created for a session (`ids` from its meta, the pane found by its
 * id in whichever window of the session it is now; the row's first pane without them); a pane
 * that is gone reads as dead with no status.
 */
export function paneRowOf(
  row: SessionRow,
  ids: PaneIds | null | undefined,
): Pick<PaneRow, "panePid" | "paneDead" | "paneDeadStatus"> {
  if (!hasPaneIds(ids)) return row;
  const pane = row.panes.find((p) => p.paneId === ids.paneId);
  return pane ?? { panePid: 0, paneDead: true, paneDeadStatus: null };
}

/** One pane of a session. */
export interface PaneFacts {
  /** The pane's process (its wrapper); for a dead pane the pid it had, maybe reused since. */
  pid: number;
  dead: boolean;
  /** The signal that ended a dead pane's process; null when it exited (or still runs). */
  deadSignal: number | null;
}

/** The pids of a session's panes and of the tmux server. */
export interface SessionPids {
  /** Pids of the panes whose process still runs (a dead pane's pid may belong to anyone now). */
  panePids: number[];
  /** Every pane, dead ones included. */
  panes: PaneFacts[];
  serverPid: number | null;
}

/** The panes of `session`; null when the session (or server) does not exist. */
export async function sessionPanePids(tmux: Tmux, session: string): Promise<SessionPids | null> {
  const fields = ["pid", "pane_pid", "pane_dead", "pane_dead_signal"] as const;
  const commands = [["list-panes", "-s", "-t", sessionTarget(session), "-F", formatOf(fields)]];
  const r = await tmux.run(commands);
  if (!r.success) {
    if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return null;
    return fail(tmux, commands, r);
  }
  const rows = parseFormat(r.stdout, fields);
  const panes = rows.map((row) => ({
    pid: Number(row.pane_pid),
    dead: row.pane_dead === "1",
    deadSignal: /^\d+$/.test(row.pane_dead_signal) ? Number(row.pane_dead_signal) : null,
  })).filter((p) => p.pid > 0);
  return {
    panePids: panes.filter((p) => !p.dead).map((p) => p.pid),
    panes,
    serverPid: rows.length > 0 ? Number(rows[0].pid) : null,
  };
}

/**
 * Whether the pane at `target` ({@link paneTarget}) is dead; null when it, its session or the
 * server is gone. `has-session` resolves the whole target strictly first: `display-message`
 * alone would answer a target that does not resolve with some other pane's facts.
 */
export async function paneDead(tmux: Tmux, target: string): Promise<boolean | null> {
  const commands = [
    ["has-session", "-t", target],
    ["display-message", "-p", "-t", target, "#{pane_dead}"],
  ];
  const r = await tmux.run(commands);
  if (r.success) return r.stdout.trim() === "1";
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return null;
  return fail(tmux, commands, r);
}

/** Kills `session`; returns false when it (or the server) was already gone. */
export async function killSession(tmux: Tmux, session: string): Promise<boolean> {
  const commands = [["kill-session", "-t", sessionTarget(session)]];
  const r = await tmux.run(commands);
  if (r.success) return true;
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return false;
  return fail(tmux, commands, r);
}

/**
 * The session option `kill` sets before it signals anything. Between its SIGTERM and its
 * `kill-session` the pane reads dead by signal; a waiter that sees the mark knows the session
 * is being killed, not that its agent crashed. It goes with the session.
 */
export const KILLING_OPTION = "@lisa-killing";

/** Marks `session` as being killed ({@link KILLING_OPTION}); false when it is already gone. */
export async function markKilling(tmux: Tmux, session: string): Promise<boolean> {
  const commands = [["set-option", "-t", sessionTarget(session), KILLING_OPTION, "1"]];
  const r = await tmux.run(commands);
  if (r.success) return true;
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return false;
  return fail(tmux, commands, r);
}

/**
 * Whether a kill of `session` is under way ({@link markKilling}); null when the session or its
 * server is gone.
 */
export async function beingKilled(tmux: Tmux, session: string): Promise<boolean | null> {
  const target = sessionTarget(session);
  // `has-session` first: show-options -q says nothing for a missing target either.
  const commands = [["has-session", "-t", target], [
    "show-options",
    "-qv",
    "-t",
    target,
    KILLING_OPTION,
  ]];
  const r = await tmux.run(commands);
  if (r.success) return r.stdout.trim() === "1";
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return null;
  return fail(tmux, commands, r);
}

/** A paste buffer name nobody else uses. */
function bufferName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `lisa-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * What a write into a pane did: `sent`; `absent` when the pane, its session or the server is
 * gone; `dead` when the pane's command has ended (tmux keeps it with `remain-on-exit`) and
 * nothing was written; `input_off` when the pane lives but its input is turned off
 * (`select-pane -d`: tmux would drop the write silently) and nothing was written.
 */
export type PaneWrite = "sent" | "absent" | "dead" | "input_off";

/** Printed by the refusing branch of {@link writeToPane} for a dead pane; nothing else prints. */
export const PANE_DEAD_MARK = "__LISA_PANE_DEAD__";
/** Printed by the refusing branch of {@link writeToPane} for a live pane whose input is off. */
export const PANE_INPUT_OFF_MARK = "__LISA_PANE_INPUT_OFF__";

/** The condition of {@link writeToPane}'s refusing branch: a dead pane, or input turned off. */
const REFUSE_CONDITION = "#{||:#{pane_dead},#{pane_input_off}}";

/** Options of {@link writeToPane}. */
interface WriteSpec {
  /** Commands run first in the same invocation (not guarded: they must not touch the pane). */
  before?: string[][];
  /** Commands the refusing branch runs before it reports (cleanup of what `before` made). */
  onRefused?: string[][];
  stdin?: string;
}

/**
 * THE way lisa writes into a pane: every paste and key goes through here. tmux decides, in the
 * same invocation and right before the write, whether the pane is dead or its input is off:
 * `if-shell -F -t TARGET '#{||:#{pane_dead},#{pane_input_off}}' REFUSE-BRANCH WRITE-BRANCH`,
 * the refusing branch printing which it was (dead first: lisa's `pane-died` hook turns a dead
 * pane's input off too). tmux drops a write into a pane whose input is off without a word, so
 * such a write would answer `sent` having delivered nothing. With `-F`, tmux 3.3a expands
 * the condition on the target pane and queues the chosen branch right after the if-shell
 * (`cmd-if-shell.c`: no shell, no wait), and its command queue runs both before it returns to
 * its event loop, which is the only place a pane can die (tmux learns of it from the pty's EOF
 * and SIGCHLD there). So no death can fall between the check and the write. A target that does
 * not resolve leaves `#{pane_dead}` empty and the write branch fails on the same exact target:
 * `absent`, nothing written anywhere. The write branch first ends any mode the pane is in
 * (`copy-mode -q`): keys meant for the agent must reach the agent.
 */
async function writeToPane(
  tmux: Tmux,
  target: string,
  write: string[][],
  spec: WriteSpec = {},
): Promise<PaneWrite> {
  const refuse = [
    ...(spec.onRefused ?? []),
    [
      "display-message",
      "-p",
      "-t",
      target,
      `#{?pane_dead,${PANE_DEAD_MARK},${PANE_INPUT_OFF_MARK}}`,
    ],
  ];
  // A pane a person left in copy mode (scrolled back) or another mode would take the keys as
  // its own commands (Enter copies and leaves it) and the agent would get nothing: `-q` ends
  // every mode, and does nothing to a pane in none.
  const live = [["copy-mode", "-q", "-t", target], ...write];
  const commands = [
    ...(spec.before ?? []),
    ["if-shell", "-F", "-t", target, REFUSE_CONDITION, commandString(refuse), commandString(live)],
  ];
  const r = await tmux.run(commands, spec.stdin === undefined ? {} : { stdin: spec.stdin });
  const printed = r.stdout.split("\n");
  if (printed.includes(PANE_DEAD_MARK)) return "dead";
  if (printed.includes(PANE_INPUT_OFF_MARK)) return "input_off";
  if (r.success) return "sent";
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return "absent";
  return fail(tmux, commands, r);
}

/**
 * Pastes `text` into the pane at `target` ({@link paneTarget}) with bracketed paste
 * (`paste-buffer -p`), in one invocation: `has-session` on the target first (tmux stops the
 * chain there, so no buffer is made for a missing pane), `load-buffer` from stdin, then the
 * guarded `paste-buffer -d` of {@link writeToPane} (a refused paste gets its buffer deleted
 * instead). A pane gone while the buffer loaded leaves the buffer: it is deleted then.
 */
export async function pasteText(tmux: Tmux, target: string, text: string): Promise<PaneWrite> {
  const buffer = bufferName();
  const result = await writeToPane(
    tmux,
    target,
    [["paste-buffer", "-p", "-d", "-b", buffer, "-t", target]],
    {
      before: [["has-session", "-t", target], ["load-buffer", "-b", buffer, "-"]],
      onRefused: [["delete-buffer", "-b", buffer]],
      stdin: text,
    },
  );
  if (result === "absent") await tmux.run([["delete-buffer", "-b", buffer]]).catch(() => {});
  return result;
}

/** Sends tmux key names (`Enter`, `C-c`, `Escape`, …) to the pane at `target`, guarded. */
export function sendKeys(tmux: Tmux, target: string, keys: readonly string[]): Promise<PaneWrite> {
  // `--`: a key word starting with "-" is a key, never a send-keys flag (-t would retarget).
  return writeToPane(tmux, target, [["send-keys", "-t", target, "--", ...keys]]);
}

/** The answer of one socket probe. */
export type SocketProbe =
  | { kind: "live"; sessions: string[] }
  | { kind: "stale" }
  | { kind: "unknown"; error: string };

/**
 * Asks the server on `socketPath` for its sessions with one `list-sessions`. Never starts or
 * stops a server.
 */
export async function probeSocket(
  runner: Runner,
  socketPath: string,
  timeoutMs: number,
): Promise<SocketProbe> {
  try {
    const r = await new Tmux(runner, socketPath, timeoutMs).run([
      ["list-sessions", "-F", "#{session_name}"],
    ]);
    if (r.success) return { kind: "live", sessions: r.stdout.split("\n").filter((s) => s !== "") };
    if (isNoServer(r.stderr)) return { kind: "stale" };
    return { kind: "unknown", error: r.stderr.trim() || `exit ${r.code}` };
  } catch (error) {
    return { kind: "unknown", error: error instanceof Error ? error.message : String(error) };
  }
}
