/**
 * Session-level tmux operations used by spawn, send, list, exists and kill. Each is one tmux
 * invocation (commands chained with `;` when several facts or steps are needed), always on the
 * project's socket through {@link Tmux}. Failures other than "no server" / "no such session"
 * throw `command_failed` with tmux's message.
 */
import { CommandFailedError } from "../base/errors.ts";
import type { RunResult } from "../base/runner.ts";
import {
  escapeFormat,
  formatOf,
  isMissingTarget,
  isNoServer,
  paneTarget,
  parseFormat,
  sessionTarget,
  type Tmux,
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
 * The chained commands that create a session: server options first (so a command that exits
 * at once is still kept by `remain-on-exit`), then `new-session -d`.
 */
export function newSessionCommands(spec: NewSessionSpec): string[][] {
  const env = Object.entries(spec.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  return [
    ["set-option", "-g", "remain-on-exit", "on"],
    ["set-option", "-g", "history-limit", "50000"],
    [
      "new-session",
      "-d",
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

/** One session as `list-sessions` reports it (its active pane's facts included). */
export interface SessionRow {
  session: string;
  /** Unix seconds. */
  createdAt: number;
  panePid: number;
  paneDead: boolean;
  /** Exit status of a dead pane; null while alive or when tmux has not reported it yet. */
  paneDeadStatus: number | null;
}

const SESSION_FIELDS = [
  "session_created",
  "pane_pid",
  "pane_dead",
  "pane_dead_status",
  // Last: a session name cannot hold the separator, but the last field takes any rest anyway.
  "session_name",
] as const;

/** Every session on this server; [] when no server runs. One tmux call. */
export async function listSessions(tmux: Tmux): Promise<SessionRow[]> {
  const commands = [["list-sessions", "-F", formatOf(SESSION_FIELDS)]];
  const r = await tmux.run(commands);
  if (!r.success) {
    if (isNoServer(r.stderr)) return [];
    return fail(tmux, commands, r);
  }
  return parseFormat(r.stdout, SESSION_FIELDS).map((row) => ({
    session: row.session_name,
    createdAt: Number(row.session_created),
    panePid: Number(row.pane_pid),
    paneDead: row.pane_dead === "1",
    paneDeadStatus: row.pane_dead_status === "" ? null : Number(row.pane_dead_status),
  }));
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

/** Kills `session`; returns false when it (or the server) was already gone. */
export async function killSession(tmux: Tmux, session: string): Promise<boolean> {
  const commands = [["kill-session", "-t", sessionTarget(session)]];
  const r = await tmux.run(commands);
  if (r.success) return true;
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return false;
  return fail(tmux, commands, r);
}

/** A paste buffer name nobody else uses. */
function bufferName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `lisa-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Pastes `text` into the session's active pane with bracketed paste (`paste-buffer -p`), in one
 * invocation: `has-session` first (tmux stops the chain there, so no buffer is left behind),
 * then `load-buffer` from stdin and `paste-buffer -d`. Returns false when the session is absent.
 */
export async function pasteText(tmux: Tmux, session: string, text: string): Promise<boolean> {
  const buffer = bufferName();
  const commands = [
    ["has-session", "-t", sessionTarget(session)],
    ["load-buffer", "-b", buffer, "-"],
    ["paste-buffer", "-p", "-d", "-b", buffer, "-t", paneTarget(session)],
  ];
  const r = await tmux.run(commands, { stdin: text });
  if (r.success) return true;
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return false;
  return fail(tmux, commands, r);
}

/** Sends tmux key names (`Enter`, `C-c`, `Escape`, …) to the active pane; false when absent. */
export async function sendKeys(tmux: Tmux, session: string, keys: readonly string[]): Promise<
  boolean
> {
  // `--`: a key word starting with "-" is a key, never a send-keys flag (-t would retarget).
  const commands = [["send-keys", "-t", paneTarget(session), "--", ...keys]];
  const r = await tmux.run(commands);
  if (r.success) return true;
  if (isNoServer(r.stderr) || isMissingTarget(r.stderr)) return false;
  return fail(tmux, commands, r);
}
