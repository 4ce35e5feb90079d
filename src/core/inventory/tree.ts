/**
 * `lisa session tree`, the I/O side: reads the metas of this project (or of every project) in
 * the runtime dir, asks each tmux server once which sessions live (one `list-sessions` per
 * socket, whatever the number of sessions), and keeps the topology snapshot for `--delta`.
 * `--with-state` classifies every session live, as `status` would now (`status/fleet.ts`: the same
 * classifier, one tmux invocation per socket in place of `list-sessions`, `/proc` reads).
 * The graph itself is built by the pure `tree.ts`.
 */
import type { Deps } from "../../base/deps.ts";
import { lazyImport } from "../../base/lazy.ts";
import {
  type Project,
  resolveProject,
  scanMetaFiles,
  sessionKey,
  type SessionLocation,
  shownAgent,
  tryReadMeta,
} from "../session/mod.ts";
import type { StatusOutcome } from "../status/mod.ts";
import {
  buildTree,
  filterTree,
  parseSnapshot,
  type TreeDelta,
  treeDelta,
  type TreeInput,
  type TreeNode,
  treeSnapshot,
  walkTree,
} from "./tree_graph.ts";
import type { SessionMeta } from "../../base/types.ts";
import { readJsonIfExists, readTextIfExists, writeJsonAtomic } from "../../store/atomic.ts";
import { sessionPaths, treeDeltaPath } from "../../store/runtime_dir.ts";
import { listSessions, paneRowOf, type SessionRow } from "../../tmux/sessions.ts";
import { hasPaneIds, Tmux } from "../../tmux/tmux.ts";

/** Options of {@link runTree}. */
export interface TreeOptions {
  projectRoot?: string;
  /** Metas of every project hash in the runtime dir, not only this project's. */
  allHashes?: boolean;
  /** Only sessions tmux still has (descendants of gone sessions move up). */
  activeOnly?: boolean;
  /** Add each node's state (and exit code when known), without extra tmux calls. */
  withState?: boolean;
  /** Compare with the previous `--delta` call and store this topology for the next one. */
  delta?: boolean;
  /** Keep the `--delta` snapshot in this file instead (`--delta-json --cursor-file`). */
  deltaPath?: string;
}

/** The tree as `session tree --json` prints it. */
export interface TreeResult {
  projectRoot: string;
  projectHash: string;
  allHashes: boolean;
  activeOnly: boolean;
  roots: TreeNode[];
  cycles: string[][];
  danglingParents: string[];
  nodeCount: number;
  activeCount: number;
  /** Sockets whose server could not be asked (their sessions have no `active` field). */
  unreachableSockets: string[];
  delta?: TreeDelta;
}

/** One `list-sessions` per socket: socket → its sessions by name, or null when unreachable. */
export async function liveSessionsBySocket(
  deps: Deps,
  sockets: Iterable<string>,
): Promise<Map<string, Map<string, SessionRow> | null>> {
  const out = new Map<string, Map<string, SessionRow> | null>();
  const timeoutMs = deps.config.cmdTimeoutSeconds * 1000;
  await Promise.all(
    [...new Set(sockets)].map(async (socket) => {
      try {
        const rows = await listSessions(new Tmux(deps.runner, socket, timeoutMs));
        out.set(socket, new Map(rows.map((r) => [r.session, r])));
      } catch {
        out.set(socket, null);
      }
    }),
  );
  return out;
}

/**
 * Builds the session tree. Never fails on inconsistent metadata (cycles and dangling parents
 * are reported); throws only the project errors of `resolveProject`.
 */
export async function runTree(deps: Deps, options: TreeOptions): Promise<TreeResult> {
  const project = resolveProject(deps, options.projectRoot);
  const allHashes = options.allHashes === true;
  const metas = treeMetas(project, allHashes);
  const sockets = metas.map((m) => m.socketPath).filter((s) => s !== "");
  const { live, states } = options.withState
    ? await liveWithStates(deps, project, metas, sockets)
    : { live: await liveSessionsBySocket(deps, sockets), states: null };
  const inputs: TreeInput[] = metas.map((m) => ({
    session: m.session,
    parentSession: m.parentSession ?? null,
    agent: shownAgent(m),
    mode: m.mode ?? null,
    createdAt: m.createdAt,
    projectHash: m.projectHash,
    ...(typeof m.projectRoot === "string" ? { projectRoot: m.projectRoot } : {}),
    ...(typeof m.runId === "string" ? { runId: m.runId } : {}),
    ...(typeof m.parentRunId === "string" ? { parentRunId: m.parentRunId } : {}),
  }));
  const graph = buildTree(inputs);
  const activeCount = markLiveness(graph.roots, metas, { live, states }, project.runtimeDir);
  const result: TreeResult = {
    projectRoot: project.root,
    projectHash: project.hash,
    allHashes,
    activeOnly: options.activeOnly === true,
    roots: options.activeOnly ? filterTree(graph.roots, (n) => n.active === true) : graph.roots,
    cycles: graph.cycles,
    danglingParents: graph.danglingParents,
    nodeCount: graph.nodeCount,
    activeCount,
    unreachableSockets: [...live].filter(([, v]) => v === null).map(([k]) => k).sort(),
  };
  if (options.delta) {
    // The snapshot is the metadata topology (not the --active-only view), per hash scope.
    const path = options.deltaPath ??
      treeDeltaPath(project.runtimeDir, allHashes ? "all" : project.hash);
    let previous;
    try {
      previous = parseSnapshot(readJsonIfExists<unknown>(path));
    } catch {
      previous = undefined;
    }
    const current = treeSnapshot(graph.roots, deps.now());
    result.delta = treeDelta(previous, current);
    writeJsonAtomic(path, current);
  }
  return result;
}

