/**
 * What lisa left behind and can prove stale: the plan `lisa cleanup` carries out (and
 * `list --stale --prune-preview` shows). Read-only: it lists the runtime and socket dirs and asks
 * each server once which sessions it has; it removes nothing. The older tool killed every tmux
 * server without an attached client, i.e. every live session (DESIGN §9 item 8); here a file is
 * stale only when
 *
 * - a socket: no server answers on it (`list-sessions` says no server / connection refused);
 * - a session's artifacts: its server is gone or no longer lists the session, and none of its
 *   files changed within a grace period (a spawn may be preparing them right now; the state
 *   file and event log a status poll writes do not count);
 * - a startup script: older than an hour and its session is not live.
 *
 * Event logs of gone sessions are kept for post-mortems until `LISA_EVENT_RETENTION_DAYS`.
 * An unanswered probe that is not "no server" (a timeout, a permission error) keeps everything
 * that depends on it.
 */
import type { Deps } from "../../base/deps.ts";
import { joinPath } from "../../base/paths.ts";
import { fileIdentity, readJsonIfExists } from "../../store/atomic.ts";
import {
  CMD_SCRIPT_RE,
  ensureRuntimeDir,
  OUTPUT_ARTIFACT_RE,
  SESSION_ARTIFACT_RE,
  SOCKET_RE,
} from "../../store/runtime_dir.ts";
import { probeSocket, type SocketProbe } from "../../tmux/sessions.ts";

/** Options of {@link planCleanup}. */
export interface CleanupPlanOptions {
  /** Only this project hash (`--project-only`); all hashes when absent. */
  projectHash?: string;
  /** Files younger than this are never removed (default 60 s). */
  graceMs?: number;
  /** Startup scripts younger than this are kept (default 1 h). */
  scriptMaxAgeMs?: number;
}

/** A live session seen during cleanup. */
export interface LiveSession {
  session: string;
  socketPath: string;
}

/** A gone session's files: those that go, and the hook files among them. */
export interface GoneSession {
  hash: string;
  session: string;
  /** Its files that go (event logs past retention included, younger ones not). */
  files: string[];
  /** The hook files among `files`: they stay when history cannot take them first. */
  hookFiles: string[];
  /**
   * Each of `files` with its identity when listed (`fileIdentity`: inode, mtime): a file
   * replaced since is another session's.
   */
  identities: Record<string, string>;
}

/** What cleanup would remove and keep, and what it saw (see the module doc). */
export interface CleanupPlan {
  runtimeDir: string;
  /**
   * lisa's sockets no server answered on, each with its identity (inode, mtime) when probed:
   * one replaced since by a new server's socket is kept.
   */
  staleSockets: { path: string; identity: string | undefined }[];
  keptSockets: string[];
  /** Sessions whose server is gone or no longer lists them, and none of whose files is fresh. */
  goneSessions: GoneSession[];
  keptArtifacts: string[];
  staleScripts: string[];
  keptScripts: string[];
  /** Temp files of atomic writes a crash left between create and rename. */
  staleTemps: string[];
  liveSessions: LiveSession[];
  /** Sockets whose server could not be asked (not "no server"): nothing depending on them goes. */
  unknownSockets: { path: string; error: string }[];
}

const DEFAULT_GRACE_MS = 60_000;
const DEFAULT_SCRIPT_MAX_AGE_MS = 3_600_000;
// Temp files of atomic writes left by a crash between create and rename.
const ATOMIC_TEMP_RE = /^\.?lisa-([0-9a-f]{8})-.*\.tmp-\d+-[a-z0-9]+$/;

interface FileEntry {
  path: string;
  name: string;
  mtimeMs: number;
  /** Inode and mtime when listed (`fileIdentity`): a file replaced since is another. */
  identity: string;
}

function listDir(dir: string): FileEntry[] {
  const out: FileEntry[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return out;
    throw error;
  }
  for (const e of entries) {
    if (e.isDirectory || e.isSymlink) continue;
    const path = joinPath(dir, e.name);
    try {
      const info = Deno.lstatSync(path);
      out.push({
        path,
        name: e.name,
        mtimeMs: info.mtime?.getTime() ?? 0,
        identity: `${info.ino ?? ""}:${info.mtime?.getTime() ?? ""}`,
      });
    } catch { /* removed meanwhile */ }
  }
  return out;
}

interface Group {
  hash: string;
  session: string;
  files: FileEntry[];
}

