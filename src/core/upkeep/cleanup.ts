/**
 * `lisa cleanup`: removes what lisa left behind and can prove stale. The older tool killed every
 * tmux server without an attached client, i.e. every live session (DESIGN §9 item 8). Here
 * cleanup never kills anything: it only deletes files, and only when
 *
 * - a socket: no server answers on it (`list-sessions` says no server / connection refused);
 * - a session's artifacts: its server is gone or no longer lists the session, and none of its
 *   files changed within a grace period (a spawn may be preparing them right now; the state
 *   file and event log a status poll writes do not count);
 * - a startup script: older than an hour and its session is not live.
 *
 * Event logs of gone sessions are kept for post-mortems until `LISA_EVENT_RETENTION_DAYS`.
 * An unanswered probe that is not "no server" (a timeout, a permission error) keeps everything
 * that depends on it. `--dry-run` computes the same plan and changes nothing.
 */
import type { Deps } from "../../base/deps.ts";
import { joinPath } from "../../base/paths.ts";
import type { Runner } from "../../base/runner.ts";
import { readJsonIfExists } from "../../store/atomic.ts";
import {
  CMD_SCRIPT_RE,
  ensureRuntimeDir,
  OUTPUT_ARTIFACT_RE,
  SESSION_ARTIFACT_RE,
  SOCKET_RE,
} from "../../store/runtime_dir.ts";
import { probeSocket, type SocketProbe } from "../../tmux/sessions.ts";
import { recordBeforeRemoval, recordKey } from "../history/recorder.ts";

/** Options of {@link runCleanup}. */
export interface CleanupOptions {
  dryRun: boolean;
  /** Only this project hash (`--project-only`); all hashes when absent. */
  projectHash?: string;
  /** Files younger than this are never removed (default 60 s). */
  graceMs?: number;
  /** Startup scripts younger than this are kept (default 1 h). */
  scriptMaxAgeMs?: number;
}

/** Removed or kept paths by kind. */
export interface CleanupPaths {
  sockets: string[];
  artifacts: string[];
  scripts: string[];
}

/** A live session seen during cleanup. */
export interface LiveSession {
  session: string;
  socketPath: string;
}

/** What cleanup did (or, with `dryRun`, would do). */
export interface CleanupReport {
  dryRun: boolean;
  removed: CleanupPaths;
  kept: CleanupPaths;
  liveSessions: LiveSession[];
  /** Sockets whose server could not be asked (not "no server"): nothing depending on them goes. */
  unknownSockets: { path: string; error: string }[];
  /** Files that could not be removed. */
  errors: { path: string; error: string }[];
}

const DEFAULT_GRACE_MS = 60_000;
const DEFAULT_SCRIPT_MAX_AGE_MS = 3_600_000;
// Temp files of atomic writes left by a crash between create and rename.
const ATOMIC_TEMP_RE = /^\.?lisa-([0-9a-f]{8})-.*\.tmp-\d+-[a-z0-9]+$/;

