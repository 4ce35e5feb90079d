/**
 * `lisa session kill` and `kill-all`. Each session is ended the same way:
 *
 * 1. its descendants first (sessions whose meta names it as `parentSession`, deepest first);
 * 2. its processes collected and ended with TERM, then KILL after a grace period
 *    (`terminate.ts`), then searched again by run id for what started meanwhile, anything left
 *    reported, with what the search could see (`processes.coverage`, `coverage.ts`);
 * 3. `kill-session`, checked gone;
 * 4. its runtime artifacts removed — meta, state, heartbeat, done, hooks, the last output
 *    capture, leftover startup scripts — while the event log is kept and gets a `killed`
 *    lifecycle event. Nothing can recreate them: the processes that could are gone. A name
 *    that neither tmux nor any file knew gets no event (a typo creates no file).
 *
 * Run from inside a session it ends (an agent killing its own session, or `kill-all` from any
 * session), lisa and its ancestors are spared by step 2, and that session comes last: its
 * artifacts are removed and its event appended like the others', the result is handed to the
 * caller (`announce`, so the verb prints it while the pane's terminal still exists), and only
 * then does `kill-session` close the pane. lisa ignores SIGHUP while it kills, so the hangup
 * of its own terminal does not end it halfway; after its own session is gone it stays deaf to
 * it until it exits.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import {
  appendLifecycle,
  locateSession,
  removeLeftUnderOtherHashes,
  removeSessionArtifacts,
  resolveProject,
  scanMetaFiles,
  tryReadMeta,
  validateSessionName,
} from "../session/mod.ts";
import { gatherSessions } from "../inventory/mod.ts";
import { recordBeforeRemoval } from "../history/mod.ts";
import { type Caller, callerOf, closeOwn, deafToHangup } from "./own.ts";
import {
  bothCovered,
  environmentsReadable,
  fullCoverage,
  type KillCoverage,
  readEnviron,
  readHeartbeat,
  sessionCoverage,
} from "./coverage.ts";
import { collectVictims, type Survivor, terminate } from "./terminate.ts";
import type { SessionMeta } from "../../base/types.ts";
import { pathExists } from "../../store/atomic.ts";
import { pruneOldEvents } from "../../store/events.ts";
import { sessionPaths } from "../../store/runtime_dir.ts";
import { hasSession, killSession, markKilling, sessionPanePids } from "../../tmux/sessions.ts";
import { sessionTarget, Tmux } from "../../tmux/tmux.ts";

/** How long processes get between SIGTERM and SIGKILL. */
export const DEFAULT_GRACE_MS = 2000;
/** Searches by run id after the first termination, for processes started meanwhile. */
const LATE_ROUNDS = 3;

/** A session to end, and where it lives. */
interface Target {
  session: string;
  hash: string;
  socketPath: string;
  runtimeDir: string;
  meta: SessionMeta | undefined;
  /** The alias it was found by when its meta is gone (a second kill by alias). */
  alias?: string;
}

/** A process left alive, with the session it belonged to. */
export interface SessionSurvivor extends Survivor {
  session: string;
}

/** The outcome for the processes of all sessions ended by one call. */
export interface ProcessReport {
  signalled: number;
  remaining: SessionSurvivor[];
  /** What the search for them could see (`coverage.ts`): `remaining` proves no more. */
  coverage: KillCoverage;
}

/** A worktree session's worktree and branch, kept by kill (`spawn --worktree`). */
export interface KeptWorktree {
  session: string;
  path: string;
  branch: string;
}

/**
 * What history holds of the ended sessions. Their hook and event files go only once history
 * ingested them; when it could not (busy past its timeout, unusable), they stay for the next
 * ingestion (any history read) and are listed here.
 */
export interface KillHistory {
  /** True when history holds every ended session's turns (or there is no history at all). */
  recorded: boolean;
  /** Files kept for the next ingestion (empty when `recorded`). */
  keptFiles: string[];
  /** Why history could not take them (`history_busy`, `history_unsafe`, …). */
  errorCode?: string;
  error?: string;
}

/** `session kill --json`. */
export interface KillResult {
  /** False when a process could not be ended. */
  ok: boolean;
  session: string;
  /** Sessions ended, in order (descendants first, the session last; the caller's own last). */
  killed: string[];
  processes: ProcessReport;
  projectRoot: string;
  /** Worktrees of the ended sessions: never removed by kill (merge, then prune). */
  worktrees: KeptWorktree[];
  history: KillHistory;
}