function metaSocketPath(metaPath: string): string | undefined {
  try {
    const meta = readJsonIfExists<{ socketPath?: unknown }>(metaPath);
    return typeof meta?.socketPath === "string" ? meta.socketPath : undefined;
  } catch {
    return undefined;
  }
}

/** The files of the runtime and socket dirs, sorted by what they are. */
interface Listing {
  /** Sockets named like lisa's → their project hash. */
  ownSockets: Map<string, string>;
  /** Session artifacts by `hash/session`. */
  groups: Map<string, Group>;
  scripts: { file: FileEntry; hash: string; session: string }[];
  temps: FileEntry[];
}

/** Lists the runtime dir (and the socket dir) once, keeping what `wantHash` selects. */
function listFiles(
  runtimeDir: string,
  socketDir: string,
  wantHash: (hash: string) => boolean,
): Listing {
  const runtimeFiles = listDir(runtimeDir);
  const socketFiles = socketDir === runtimeDir ? [] : listDir(socketDir);
  // Sockets named like lisa's, in either dir (symlinks and directories are never listed).
  const ownSockets = new Map<string, string>(); // path → hash
  for (const f of [...runtimeFiles, ...socketFiles]) {
    const m = SOCKET_RE.exec(f.name);
    // A plain file by that name in lisa's private dir is lisa's too; the probe decides.
    if (m && wantHash(m[2])) ownSockets.set(f.path, m[2]);
  }
  const listing: Listing = { ownSockets, groups: new Map(), scripts: [], temps: [] };
  for (const f of runtimeFiles) {
    const art = SESSION_ARTIFACT_RE.exec(f.name) ?? OUTPUT_ARTIFACT_RE.exec(f.name);
    if (art) {
      if (!wantHash(art[1])) continue;
      const key = `${art[1]}/${art[2]}`;
      const g = listing.groups.get(key) ?? { hash: art[1], session: art[2], files: [] };
      g.files.push(f);
      listing.groups.set(key, g);
      continue;
    }
    const script = CMD_SCRIPT_RE.exec(f.name);
    if (script) {
      if (wantHash(script[1])) {
        listing.scripts.push({ file: f, hash: script[1], session: script[2] });
      }
      continue;
    }
    const temp = ATOMIC_TEMP_RE.exec(f.name);
    if (temp && wantHash(temp[1])) listing.temps.push(f);
  }
  return listing;
}

/** What the servers said: each probe, each socket's identity when probed, each group's server. */
interface Probes {
  probes: Map<string, SocketProbe>;
  identities: Map<string, string>;
  groupSockets: Map<string, string | undefined>;
}

/** Asks every server a session may live on, lisa's sockets plus the ones metas point at. */
async function probeServers(deps: Deps, listing: Listing): Promise<Probes> {
  const timeoutMs = deps.config.cmdTimeoutSeconds * 1000;
  const groupSockets = new Map<string, string | undefined>();
  const toProbe = new Set(listing.ownSockets.keys());
  for (const [key, g] of listing.groups) {
    const meta = g.files.find((f) => f.name.endsWith("-meta.json"));
    const sock = meta ? metaSocketPath(meta.path) : undefined;
    groupSockets.set(key, sock);
    if (sock !== undefined) toProbe.add(sock);
  }
  const probes = new Map<string, SocketProbe>();
  const identities = new Map<string, string>();
  await Promise.all(
    [...toProbe].map(async (path) => {
      const id = fileIdentity(path);
      if (id === null) return probes.set(path, { kind: "stale" });
      identities.set(path, id);
      probes.set(path, await probeSocket(deps.runner, path, timeoutMs));
    }),
  );
  return { probes, identities, groupSockets };
}

/** Per project hash: the live session names, and whether any server could not be asked. */
interface Liveness {
  liveSessions: LiveSession[];
  unknownSockets: { path: string; error: string }[];
  liveByHash: Map<string, Set<string>>;
  unsureHashes: Set<string>;
}

function livenessOf(probes: Map<string, SocketProbe>): Liveness {
  const out: Liveness = {
    liveSessions: [],
    unknownSockets: [],
    liveByHash: new Map(),
    unsureHashes: new Set(),
  };
  const hashOfSocket = (path: string) => SOCKET_RE.exec(path.slice(path.lastIndexOf("/") + 1))?.[2];
  for (const [path, probe] of probes) {
    const hash = hashOfSocket(path);
    if (probe.kind === "live") {
      for (const s of probe.sessions) out.liveSessions.push({ session: s, socketPath: path });
      if (hash !== undefined) {
        const set = out.liveByHash.get(hash) ?? new Set<string>();
        probe.sessions.forEach((s) => set.add(s));
        out.liveByHash.set(hash, set);
      }
    } else if (probe.kind === "unknown") {
      out.unknownSockets.push({ path, error: probe.error });
      if (hash !== undefined) out.unsureHashes.add(hash);
    }
  }
  out.liveSessions.sort((a, b) => a.session.localeCompare(b.session));
  return out;
}