/** Inode and mtime of `path` (not followed), or null when it does not exist. */
function fileIdentity(path: string): string | null {
  try {
    const info = Deno.lstatSync(path);
    return `${info.ino ?? ""}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return null;
  }
}

/**
 * Removes the socket at `path` when no server answers on it and nobody replaced it meanwhile.
 * Returns true when it was removed. Never stops a server.
 */
export async function removeStaleSocket(
  runner: Runner,
  path: string,
  timeoutMs: number,
): Promise<boolean> {
  const id = fileIdentity(path);
  if (id === null) return false;
  if ((await probeSocket(runner, path, timeoutMs)).kind !== "stale") return false;
  if (fileIdentity(path) !== id) return false;
  try {
    Deno.removeSync(path);
    return true;
  } catch {
    return false;
  }
}

interface FileEntry {
  path: string;
  name: string;
  mtimeMs: number;
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

/**
 * Finds stale lisa sockets, artifacts and startup scripts in the runtime dir (and the socket
 * dir) and removes them unless `dryRun`. Kills nothing. Removal failures are reported in
 * `errors`, not thrown; throws only when the runtime dir is unsafe.
 */
export async function runCleanup(deps: Deps, options: CleanupOptions): Promise<CleanupReport> {
  const runtimeDir = ensureRuntimeDir(deps.config.runtimeDir, deps.uid);
  const socketDir = deps.config.tmuxSocketDir ?? runtimeDir;
  const now = deps.now().getTime();
  const grace = options.graceMs ?? DEFAULT_GRACE_MS;
  const scriptMaxAge = options.scriptMaxAgeMs ?? DEFAULT_SCRIPT_MAX_AGE_MS;
  const retentionMs = deps.config.eventRetentionDays * 86_400_000;
  const wantHash = (hash: string) =>
    options.projectHash === undefined || hash === options.projectHash;
  const timeoutMs = deps.config.cmdTimeoutSeconds * 1000;

  const runtimeFiles = listDir(runtimeDir);
  const socketFiles = socketDir === runtimeDir ? runtimeFiles : listDir(socketDir);

  // Sockets named like lisa's, in either dir (symlinks and directories are never listed).
  const ownSockets = new Map<string, string>(); // path → hash
  for (const f of [...runtimeFiles, ...(socketDir === runtimeDir ? [] : socketFiles)]) {
    const m = SOCKET_RE.exec(f.name);
    // A plain file by that name in lisa's private dir is lisa's too; the probe decides.
    if (m && wantHash(m[2])) ownSockets.set(f.path, m[2]);
  }

  // Group session artifacts by (hash, session).
  const groups = new Map<string, Group>();
  const scripts: { file: FileEntry; hash: string; session: string }[] = [];
  const temps: FileEntry[] = [];
  for (const f of runtimeFiles) {
    const art = SESSION_ARTIFACT_RE.exec(f.name) ?? OUTPUT_ARTIFACT_RE.exec(f.name);
    if (art) {
      if (!wantHash(art[1])) continue;
      const key = `${art[1]}/${art[2]}`;
      const g = groups.get(key) ?? { hash: art[1], session: art[2], files: [] };
      g.files.push(f);
      groups.set(key, g);
      continue;
    }
    const script = CMD_SCRIPT_RE.exec(f.name);
    if (script) {
      if (wantHash(script[1])) scripts.push({ file: f, hash: script[1], session: script[2] });
      continue;
    }
    const temp = ATOMIC_TEMP_RE.exec(f.name);
    if (temp && wantHash(temp[1])) temps.push(f);
  }

  // Every server a session may live on: lisa's sockets plus the ones metas point at.
  const groupSockets = new Map<string, string | undefined>();
  const toProbe = new Set(ownSockets.keys());
  for (const [key, g] of groups) {
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

  const report: CleanupReport = {
    dryRun: options.dryRun,
    removed: { sockets: [], artifacts: [], scripts: [] },
    kept: { sockets: [], artifacts: [], scripts: [] },
    liveSessions: [],
    unknownSockets: [],
    errors: [],
  };
  // Per hash: live session names, and whether any server of that hash could not be asked.
  const liveByHash = new Map<string, Set<string>>();
  const unsureHashes = new Set<string>();
  const hashOfSocket = (path: string) => SOCKET_RE.exec(path.slice(path.lastIndexOf("/") + 1))?.[2];
  for (const [path, probe] of probes) {
    const hash = hashOfSocket(path);
    if (probe.kind === "live") {
      for (const s of probe.sessions) report.liveSessions.push({ session: s, socketPath: path });
      if (hash !== undefined) {
        const set = liveByHash.get(hash) ?? new Set<string>();
        probe.sessions.forEach((s) => set.add(s));
        liveByHash.set(hash, set);
      }
    } else if (probe.kind === "unknown") {
      report.unknownSockets.push({ path, error: probe.error });
      if (hash !== undefined) unsureHashes.add(hash);
    }
  }
  report.liveSessions.sort((a, b) => a.session.localeCompare(b.session));

  const remove = (path: string, kind: keyof CleanupPaths) => {
    if (!options.dryRun) {
      try {
        Deno.removeSync(path);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) {
          report.errors.push({ path, error: (error as Error).message });
          return;
        }
      }
    }
    report.removed[kind].push(path);
  };

  for (const [path, probe] of probes) {
    if (!ownSockets.has(path)) continue;
    // A new server may have replaced the dead one's socket since the probe: keep it then.
    if (probe.kind === "stale" && fileIdentity(path) === identities.get(path)) {
      remove(path, "sockets");
    } else report.kept.sockets.push(path);
  }

  const verdicts = [...groups].map(([key, g]) => {
    const sock = groupSockets.get(key);
    const probe = sock === undefined ? undefined : probes.get(sock);
    // Live on the meta's server or on any lisa server of the same project hash.
    const live = (probe?.kind === "live" && probe.sessions.includes(g.session)) ||
      liveByHash.get(g.hash)?.has(g.session) === true;
    const unsure = probe?.kind === "unknown" || unsureHashes.has(g.hash);
    // A poll's own writes (state, events: a list of lost sessions records them) are no sign of
    // life; a spawn preparing its files writes the others.
    const fresh = g.files.some((f) =>
      !/-(state\.json|events\.jsonl)(\.lock)?$/.test(f.name) && now - f.mtimeMs < grace
    );
    return { g, live, unsure, fresh };
  });
  // History keeps what the hook and event files of gone sessions say before they go.
  const going = verdicts.filter((v) => !v.live && !v.unsure && !v.fresh).map((v) => v.g);
  // A hook file history could not take stays for the next ingestion.
  let unrecorded = new Set<string>();
  if (!options.dryRun && going.length > 0) {
    unrecorded = (await recordBeforeRemoval(
      deps,
      going.map((g) => ({ runtimeDir, hash: g.hash, session: g.session })),
      "cleanup",
    )).unrecorded;
  }
  for (const { g, live, unsure, fresh } of verdicts) {
    const keepHooks = unrecorded.has(recordKey(g));
    for (const f of g.files) {
      const isEvents = /-events\.jsonl(\.lock)?$/.test(f.name);
      const isHooks = /-hooks\.jsonl(\.lock)?$/.test(f.name);
      const keep = live || unsure || fresh || (isEvents && now - f.mtimeMs < retentionMs) ||
        (isHooks && keepHooks);
      if (keep) report.kept.artifacts.push(f.path);
      else remove(f.path, "artifacts");
    }
  }

  for (const s of scripts) {
    const live = liveByHash.get(s.hash)?.has(s.session) === true || unsureHashes.has(s.hash);
    if (live || now - s.file.mtimeMs < scriptMaxAge) report.kept.scripts.push(s.file.path);
    else remove(s.file.path, "scripts");
  }
  for (const t of temps) {
    if (now - t.mtimeMs >= scriptMaxAge) remove(t.path, "artifacts");
  }
  for (const list of [report.removed, report.kept]) {
    list.sockets.sort();
    list.artifacts.sort();
    list.scripts.sort();
  }
  return report;
}