/** `session kill-all --json`. */
export interface KillAllResult {
  ok: boolean;
  killed: string[];
  count: number;
  processes: ProcessReport;
  /** Worktrees of the ended sessions: never removed by kill (merge, then prune). */
  worktrees: KeptWorktree[];
  history: KillHistory;
  projectRoot: string;
  projectOnly: boolean;
  cleanupAllHashes: boolean;
}

/** Options shared by kill and kill-all. */
interface KillCommon {
  projectRoot?: string;
  /** Also remove the session's artifacts under other project hashes. */
  cleanupAllHashes?: boolean;
  /** SIGTERM → SIGKILL grace (default {@link DEFAULT_GRACE_MS}). */
  graceMs?: number;
}

/**
 * Receives a kill's result (not an error) before the caller's own session, when it is among
 * those ended, is closed: printed here, it reaches the pane's terminal while that still exists.
 * Called once, also when no own session is involved.
 */
export type Announce<R> = (result: R) => void;

/** Options of {@link killSessionTree}. */
export interface KillOptions extends KillCommon {
  session: string;
  announce?: Announce<KillResult>;
}

/** Options of {@link killAllSessions}. */
export interface KillAllOptions extends KillCommon {
  announce?: Announce<KillAllResult>;
  /** Only the current project's sessions (default: every lisa server in the socket dir). */
  projectOnly?: boolean;
}

/**
 * Descendants of the given roots from meta parent links, deepest first (post-order). A child
 * whose meta names its parent's run id belongs only to the session of that name with that run
 * id: another project's session of the same name (or an earlier run) is not its parent.
 */
function descendantsOf(
  runtimeDir: string,
  roots: readonly { session: string; runId?: string }[],
): Target[] {
  const children = new Map<string, Target[]>();
  for (const file of scanMetaFiles(runtimeDir)) {
    const meta = tryReadMeta(file.path);
    const parent = meta?.parentSession;
    if (!meta || !parent) continue;
    children.set(parent, [...(children.get(parent) ?? []), {
      session: file.session,
      hash: file.hash,
      socketPath: meta.socketPath,
      runtimeDir,
      meta,
    }]);
  }
  const out: Target[] = [];
  const seen = new Set<string>(roots.map((r) => r.session));
  const visit = (name: string, runId: string | undefined) => {
    for (const child of children.get(name) ?? []) {
      if (seen.has(child.session)) continue;
      const parentRunId = child.meta?.parentRunId;
      if (parentRunId !== undefined && runId !== undefined && parentRunId !== runId) continue;
      seen.add(child.session);
      visit(child.session, child.meta?.runId);
      out.push(child);
    }
  };
  for (const root of roots) visit(root.session, root.runId);
  return out;
}

/**
 * The run id spawn set in the session's tmux environment (for sessions whose meta is gone);
 * null when the session, its server or the variable is missing.
 */
export async function sessionRunId(tmux: Tmux, session: string): Promise<string | null> {
  const r = await tmux.run([["show-environment", "-t", sessionTarget(session), "LISA_RUN_ID"]]);
  const m = /^LISA_RUN_ID=(.+)$/m.exec(r.success ? r.stdout : "");
  return m ? m[1] : null;
}

/**
 * The run id of a session to end: its meta's, else (no meta, or an unreadable one) the one its
 * tmux session carries, so that only that run's children are taken as descendants; undefined
 * when neither says.
 */
async function runIdOf(deps: Deps, target: Target): Promise<string | undefined> {
  if (target.meta?.runId) return target.meta.runId;
  try {
    return await sessionRunId(new Tmux(deps.runner, target.socketPath), target.session) ??
      undefined;
  } catch {
    return undefined;
  }
}

interface EndResult {
  found: boolean;
  signalled: number;
  remaining: Survivor[];
  coverage: KillCoverage;
  /** For the caller's own session: its `kill-session`, left for the very end. */
  close: (() => Promise<void>) | null;
  history: KillHistory;
}

/** `kill-session`, then a check that it is gone (`kill_failed`). */
async function closeSession(tmux: Tmux, target: Target): Promise<void> {
  await killSession(tmux, target.session);
  if (await hasSession(tmux, target.session)) {
    throw new LisaError("kill_failed", `Session "${target.session}" is still there after kill`, {
      details: { session: target.session, socketPath: target.socketPath },
    });
  }
}

