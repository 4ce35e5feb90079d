/**
 * `lisa session list` and the session inventory kill-all works from. With `live` (the list
 * verb) every session is classified as `status` would classify it now (`status/fleet.ts`: one tmux
 * invocation per server, the same classifier); without it (kill-all, completions) one
 * `list-sessions` call per tmux server gives names and pane facts only, and no state. The
 * servers: the project's, or with `allSockets` every `lisa-tmux-*.sock` in the socket dir
 * (dead sockets skipped quietly). A recorded state is never shown as a live one.
 */
import type { Deps } from "../../base/deps.ts";
import { AGENTS, MODES } from "../../base/types.ts";
import { baseName, joinPath } from "../../base/paths.ts";
import {
  type MetaFile,
  type Project,
  resolveProject,
  scanMetaFiles,
  sessionKey,
  type SessionLocation,
  shownAgent,
  tryReadMeta,
} from "../session/mod.ts";
import { LisaError } from "../../base/errors.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { TokenUsage } from "../../agents/usage.ts";
import type { CoarseStatus, SocketReading, StatusOutcome, WaitingFor } from "../status/mod.ts";

/** What each server said, by socket (status's fleet reading). */
type FleetReadings = ReadonlyMap<string, SocketReading>;
import type { ControlChannel } from "../../tmux/control.ts";
import type { CpuSample } from "../../base/types.ts";
import type { SessionMeta, SessionStateName } from "../../base/types.ts";
import { sessionPaths, SOCKET_RE } from "../../store/runtime_dir.ts";
import { pathExists, readTextIfExists } from "../../store/atomic.ts";
import { listSessions, paneRowOf, type SessionRow } from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";

/** One live lisa session. */
export interface ListedSession {
  session: string;
  /** Short name (`{slug}-{adjective}-{noun}`, from meta); null for sessions spawned without. */
  alias: string | null;
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
  /** The live state, as `status` gives it now (null when the list was not classified). */
  state: SessionStateName | null;
  /** The coarse status of `state` (null when not classified). */
  status: CoarseStatus | null;
  /** What a `waiting_input` session waits for: `input` or `permission`. */
  waitingFor: WaitingFor | null;
  classificationReason: string | null;
  /** Exit status of a finished command (done file first, then tmux), when known. */
  exitCode: number | null;
  /** Seconds since the screen last changed (null when unknown or not classified). */
  lastOutputAgeSeconds: number | null;
  parentSession: string | null;
  socketPath: string;
  /**
   * True when tmux no longer has it (its server died, or it was closed outside lisa) while its
   * meta is still there: listed until prune removes its files.
   */
  lost: boolean;
  /**
   * `list --wide`: the tokens of the session's turns so far, summed, from history (null when
   * not known); absent without `--wide`.
   */
  usage?: TokenUsage | null;
}

/** Options of {@link gatherSessions} and {@link listSessionsOf}. */
export interface ListOptions {
  projectRoot?: string;
  /** Only sessions whose meta belongs to the current project. */
  projectOnly?: boolean;
  /** Every lisa tmux server in the socket dir, not only the project's. */
  allSockets?: boolean;
  /** Classify every session live (the list verb); else names and pane facts only. */
  live?: boolean;
}

/** Options of {@link gatherLiveSessions}. */
export interface LiveListOptions extends Pick<ListOptions, "projectOnly" | "allSockets"> {
  /**
   * Also the sessions lisa still has a meta of that their server no longer lists (it died, or
   * the session was closed behind lisa's back): classified like the others (`not_found`, reason
   * `server_gone` or `session_missing`, or the done file's verdict), until prune removes them.
   */
  lost?: boolean;
}