/**
 * Which sessions' files go: those not live on the meta's server nor on any lisa server of the
 * same project hash, whose server answered, and none of whose files is fresh.
 */
function sessionVerdicts(
  deps: Deps,
  listing: Listing,
  found: Probes,
  live: Liveness,
  times: { now: number; graceMs: number },
): { gone: GoneSession[]; kept: string[] } {
  const { now, graceMs } = times;
  const retentionMs = deps.config.eventRetentionDays * 86_400_000;
  const out = { gone: [] as GoneSession[], kept: [] as string[] };
  for (const [key, g] of listing.groups) {
    const sock = found.groupSockets.get(key);
    const probe = sock === undefined ? undefined : found.probes.get(sock);
    const isLive = (probe?.kind === "live" && probe.sessions.includes(g.session)) ||
      live.liveByHash.get(g.hash)?.has(g.session) === true;
    const unsure = probe?.kind === "unknown" || live.unsureHashes.has(g.hash);
    // A poll's own writes (state, events: a list of lost sessions records them) are no sign of
    // life; a spawn preparing its files writes the others.
    const fresh = g.files.some((f) =>
      !/-(state\.json|events\.jsonl)(\.lock)?$/.test(f.name) && now - f.mtimeMs < graceMs
    );
    if (isLive || unsure || fresh) {
      out.kept.push(...g.files.map((f) => f.path));
      continue;
    }
    const gone: GoneSession = {
      hash: g.hash,
      session: g.session,
      files: [],
      hookFiles: [],
      identities: {},
    };
    for (const f of g.files) {
      if (/-events\.jsonl(\.lock)?$/.test(f.name) && now - f.mtimeMs < retentionMs) {
        out.kept.push(f.path);
        continue;
      }
      gone.files.push(f.path);
      gone.identities[f.path] = f.identity;
      if (/-hooks\.jsonl(\.lock)?$/.test(f.name)) gone.hookFiles.push(f.path);
    }
    out.gone.push(gone);
  }
  return out;
}

/**
 * Finds stale lisa sockets, artifacts and startup scripts in the runtime dir (and the socket
 * dir); removes nothing and kills nothing. Throws only when the runtime dir is unsafe.
 */
export async function planCleanup(deps: Deps, options: CleanupPlanOptions): Promise<CleanupPlan> {
  const runtimeDir = ensureRuntimeDir(deps.config.runtimeDir, deps.uid);
  const socketDir = deps.config.tmuxSocketDir ?? runtimeDir;
  const now = deps.now().getTime();
  const scriptMaxAge = options.scriptMaxAgeMs ?? DEFAULT_SCRIPT_MAX_AGE_MS;
  const wantHash = (hash: string) =>
    options.projectHash === undefined || hash === options.projectHash;
  const listing = listFiles(runtimeDir, socketDir, wantHash);
  const found = await probeServers(deps, listing);
  const live = livenessOf(found.probes);
  const plan: CleanupPlan = {
    runtimeDir,
    staleSockets: [],
    keptSockets: [],
    goneSessions: [],
    keptArtifacts: [],
    staleScripts: [],
    keptScripts: [],
    staleTemps: [],
    liveSessions: live.liveSessions,
    unknownSockets: live.unknownSockets,
  };
  for (const [path, probe] of found.probes) {
    if (!listing.ownSockets.has(path)) continue;
    if (probe.kind === "stale") {
      plan.staleSockets.push({ path, identity: found.identities.get(path) });
    } else plan.keptSockets.push(path);
  }
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const verdicts = sessionVerdicts(deps, listing, found, live, { now, graceMs });
  plan.goneSessions = verdicts.gone;
  plan.keptArtifacts = verdicts.kept;
  for (const s of listing.scripts) {
    const isLive = live.liveByHash.get(s.hash)?.has(s.session) === true ||
      live.unsureHashes.has(s.hash);
    if (isLive || now - s.file.mtimeMs < scriptMaxAge) plan.keptScripts.push(s.file.path);
    else plan.staleScripts.push(s.file.path);
  }
  for (const t of listing.temps) {
    if (now - t.mtimeMs >= scriptMaxAge) plan.staleTemps.push(t.path);
  }
  return plan;
}