/** Ends one session (steps 2–4 of the module doc). */
async function endSession(
  deps: Deps,
  target: Target,
  trigger: string,
  options: KillCommon,
  caller: Caller,
): Promise<EndResult> {
  const tmux = new Tmux(deps.runner, target.socketPath);
  const pids = await sessionPanePids(tmux, target.session);
  const runId = target.meta?.runId ??
    (pids !== null ? await sessionRunId(tmux, target.session) : null);
  const victims = await collectVictims({
    panePids: pids?.panePids ?? [],
    runId,
    exclude: pids?.serverPid ? [pids.serverPid] : [],
    runner: deps.runner,
  });
  const paths = sessionPaths(target.runtimeDir, target.hash, target.session);
  // Read before anything is signalled or removed: the wrappers' environments, the heartbeat.
  const coverage = sessionCoverage({
    panes: pids?.panes ?? null,
    runId,
    envReadable: environmentsReadable(),
    environOf: readEnviron,
    heartbeat: readHeartbeat(paths.heartbeat),
  });
  const terminateOptions = {
    runner: deps.runner,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    sleep: deps.sleep,
  };
  // A `send --wait` that sees the pane die of our SIGTERM must take it for the kill it is.
  if (pids !== null) await markKilling(tmux, target.session).catch(() => false);
  const ended = await endProcesses(deps, victims, { runId, pids, terminateOptions });
  let close: (() => Promise<void>) | null = null;
  if (pids !== null) {
    const chain = await caller.chain();
    const own = pids.panePids.some((pid) => chain.has(pid)) ||
      (runId !== null && runId === caller.runId);
    if (own) close = () => closeSession(tmux, target);
    else await closeSession(tmux, target);
  }
  const history = await recordAndRemove(deps, target, trigger, options, {
    runId,
    found: pids !== null,
    ended,
  });
  return { found: pids !== null, ...ended, coverage, close, history };
}

/**
 * Ends `victims`, then what the session started while it was being ended (a SIGTERM-deaf
 * supervisor restarting the worker SIGTERM just ended, before SIGKILL reached the supervisor),
 * which carries its run id too: searched again until a search finds nothing new (a few rounds).
 */
async function endProcesses(
  deps: Deps,
  victims: Awaited<ReturnType<typeof collectVictims>>,
  ctx: {
    runId: string | null;
    pids: Awaited<ReturnType<typeof sessionPanePids>>;
    terminateOptions: Parameters<typeof terminate>[1];
  },
): Promise<Awaited<ReturnType<typeof terminate>>> {
  const { runId, pids, terminateOptions } = ctx;
  let ended = await terminate(victims, terminateOptions);
  const seen = new Set(victims.map((v) => `${v.pid}:${v.start}`));
  for (let round = 0; runId !== null && round < LATE_ROUNDS; round++) {
    const late = (await collectVictims({
      panePids: [],
      runId,
      exclude: pids?.serverPid ? [pids.serverPid] : [],
      runner: deps.runner,
    })).filter((v) => !seen.has(`${v.pid}:${v.start}`));
    if (late.length === 0) break;
    late.forEach((v) => seen.add(`${v.pid}:${v.start}`));
    const more = await terminate(late, terminateOptions);
    ended = {
      signalled: ended.signalled + more.signalled,
      remaining: [...ended.remaining, ...more.remaining],
    };
  }
  return ended;
}

/**
 * History takes the session's files, they are removed (what history could not take stays), and
 * the kill goes into the event log; what history recorded.
 */
async function recordAndRemove(
  deps: Deps,
  target: Target,
  trigger: string,
  options: KillCommon,
  done: {
    runId: string | null;
    found: boolean;
    ended: Awaited<ReturnType<typeof terminate>>;
  },
): Promise<KillHistory> {
  const { runId, ended } = done;
  const paths = sessionPaths(target.runtimeDir, target.hash, target.session);
  // History keeps what the hook and event files say before they go (turns, tools, replies);
  // what it cannot take now stays for the next ingestion.
  const recording = await recordBeforeRemoval(deps, [{ ...target, runId }], "killed");
  const keep = !recording.recorded;
  const allHashes = options.cleanupAllHashes ?? deps.config.cleanupAllHashes;
  const removed = removeSessionArtifacts(target.runtimeDir, target.session, {
    hash: target.hash,
    keepHooks: keep,
  });
  // Other projects' files of the name: only what their gone sessions left, and never a hook log
  // (history has not read those sessions here; its next read takes them).
  if (allHashes) {
    removed.push(
      ...await removeLeftUnderOtherHashes(deps, target.runtimeDir, target.session, target.hash),
    );
  }
  const alias = target.meta?.alias ?? target.alias;
  // A name nobody knew (a typo) gets no event log: nothing would ever read or prune it.
  if (done.found || removed.length > 0 || ended.signalled > 0 || pathExists(paths.events)) {
    await appendLifecycle(deps, paths.events, target.session, {
      runId,
      state: "not_found",
      status: "not_found",
      reason: done.found ? "killed" : "kill_not_found",
      // The meta goes now: the log's last event keeps the alias naming the session.
      ...(alias ? { alias } : {}),
      trigger,
      signalled: ended.signalled,
      remaining: ended.remaining,
      // The meta goes: the ingestion that takes the kept files reads its facts from here.
      ...(keep ? { history: "not_recorded", meta: target.meta ?? null } : {}),
    });
  }
  const history: KillHistory = keep
    ? {
      recorded: false,
      keptFiles: [paths.hooks, paths.events].filter(pathExists),
      ...(recording.error
        ? { errorCode: recording.error.code, error: recording.error.message }
        : {}),
    }
    : { recorded: true, keptFiles: [] };
  return history;
}

