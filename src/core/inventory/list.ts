/**
 * `lisa session list` and the session inventory kill-all works from: one `list-sessions` call
 * per tmux server (the project's, or with `allSockets` every `lisa-tmux-*.sock` in the socket
 * dir, dead sockets skipped quietly), joined with each session's meta and last known state.
 */
import type { Deps } from "../../base/deps.ts";
import { AGENTS, MODES } from "../../base/types.ts";
import { baseName, joinPath } from "../../base/paths.ts";
import { type Project, resolveProject } from "../session/project.ts";
import { scanMetaFiles, shownAgent, tryReadMeta } from "../session/locate.ts";
import type { SessionMeta, SessionStateName } from "../../base/types.ts";
import { sessionPaths, SOCKET_RE } from "../../store/runtime_dir.ts";
import { readState } from "../../store/session_store.ts";
import { readTextIfExists } from "../../store/atomic.ts";
import { listSessions, type SessionRow } from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";

/** One live lisa session. */
export interface ListedSession {
  session: string;
  /**
   * From meta (`"command"` for a `--command` session without `--agent`), else from the session
   * name; null when neither tells.
   */
  agent: string | null;
  mode: string | null;
  projectRoot: string | null;
  projectHash: string | null;
  /** ISO time. */
  createdAt: string;
  /** False when the command has finished (done file, or tmux says the pane is dead). */
  alive: boolean;
  /** The last state `status`/`monitor` classified, when known. */
  state: SessionStateName | null;
  /** Exit status of a finished command (done file first, then tmux), when known. */
  exitCode: number | null;
  parentSession: string | null;
  socketPath: string;
}

/** Options of {@link gatherSessions} and {@link listSessionsOf}. */
export interface ListOptions {
  projectRoot?: string;
  /** Only sessions whose meta belongs to the current project. */
  projectOnly?: boolean;
  /** Every lisa tmux server in the socket dir, not only the project's. */
  allSockets?: boolean;
}

/** `session list --json`. */
export interface ListResult {
  sessions: ListedSession[];
  count: number;
  projectRoot: string;
  projectOnly: boolean;
  allSockets: boolean;
}

/** Every `lisa-tmux-*.sock` in `dir`, sorted. */
export function lisaSockets(dir: string): string[] {
  const out: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (SOCKET_RE.test(entry.name)) out.push(joinPath(dir, entry.name));
    }
  } catch { /* no socket dir yet: no servers */ }
  return out.sort();
}

const NAME_AGENT_MODE = new RegExp(`-(${AGENTS.join("|")})-(${MODES.join("|")})(?:-[a-z0-9]+)?$`);

function socketHash(socketPath: string): string | null {
  return SOCKET_RE.exec(baseName(socketPath))?.[2] ?? null;
}

/** Finds each session's meta: under its socket's hash first, else under any hash. */
function metaFinder(runtimeDir: string): (session: string, hash: string | null) => {
  meta: SessionMeta | undefined;
  hash: string | null;
} {
  let index: Map<string, { hash: string; path: string }[]> | undefined;
  return (session, hash) => {
    if (hash !== null) {
      const meta = tryReadMeta(sessionPaths(runtimeDir, hash, session).meta);
      if (meta !== undefined) return { meta, hash };
    }
    if (index === undefined) {
      index = new Map();
      for (const f of scanMetaFiles(runtimeDir)) {
        index.set(f.session, [...(index.get(f.session) ?? []), f]);
      }
    }
    for (const f of index.get(session) ?? []) {
      const meta = tryReadMeta(f.path);
      if (meta !== undefined) return { meta, hash: f.hash };
    }
    return { meta: undefined, hash };
  };
}

/**
 * The exit status in the done file when its run id is this spawn's, else null. It is the
 * primary source: tmux 3.3a sometimes misses the pane's exit (SIGCHLD lost) for minutes.
 */
function doneExit(meta: SessionMeta | undefined, donePath: string): number | null {
  if (meta === undefined) return null;
  let text = "";
  try {
    text = readTextIfExists(donePath) ?? "";
  } catch { /* unreadable: unknown */ }
  const m = /^(.+):(\d+)\s*$/.exec(text);
  return m && m[1] === meta.runId ? Number(m[2]) : null;
}

function toListed(
  row: SessionRow,
  socketPath: string,
  found: { meta: SessionMeta | undefined; hash: string | null },
  runtimeDir: string,
): ListedSession {
  const { meta, hash } = found;
  const fromName = NAME_AGENT_MODE.exec(row.session);
  const paths = hash === null ? null : sessionPaths(runtimeDir, hash, row.session);
  const state = paths === null ? null : readState(paths).lastState;
  const done = paths === null ? null : doneExit(meta, paths.done);
  return {
    session: row.session,
    agent: meta ? shownAgent(meta) : fromName?.[1] ?? null,
    mode: meta?.mode ?? fromName?.[2] ?? null,
    projectRoot: meta?.projectRoot ?? null,
    projectHash: meta?.projectHash ?? hash,
    createdAt: meta?.createdAt ?? new Date(row.createdAt * 1000).toISOString(),
    alive: !row.paneDead && done === null,
    state,
    exitCode: done ?? (row.paneDead ? row.paneDeadStatus : null),
    parentSession: meta?.parentSession ?? null,
    socketPath,
  };
}

/**
 * The lisa sessions (names starting with `lisa-`) on the project's server, or on every server
 * with `allSockets`; with `projectOnly`, only those of the current project. Sorted by creation.
 */
export async function gatherSessions(
  deps: Deps,
  project: Project,
  options: Pick<ListOptions, "projectOnly" | "allSockets">,
): Promise<ListedSession[]> {
  const socketDir = deps.config.tmuxSocketDir ?? project.runtimeDir;
  const sockets = options.allSockets
    ? [...new Set([project.socketPath, ...lisaSockets(socketDir)])]
    : [project.socketPath];
  const perSocket = await Promise.all(sockets.map(async (socketPath) => {
    try {
      return { socketPath, rows: await listSessions(new Tmux(deps.runner, socketPath)) };
    } catch (error) {
      // A socket left by a dead server, or one we cannot talk to: skip it, never fail the list.
      if (options.allSockets && socketPath !== project.socketPath) return { socketPath, rows: [] };
      throw error;
    }
  }));
  const find = metaFinder(project.runtimeDir);
  const out: ListedSession[] = [];
  for (const { socketPath, rows } of perSocket) {
    const hash = socketHash(socketPath);
    for (const row of rows) {
      if (!row.session.startsWith("lisa-")) continue;
      const listed = toListed(row, socketPath, find(row.session, hash), project.runtimeDir);
      if (options.projectOnly && listed.projectHash !== project.hash) continue;
      out.push(listed);
    }
  }
  return out.sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.session < b.session ? -1 : 1
  );
}

/** `lisa session list`: the sessions and their count (see {@link gatherSessions}). */
export async function listSessionsOf(deps: Deps, options: ListOptions): Promise<ListResult> {
  const project = resolveProject(deps, options.projectRoot);
  const sessions = await gatherSessions(deps, project, options);
  return {
    sessions,
    count: sessions.length,
    projectRoot: project.root,
    projectOnly: options.projectOnly ?? false,
    allSockets: options.allSockets ?? false,
  };
}