/** `session list --json`. */
export interface ListResult {
  sessions: ListedSession[];
  count: number;
  projectRoot: string;
  projectOnly: boolean;
  allSockets: boolean;
  /** Sessions tmux lost ({@link ListedSession.lost}). */
  lostCount: number;
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

/**
 * The meta files worth reading for a list of `sockets`: those filed under one of the sockets'
 * project hashes (spawn names a session's meta and its server's socket after the same project),
 * so a list reads its own sessions' metas, not every project's. Every file when a socket's name
 * carries no hash. A session filed elsewhere that a server still lists is found by name after
 * the server answered. Pure.
 */
export function metaFilesOn(
  files: readonly MetaFile[],
  sockets: readonly string[],
  project: Pick<Project, "hash" | "socketPath">,
): MetaFile[] {
  const hashes = new Set<string>();
  for (const socket of sockets) {
    const hash = socket === project.socketPath ? project.hash : socketHash(socket);
    if (hash === null) return [...files];
    hashes.add(hash);
  }
  return files.filter((f) => hashes.has(f.hash));
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
  const done = paths === null ? null : doneExit(meta, paths.done);
  // The session's own pane (its meta's ids), not the one tmux calls active.
  const pane = paneRowOf(row, meta);
  return {
    session: row.session,
    agent: meta ? shownAgent(meta) : fromName?.[1] ?? null,
    mode: meta?.mode ?? fromName?.[2] ?? null,
    projectRoot: meta?.projectRoot ?? null,
    projectHash: meta?.projectHash ?? hash,
    createdAt: meta?.createdAt ?? new Date(row.createdAt * 1000).toISOString(),
    alias: meta?.alias ?? null,
    alive: !pane.paneDead && done === null,
    state: null,
    status: null,
    waitingFor: null,
    classificationReason: null,
    exitCode: done ?? (pane.paneDead ? pane.paneDeadStatus : null),
    lastOutputAgeSeconds: null,
    parentSession: meta?.parentSession ?? null,
    socketPath,
    lost: false,
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
  return sortByCreation(out);
}

function sortByCreation(rows: ListedSession[]): ListedSession[] {
  return rows.sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.session < b.session ? -1 : 1
  );
}

/** Where a session found through its meta (or only on a socket) lives. */
function locationOf(
  project: Project,
  session: string,
  socketPath: string,
  found: { meta: SessionMeta | undefined; hash: string | null },
): SessionLocation {
  const hash = found.meta?.projectHash ?? found.hash ?? project.hash;
  return {
    session,
    hash,
    projectRoot: found.meta?.projectRoot ?? project.root,
    runtimeDir: project.runtimeDir,
    socketPath,
    paths: sessionPaths(project.runtimeDir, hash, session),
    meta: found.meta,
    project,
  };
}

/**
 * The lisa sessions of the servers (see {@link gatherSessions}), each classified live as
 * `status` would classify it now ({@link fleetStatuses}: one tmux invocation per server).
 */
export async function gatherLiveSessions(
  deps: Deps,
  project: Project,
  options: LiveListOptions,
  channels?: ReadonlyMap<string, ControlChannel>,
  cpuMemory?: Map<string, CpuSample[]>,
): Promise<ListedSession[]> {
  const socketDir = deps.config.tmuxSocketDir ?? project.runtimeDir;
  const sockets = options.allSockets
    ? [...new Set([project.socketPath, ...lisaSockets(socketDir)])]
    : [project.socketPath];
  const socketSet = new Set(sockets);
  // Every project's metas with --all-sockets when lost sessions count: a server that died may
  // have taken its socket with it, and its sessions are lost all the same.
  const everyMeta = options.lost === true && options.allSockets === true;
  // The screens to capture, from file names alone (metas under each server's project hash), so
  // tmux is asked before any meta is read.
  const files = scanMetaFiles(project.runtimeDir);
  const wanted = new Map<string, string[]>();
  for (const socket of sockets) {
    const hash = socket === project.socketPath ? project.hash : socketHash(socket);
    wanted.set(socket, files.filter((f) => f.hash === hash).map((f) => f.session).sort());
  }
  const candidates = new Map<string, SessionLocation>();
  const readCandidates = () => {
    for (const f of everyMeta ? files : metaFilesOn(files, sockets, project)) {
      const meta = tryReadMeta(f.path);
      if (meta === undefined) continue;
      if (!socketSet.has(meta.socketPath) && !(everyMeta && !pathExists(meta.socketPath))) {
        continue;
      }
      if (options.projectOnly && (meta.projectHash ?? f.hash) !== project.hash) continue;
      candidates.set(
        sessionKey(meta.socketPath, f.session),
        locationOf(project, f.session, meta.socketPath, { meta, hash: f.hash }),
      );
    }
    return [...candidates.values()];
  };
  const find = metaFinder(project.runtimeDir);
  // Loaded on demand: kill-all and completions list names only.
  const { fleetStatuses } = await lazyImport<typeof import("./live_states.ts")>(
    new URL("./live_states.ts", import.meta.url),
  );
  const { outcomes, readings } = await fleetStatuses(deps, {
    candidates: readCandidates,
    wanted,
    sockets,
    channels,
    cpuMemory,
    choose: (readings) => chooseListed(readings, { project, options, candidates, find }),
  });
  const rows = [...outcomes.values()].map((o) => listedRow(o, readings));
  return sortByCreation(rows);
}

/**
 * The sessions the list shows, from what each server listed: lisa's sessions (their meta's
 * location, else found by name), then with `lost` the metas in scope tmux no longer has.
 * Throws `tmux_failed` when the project's own server could not be asked.
 */
function chooseListed(
  readings: FleetReadings,
  ctx: {
    project: Project;
    options: LiveListOptions;
    candidates: ReadonlyMap<string, SessionLocation>;
    find: ReturnType<typeof metaFinder>;
  },
): SessionLocation[] {
  const { project, options, candidates, find } = ctx;
  const out: SessionLocation[] = [];
  for (const [socketPath, reading] of readings) {
    if (!reading.reachable && socketPath === project.socketPath) {
      throw new LisaError("tmux_failed", `tmux could not list the sessions of ${socketPath}`);
    }
    for (const name of reading.sessions.keys()) {
      if (!name.startsWith("lisa-")) continue;
      const known = candidates.get(sessionKey(socketPath, name));
      if (known !== undefined) {
        out.push(known);
        continue;
      }
      const found = find(name, socketHash(socketPath));
      if (options.projectOnly && (found.meta?.projectHash ?? found.hash) !== project.hash) {
        continue;
      }
      out.push(locationOf(project, name, socketPath, found));
    }
  }
  if (options.lost) {
    for (const [key, loc] of candidates) {
      const reading = readings.get(loc.socketPath);
      // Unknown is not gone: a server that could not be asked keeps its sessions unshown.
      if (reading === undefined || !reading.reachable) continue;
      if (!reading.sessions.has(loc.session)) out.push(candidates.get(key)!);
    }
  }
  return out;
}

/** One row of the list: what status says of the session, with what its meta and tmux say. */
function listedRow(outcome: StatusOutcome, readings: FleetReadings): ListedSession {
  const loc = outcome.location;
  const session = loc.session;
  const probe = readings.get(loc.socketPath)?.sessions.get(session);
  const r = outcome.report;
  const meta = loc.meta;
  const fromName = NAME_AGENT_MODE.exec(session);
  // Finished, or lost (tmux no longer has it): nothing of it runs.
  const terminal = r.sessionState === "completed" || r.sessionState === "crashed" ||
    probe === undefined;
  return {
    session,
    alias: meta?.alias ?? null,
    agent: meta ? shownAgent(meta) : r.agent ?? fromName?.[1] ?? null,
    mode: meta?.mode ?? fromName?.[2] ?? null,
    projectRoot: meta?.projectRoot ?? null,
    projectHash: meta?.projectHash ?? socketHash(loc.socketPath),
    createdAt: meta?.createdAt ??
      new Date((probe?.createdAtSeconds ?? 0) * 1000).toISOString(),
    alive: !terminal,
    state: r.sessionState,
    status: r.status,
    waitingFor: r.waitingFor,
    classificationReason: r.classificationReason,
    exitCode: r.exitCode,
    lastOutputAgeSeconds: r.signals.outputQuietSeconds,
    parentSession: meta?.parentSession ?? null,
    socketPath: loc.socketPath,
    lost: probe === undefined,
  };
}

/** `lisa session list`: the sessions and their count (see {@link gatherSessions}). */
export async function listSessionsOf(deps: Deps, options: ListOptions): Promise<ListResult> {
  const project = resolveProject(deps, options.projectRoot);
  const sessions = options.live
    ? await gatherLiveSessions(deps, project, { ...options, lost: true })
    : await gatherSessions(deps, project, options);
  return {
    sessions,
    count: sessions.length,
    projectRoot: project.root,
    projectOnly: options.projectOnly ?? false,
    allSockets: options.allSockets ?? false,
    lostCount: sessions.filter((s) => s.lost).length,
  };
}
