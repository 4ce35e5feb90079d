/**
 * `lisa session prune` (seed 004's prune/housekeeping): removes the artifacts of sessions that
 * have finished or whose tmux session is gone, once their end (or last sign of life) is older
 * than `olderThanMs`, plus event logs past `LISA_EVENT_RETENTION_DAYS`: of the current project,
 * or of every project with `allProjects` (as `history list` scopes). A finished session tmux
 * still shows (its dead pane kept by remain-on-exit) has that tmux session closed too.
 *
 * Liveness is proven by tmux, never assumed: each server that a session's meta names is asked
 * once (`list-sessions`); a session whose server lists it with a running pane is live and kept, and so is every session of a server that could not be asked (a
 * timeout, a permission error: unknown is not gone). The last sign of life is the newest
 * modification of the session's meta, heartbeat (refreshed every 2 s while the wrapper runs),
 * done file and hooks log; state and event files are left out, since a status poll writes them
 * after the end. Each session is recorded in history first (`recordBeforeRemoval`, as kill and
 * cleanup do), then its files go through `removeSessionArtifacts`, the removal path of kill and
 * spawn (the event log is kept until its retention ends). Then the project's worktrees go through
 * the worktree rule (`pruneWorktrees`: only finished, clean and merged ones are removed, whatever
 * their age; `force` discards work, never a running session's). `dryRun` reports the same plan and
 * changes nothing.
 */
import type { Deps } from "../../base/deps.ts";
import { joinPath } from "../../base/paths.ts";
import type { SessionMeta } from "../../base/types.ts";
import {
  type Project,
  removeSessionArtifacts,
  resolveProject,
  tryReadMeta,
  withSpawnLock,
} from "../session/mod.ts";
import { recordBeforeRemoval } from "../history/mod.ts";
import { pruneOldEvents } from "../../store/events.ts";
import { SESSION_ARTIFACT_RE, sessionPaths } from "../../store/runtime_dir.ts";
import {
  killSession,
  listSessions,
  sessionPanePids,
  type SessionRow,
} from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";
import { lisaSockets } from "../inventory/mod.ts";
import { pruneWorktrees, type WorktreePruneResult } from "../worktree/mod.ts";

/** Default `--older-than`: 7 days. */
export const DEFAULT_PRUNE_AGE_MS = 7 * 86_400_000;

/** Options of {@link pruneSessions}. */
export interface PruneOptions {
  projectRoot?: string;
  /** Every project's sessions, event logs and worktrees, not only the current project's. */
  allProjects?: boolean;
  olderThanMs?: number;
  dryRun?: boolean;
  /** Remove worktrees even with uncommitted changes or unmerged commits (never a running one). */
  force?: boolean;
}

/** One session prune removed (or would remove). */
export interface PrunedSession {
  session: string;
  alias: string | null;
  /** `finished`: tmux still shows it, its command ended; `gone`: tmux no longer has it. */
  reason: "finished" | "gone";
  /** ISO time of its last sign of life. */
  lastSeenAt: string | null;
  /** The tmux session (a dead pane) was closed. */
  closedTmuxSession: boolean;
  files: string[];
}

/** One session prune kept, and why. */
export interface KeptSession {
  session: string;
  alias: string | null;
  reason: "live" | "recent" | "server_unknown";
}

/** What prune did (or would do). */
export interface PruneResult {
  ok: true;
  dryRun: boolean;
  /** The current project (what prune acts on unless `allProjects`). */
  projectRoot: string;
  allProjects: boolean;
  olderThanSeconds: number;
  pruned: PrunedSession[];
  kept: KeptSession[];
  /** Event logs (and their locks) past retention. */
  events: string[];
  /**
   * The project's `--worktree` sessions' worktrees, whatever their age: removed when finished,
   * clean and merged, else kept with reasons (`discarded` when `force` threw work away).
   */
  worktrees: WorktreePruneResult[];
}

interface SessionFiles {
  hash: string;
  session: string;
  paths: Map<string, string>;
}

function mtimeMs(path: string): number | null {
  try {
    const st = Deno.lstatSync(path);
    return st.isFile ? st.mtime?.getTime() ?? null : null;
  } catch {
    return null;
  }
}

/**
 * Event logs past `retentionDays` (what {@link pruneOldEvents} would remove, logs only), of
 * project `hash` only when given.
 */
function oldEventLogs(
  runtimeDir: string,
  retentionDays: number,
  nowMs: number,
  hash?: string,
): string[] {
  if (!(retentionDays > 0)) return [];
  const cutoff = nowMs - retentionDays * 86_400_000;
  const out: string[] = [];
  try {
    for (const e of Deno.readDirSync(runtimeDir)) {
      const m = SESSION_ARTIFACT_RE.exec(e.name);
      if (m === null || m[3] !== "events.jsonl" || m[4] !== undefined || !e.isFile) continue;
      if (hash !== undefined && m[1] !== hash) continue;
      const path = joinPath(runtimeDir, e.name);
      const t = mtimeMs(path);
      if (t !== null && t < cutoff) out.push(path);
    }
  } catch { /* no runtime dir: nothing */ }
  return out.sort();
}