/** The history facts of several ended sessions as one. */
function bothRecorded(a: KillHistory, b: KillHistory): KillHistory {
  if (b.recorded) return a;
  return {
    recorded: false,
    keptFiles: [...a.keptFiles, ...b.keptFiles],
    errorCode: a.errorCode ?? b.errorCode,
    error: a.error ?? b.error,
  };
}

interface Ordered {
  target: Target;
  trigger: string;
}

interface EndAllResult {
  history: KillHistory;
  worktrees: KeptWorktree[];
  killed: string[];
  found: Set<string>;
  processes: ProcessReport;
  /** `kill-session` of the caller's own session(s), to run after the result is out. */
  closes: (() => Promise<void>)[];
}

/** The caller's own session (LISA_SESSION_NAME) moved to the end; the rest keep their order. */
function ownLast(deps: Deps, targets: readonly Ordered[]): Ordered[] {
  const own = deps.config.sessionName;
  return [
    ...targets.filter((t) => t.target.session !== own),
    ...targets.filter((t) => t.target.session === own),
  ];
}

async function endAll(
  deps: Deps,
  targets: readonly Ordered[],
  options: KillCommon,
): Promise<EndAllResult> {
  const killed: string[] = [];
  const found = new Set<string>();
  const processes: ProcessReport = { signalled: 0, remaining: [], coverage: fullCoverage() };
  const closes: (() => Promise<void>)[] = [];
  const worktrees: KeptWorktree[] = [];
  let history: KillHistory = { recorded: true, keptFiles: [] };
  const caller = callerOf(deps);
  for (const { target, trigger } of ownLast(deps, targets)) {
    const r = await endSession(deps, target, trigger, options, caller);
    if (r.found) {
      killed.push(target.session);
      found.add(target.session);
    }
    const wt = target.meta?.worktree;
    if (wt !== undefined) {
      worktrees.push({ session: target.session, path: wt.path, branch: wt.branch });
    }
    if (r.close) closes.push(r.close);
    history = bothRecorded(history, r.history);
    processes.signalled += r.signalled;
    processes.coverage = bothCovered(processes.coverage, r.coverage);
    processes.remaining.push(...r.remaining.map((s) => ({ ...s, session: target.session })));
  }
  return { killed, found, processes, closes, worktrees, history };
}

/**
 * Kills `session` and its descendants. Throws `invalid_session_name`, and `session_not_found`
 * (exit 1, after cleaning up whatever it left: descendants, stray processes, artifacts) when
 * tmux has no such session.
 */