/** A tree meta: the session's meta with its name, hash, server and creation time filled in. */
type TreeMeta = SessionMeta & { projectHash: string; socketPath: string; createdAt: string };

/** The metas of the project (or of every project with `allHashes`) in the runtime dir. */
function treeMetas(project: Project, allHashes: boolean): TreeMeta[] {
  const metas: TreeMeta[] = [];
  for (const file of scanMetaFiles(project.runtimeDir)) {
    if (!allHashes && file.hash !== project.hash) continue;
    const meta = tryReadMeta(file.path);
    if (meta === undefined || typeof meta.session !== "string") continue;
    metas.push({
      ...meta,
      session: file.session,
      projectHash: meta.projectHash ?? file.hash,
      socketPath: meta.socketPath || (file.hash === project.hash ? project.socketPath : ""),
      createdAt: typeof meta.createdAt === "string" ? meta.createdAt : "",
    });
  }
  return metas;
}

/** Which sessions tmux has, per server (null: unreachable), and what status says of each. */
interface Liveness {
  live: Map<string, Map<string, SessionRow> | null>;
  states: Map<string, StatusOutcome> | null;
}

/** `--with-state`: every session classified as status would now, one tmux call per server. */
async function liveWithStates(
  deps: Deps,
  project: Project,
  metas: readonly TreeMeta[],
  sockets: string[],
): Promise<Liveness> {
  const { fleetStatuses, paneOf } = await lazyImport<typeof import("./live_states.ts")>(
    new URL("./live_states.ts", import.meta.url),
  );
  const candidates: SessionLocation[] = metas.filter((m) => m.socketPath !== "").map((m) => ({
    session: m.session,
    hash: m.projectHash,
    // A meta without its project root (an older or partial one) reads as this project's.
    projectRoot: m.projectRoot ?? project.root,
    runtimeDir: project.runtimeDir,
    socketPath: m.socketPath,
    paths: sessionPaths(project.runtimeDir, m.projectHash, m.session),
    meta: m,
    project,
  }));
  const fleet = await fleetStatuses(deps, { candidates, sockets });
  const live = new Map<string, Map<string, SessionRow> | null>();
  for (const [socket, reading] of fleet.readings) {
    live.set(socket, reading.reachable ? new Map() : null);
  }
  // Each session's own pane (its meta's ids), not whichever pane tmux calls active.
  for (const loc of candidates) {
    const reading = fleet.readings.get(loc.socketPath);
    const p = paneOf(reading, loc.session, loc.meta).probe;
    if (!p.exists) continue;
    const facts = { panePid: p.panePid ?? 0, paneDead: p.dead, paneDeadStatus: p.deadStatus };
    const ids = loc.meta;
    live.get(loc.socketPath)?.set(loc.session, {
      session: loc.session,
      createdAt: p.createdAtSeconds ?? 0,
      ...facts,
      panes: hasPaneIds(ids) ? [{ windowId: ids.windowId, paneId: ids.paneId, ...facts }] : [],
    });
  }
  return { live, states: fleet.outcomes };
}

/** Marks each node active, alive and (with states) its state; the number of active nodes. */
function markLiveness(
  roots: TreeNode[],
  metas: readonly TreeMeta[],
  { live, states }: Liveness,
  runtimeDir: string,
): number {
  // A node is its project and its name: two projects may each have a session of one name.
  const metaOf = new Map(metas.map((m) => [`${m.projectHash}\n${m.session}`, m]));
  let activeCount = 0;
  walkTree(roots, (n) => {
    const meta = metaOf.get(`${n.projectHash}\n${n.session}`)!;
    const rows = live.get(meta.socketPath);
    if (rows === null) return; // server unreachable: leave active/state unset
    const session = rows?.get(n.session);
    // The session's own pane (its meta's ids), not the one tmux calls active.
    const row = session === undefined ? undefined : paneRowOf(session, meta);
    const done = doneExitOf(runtimeDir, meta);
    n.active = row !== undefined;
    n.alive = row !== undefined && !row.paneDead && done === null;
    if (n.active) activeCount++;
    const outcome = states?.get(sessionKey(meta.socketPath, n.session));
    if (outcome !== undefined) {
      const r = outcome.report;
      n.state = r.sessionState;
      n.waitingFor = r.waitingFor;
      n.classificationReason = r.classificationReason;
      n.alias = meta.alias ?? null;
      n.alive = n.active && r.sessionState !== "completed" && r.sessionState !== "crashed";
      if (r.exitCode !== null) n.exitCode = r.exitCode;
    } else if (!n.alive) {
      // The exit is at hand either way; plain labels show it ("exited 3").
      const exit = row?.paneDead ? (row.paneDeadStatus ?? done) : done;
      if (exit !== null) n.exitCode = exit;
    }
  });
  return activeCount;
}

/** The exit status in the done file of `meta`'s run; null when absent, unreadable or stale. */
export function doneExitOf(runtimeDir: string, meta: SessionMeta): number | null {
  const paths = sessionPaths(runtimeDir, meta.projectHash, meta.session);
  try {
    const text = readTextIfExists(paths.done)?.trim() ?? "";
    const m = /^(.+):(-?\d+)$/.exec(text);
    if (m && m[1] === meta.runId) return Number(m[2]);
  } catch { /* unreadable: no evidence */ }
  return null;
}