/** The sessions `runtimeDir` knows (of project `scope` when given), with their files. */
function sessionFilesIn(runtimeDir: string, scope: string | undefined): Map<string, SessionFiles> {
  // Event logs and locks aside: event logs go by retention, not with their session.
  const sessions = new Map<string, SessionFiles>();
  try {
    for (const e of Deno.readDirSync(runtimeDir)) {
      const m = SESSION_ARTIFACT_RE.exec(e.name);
      if (m === null || m[4] !== undefined || m[3] === "events.jsonl") continue;
      if (scope !== undefined && m[1] !== scope) continue;
      const key = `${m[1]}\n${m[2]}`;
      let s = sessions.get(key);
      if (s === undefined) sessions.set(key, s = { hash: m[1], session: m[2], paths: new Map() });
      s.paths.set(m[3], joinPath(runtimeDir, e.name));
    }
  } catch { /* no runtime dir yet */ }
  return sessions;
}

/** What the sessions' metas and their tmux servers say. */
interface Seen {
  metas: Map<string, SessionMeta | undefined>;
  /** Each server's sessions; null for a server that could not be asked. */
  servers: Map<string, Map<string, SessionRow> | null>;
  anyUnknown: boolean;
}

/**
 * Reads the metas, and asks every server a meta in scope names, the project's, and (for every
 * project) every lisa server in the socket dir: one call each.
 */
async function seeServers(
  deps: Deps,
  project: Project,
  sessions: ReadonlyMap<string, SessionFiles>,
  allProjects: boolean,
): Promise<Seen> {
  const metas = new Map<string, SessionMeta | undefined>();
  const socketDir = deps.config.tmuxSocketDir ?? project.runtimeDir;
  const sockets = new Set(allProjects ? lisaSockets(socketDir) : []);
  sockets.add(project.socketPath);
  for (const [key, s] of sessions) {
    const metaPath = s.paths.get("meta.json");
    const meta = metaPath === undefined ? undefined : tryReadMeta(metaPath);
    metas.set(key, meta);
    if (meta?.socketPath) sockets.add(meta.socketPath);
  }
  const servers = new Map<string, Map<string, SessionRow> | null>();
  await Promise.all([...sockets].map(async (socket) => {
    try {
      const rows = await listSessions(
        new Tmux(deps.runner, socket, deps.config.cmdTimeoutSeconds * 1000),
      );
      servers.set(socket, new Map(rows.map((r) => [r.session, r])));
    } catch {
      servers.set(socket, null);
    }
  }));
  return { metas, servers, anyUnknown: [...servers.values()].some((v) => v === null) };
}

/** Where tmux shows session `s` (its row and server), or that a server that might could not say. */
function rowOf(
  s: SessionFiles,
  meta: SessionMeta | undefined,
  seen: Seen,
): { row?: SessionRow; socket?: string; unknown: boolean } {
  if (meta?.socketPath) {
    const rows = seen.servers.get(meta.socketPath);
    if (rows === null) return { socket: meta.socketPath, unknown: true };
    return { row: rows?.get(s.session), socket: meta.socketPath, unknown: false };
  }
  // No meta: any server listing the name keeps it; an unanswered server might.
  let found: { row?: SessionRow; socket?: string } = {};
  for (const [socket, rows] of seen.servers) {
    if (rows?.has(s.session)) found = { row: rows.get(s.session), socket };
  }
  return { ...found, unknown: found.row === undefined && seen.anyUnknown };
}

/** A session's verdict: kept and why, or to be pruned (with what pruning it needs). */
type Verdict =
  | { kept: KeptSession }
  | { prune: PrunedSession; files: SessionFiles; row?: SessionRow; meta?: SessionMeta };

/**
 * The verdict on session `s` (read-only: a dead active pane costs one more tmux call, to see
 * whether another pane of the session still runs).
 */
async function judge(
  deps: Deps,
  s: SessionFiles,
  meta: SessionMeta | undefined,
  seen: Seen,
  ages: { nowMs: number; olderThanMs: number },
): Promise<Verdict> {
  const alias = meta?.alias ?? null;
  const place = rowOf(s, meta, seen);
  const { row } = place;
  let unknown = place.unknown;
  // list-sessions shows the active pane only: with it dead, another pane (a window the agent
  // or a person opened) may still run, and closing the session would end it.
  let otherPaneRuns = false;
  if (!unknown && row?.paneDead && place.socket !== undefined) {
    try {
      const tmux = new Tmux(deps.runner, place.socket, deps.config.cmdTimeoutSeconds * 1000);
      otherPaneRuns = ((await sessionPanePids(tmux, s.session))?.panePids.length ?? 0) > 0;
    } catch {
      unknown = true;
    }
  }
  if (unknown) return { kept: { session: s.session, alias, reason: "server_unknown" } };
  // A running pane is live even when the done file is there (the wrapper is finishing).
  if (row !== undefined && (!row.paneDead || otherPaneRuns)) {
    return { kept: { session: s.session, alias, reason: "live" } };
  }
  const signs = ["meta.json", "heartbeat.txt", "done.txt", "hooks.jsonl"]
    .map((k) => s.paths.get(k))
    .filter((p): p is string => p !== undefined)
    .map(mtimeMs)
    .filter((t): t is number => t !== null);
  const last = signs.length > 0 ? Math.max(...signs) : null;
  if (last !== null && ages.nowMs - last < ages.olderThanMs) {
    return { kept: { session: s.session, alias, reason: "recent" } };
  }
  const prune: PrunedSession = {
    session: s.session,
    alias,
    reason: row !== undefined ? "finished" : "gone",
    lastSeenAt: last === null ? null : new Date(last).toISOString(),
    closedTmuxSession: false,
    files: [],
  };
  return { prune, files: s, row, meta };
}