export async function killSessionTree(deps: Deps, options: KillOptions): Promise<KillResult> {
  // An alias (or a prefix of one) is resolved here, once, to a full name; a full name is taken
  // exactly, never as a prefix of another (issue 9); tmux targets stay exact.
  const loc = await locateSession(deps, options.session, options.projectRoot);
  const name = validateSessionName(loc.session);
  const root: Target = {
    session: name,
    hash: loc.hash,
    socketPath: loc.socketPath,
    runtimeDir: loc.runtimeDir,
    meta: loc.meta,
    ...(loc.alias ? { alias: loc.alias } : {}),
  };
  const runId = await runIdOf(deps, root);
  const targets = [
    ...descendantsOf(loc.runtimeDir, [{ session: name, runId }]).map((target) => ({
      target,
      trigger: "kill_descendant",
    })),
    { target: root, trigger: "kill" },
  ];
  const known = loc.meta !== undefined || loc.alias !== undefined || pathExists(loc.paths.events);
  return await deafToHangup(async (ownClosed) => {
    const { killed, found, processes, closes, worktrees, history } = await endAll(
      deps,
      targets,
      options,
    );
    try {
      pruneOldEvents(loc.runtimeDir, deps.config.eventRetentionDays, deps.now().getTime());
      if (!found.has(name)) {
        const label = loc.alias ? `${name} (${loc.alias})` : `"${name}"`;
        // A session lisa knew (its files, or what outlives a kill) is gone; anything else was
        // never there.
        const message = known
          ? `Session ${label} is already gone: tmux no longer has it, so there was nothing ` +
            "to kill (its history: lisa history show " + name + ")"
          : `Session "${name}" was not found`;
        throw new LisaError("session_not_found", message, {
          details: {
            session: name,
            found: false,
            killed,
            processes,
            projectRoot: loc.projectRoot,
            history,
          },
        });
      }
      const result: KillResult = {
        ok: processes.remaining.length === 0,
        session: name,
        killed,
        processes,
        projectRoot: loc.projectRoot,
        worktrees,
        history,
      };
      options.announce?.(result);
      return result;
    } finally {
      if (closes.length > 0) ownClosed();
      await closeOwn(deps, closes);
    }
  });
}

/**
 * Kills every lisa session of the project's server (`projectOnly`) or of every lisa server in
 * the socket dir, each with its descendants, descendants first. Without `projectOnly`, the
 * artifacts of those names are removed under every hash unless `cleanupAllHashes` is false.
 */
export async function killAllSessions(deps: Deps, options: KillAllOptions): Promise<KillAllResult> {
  const project = resolveProject(deps, options.projectRoot);
  const projectOnly = options.projectOnly ?? false;
  const cleanupAllHashes = options.cleanupAllHashes ??
    (deps.config.cleanupAllHashes || !projectOnly);
  const listed = await gatherSessions(deps, project, { projectOnly, allSockets: !projectOnly });
  const roots: Target[] = listed.map((s) => ({
    session: s.session,
    hash: s.projectHash ?? project.hash,
    socketPath: s.socketPath,
    runtimeDir: project.runtimeDir,
    meta: tryReadMeta(
      sessionPaths(project.runtimeDir, s.projectHash ?? project.hash, s.session)
        .meta,
    ),
  }));
  // A session is its server and its name: two projects may each run a `lisa-x`.
  // The socket path as the listing and as a meta spell it may differ (a symlinked directory).
  const canonical = new Map<string, string>();
  const keyOf = (t: Target) => {
    let socket = canonical.get(t.socketPath);
    if (socket === undefined) {
      try {
        socket = Deno.realPathSync(t.socketPath);
      } catch {
        socket = t.socketPath;
      }
      canonical.set(t.socketPath, socket);
    }
    return `${socket}\n${t.session}`;
  };
  const rootByKey = new Map(roots.map((r) => [keyOf(r), r]));
  // Order: every descendant before its ancestors; listed sessions that are descendants of other
  // listed sessions come out of the walk already, in the right place.
  const ordered: Ordered[] = [];
  const placed = new Set<string>();
  for (const [rootKey, root] of rootByKey) {
    if (placed.has(rootKey)) continue;
    for (
      const d of descendantsOf(project.runtimeDir, [{
        session: root.session,
        runId: await runIdOf(deps, root),
      }])
    ) {
      const key = keyOf(d);
      if (placed.has(key)) continue;
      placed.add(key);
      const listed = rootByKey.get(key);
      ordered.push({ target: listed ?? d, trigger: listed ? "kill_all" : "kill_descendant" });
    }
    placed.add(rootKey);
    ordered.push({ target: root, trigger: "kill_all" });
  }
  return await deafToHangup(async (ownClosed) => {
    const { killed, processes, closes, worktrees, history } = await endAll(deps, ordered, {
      ...options,
      cleanupAllHashes,
    });
    try {
      pruneOldEvents(project.runtimeDir, deps.config.eventRetentionDays, deps.now().getTime());
      const result: KillAllResult = {
        ok: processes.remaining.length === 0,
        killed,
        count: killed.length,
        processes,
        worktrees,
        history,
        projectRoot: project.root,
        projectOnly,
        cleanupAllHashes,
      };
      options.announce?.(result);
      return result;
    } finally {
      if (closes.length > 0) ownClosed();
      await closeOwn(deps, closes);
    }
  });
}