/**
 * Prunes one session: closes its dead tmux session, records it in history, removes its files.
 * Null when a spawn of the name made them another session's meanwhile: they stay.
 */
async function pruneOne(
  deps: Deps,
  runtimeDir: string,
  v: Extract<Verdict, { prune: PrunedSession }>,
): Promise<PrunedSession | null> {
  const pruned = { ...v.prune };
  const { hash, session } = v.files;
  if (v.row !== undefined && v.meta?.socketPath) {
    // Every pane of it is dead (or its run wrote the done file): nothing of it runs any more.
    try {
      pruned.closedTmuxSession = await killSession(
        new Tmux(deps.runner, v.meta.socketPath, deps.config.cmdTimeoutSeconds * 1000),
        session,
      );
    } catch { /* the files still go; the dead pane stays visible */ }
  }
  // A spawn of the name since it was judged made the files another session's: they stay, and
  // history leaves them to that run. Looked at under the spawn lock, so no spawn can begin
  // between the look, history's record (issue 14: what the hook and event files say goes in
  // before they go; a spawn landing before it would have its new run ingested and closed as
  // `pruned`) and the removal. A hook log history could not take stays for its next read.
  const respawned = await withSpawnLock(
    runtimeDir,
    hash,
    `session "${session}" was not pruned`,
    async () => {
      const now = tryReadMeta(sessionPaths(runtimeDir, hash, session).meta);
      if ((now?.runId ?? null) !== (v.meta?.runId ?? null)) return true;
      const { recorded } = await recordBeforeRemoval(
        deps,
        [{ runtimeDir, hash, session, runId: v.meta?.runId ?? null }],
        "pruned",
      );
      pruned.files = removeSessionArtifacts(runtimeDir, session, { hash, keepHooks: !recorded })
        .sort();
      return false;
    },
  );
  return respawned ? null : pruned;
}

/** Prunes (see the module doc). Throws only the project errors and a bad duration's. */
export async function pruneSessions(deps: Deps, options: PruneOptions): Promise<PruneResult> {
  const project = resolveProject(deps, options.projectRoot);
  const olderThanMs = options.olderThanMs ?? DEFAULT_PRUNE_AGE_MS;
  const dryRun = options.dryRun === true;
  const allProjects = options.allProjects === true;
  // Another project's finished sessions are not this one's to remove (like history list).
  const scope = allProjects ? undefined : project.hash;
  const nowMs = deps.now().getTime();
  const runtimeDir = project.runtimeDir;
  const sessions = sessionFilesIn(runtimeDir, scope);
  const seen = await seeServers(deps, project, sessions, allProjects);
  const result: PruneResult = {
    ok: true,
    dryRun,
    projectRoot: project.root,
    allProjects,
    olderThanSeconds: Math.round(olderThanMs / 1000),
    pruned: [],
    kept: [],
    events: [],
    worktrees: [],
  };
  for (const [key, s] of sessions) {
    const v = await judge(deps, s, seen.metas.get(key), seen, { nowMs, olderThanMs });
    if ("kept" in v) result.kept.push(v.kept);
    else if (dryRun) {
      // The files the removal would take (output file and locks included), as history takes
      // the hook log (a busy history keeps it: the real run then says so).
      const files = removeSessionArtifacts(runtimeDir, s.session, { hash: s.hash, dryRun: true });
      result.pruned.push({ ...v.prune, files: files.sort() });
    } else {
      const pruned = await pruneOne(deps, runtimeDir, v);
      if (pruned !== null) result.pruned.push(pruned);
      else result.kept.push({ session: s.session, alias: v.prune.alias, reason: "live" });
    }
  }
  result.events = dryRun
    ? oldEventLogs(runtimeDir, deps.config.eventRetentionDays, nowMs, scope)
    : pruneOldEvents(runtimeDir, deps.config.eventRetentionDays, nowMs, scope).sort();
  result.pruned.sort((a, b) => a.session < b.session ? -1 : 1);
  result.kept.sort((a, b) => a.session < b.session ? -1 : 1);
  result.worktrees = await pruneWorktrees(deps, {
    projectRoot: options.projectRoot,
    allProjects,
    force: options.force,
    dryRun,
  });
  return result;
}
