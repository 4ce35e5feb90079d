/**
 * Finding a session by name from any directory: under the current project's hash first, else
 * through its meta file anywhere in the runtime dir (one directory listing), whose projectRoot
 * and socketPath then decide where it lives. An alias names its session while it runs (its
 * meta) and after it was killed (what outlives the meta: its event log, its worktree record,
 * its history row), see {@link resolveSession}.
 */
import type { Deps } from "../../base/deps.ts";
import { isValidSessionName, validateSessionName } from "./identity.ts";
import { LisaError, UsageError } from "../../base/errors.ts";
import type { Agent } from "../../base/types.ts";
import { joinPath } from "../../base/paths.ts";
import { type Project, resolveProject } from "./project.ts";
import type { SessionMeta } from "../../base/types.ts";
import { SESSION_ARTIFACT_RE, type SessionPaths, sessionPaths } from "../../store/runtime_dir.ts";
import { readMeta } from "../../store/session_store.ts";
import { lazyImport } from "../../base/lazy.ts";
import { listRecords } from "../../store/worktree_record.ts";
import { aliasInEventLog } from "./gone.ts";

/**
 * The agent list, status and tree show for a session: `"command"` for a `--command` session
 * spawned without `--agent` (its meta's `agent` only fills the name's agent word), else the
 * meta's agent.
 */
export function shownAgent(
  meta: Pick<SessionMeta, "agent" | "commandOnly">,
): Agent | "command" | null {
  // A meta without an agent lisa knows (older, foreign, damaged): null, not a guess.
  return meta.commandOnly ? "command" : meta.agent ?? null;
}

/** Where a session's artifacts and tmux server are. */
export interface SessionLocation {
  session: string;
  /** Project hash of its artifacts. */
  hash: string;
  projectRoot: string;
  runtimeDir: string;
  socketPath: string;
  paths: SessionPaths;
  /** Its meta, or undefined when it has none (or it cannot be read). */
  meta: SessionMeta | undefined;
  /** The project of the current call (`--project-root`, LISA_PROJECT_ROOT or cwd). */
  project: Project;
  /** The alias a session without meta was found by (a killed session's, from what outlives it). */
  alias?: string;
}

/**
 * The key of a session among many (list, tree, watch): its tmux server and its name. Two
 * projects may each run a `lisa-job`; keyed by name alone, one would hide the other.
 */
export function sessionKey(socketPath: string, session: string): string {
  return `${socketPath}\n${session}`;
}

/** One meta file found in the runtime dir. */
export interface MetaFile {
  hash: string;
  session: string;
  path: string;
}

/** Every session meta file in `runtimeDir` (one listing; [] when unreadable). */
export function scanMetaFiles(runtimeDir: string): MetaFile[] {
  const out: MetaFile[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(runtimeDir)];
  } catch {
    return out;
  }
  for (const entry of entries) {
    // Most entries are a session's other artifacts: a suffix test spares them the regexp.
    if (!entry.name.endsWith("-meta.json")) continue;
    const m = SESSION_ARTIFACT_RE.exec(entry.name);
    if (m === null || m[3] !== "meta.json" || m[4] !== undefined) continue;
    out.push({ hash: m[1], session: m[2], path: joinPath(runtimeDir, entry.name) });
  }
  return out;
}

/** Reads a meta, treating an unreadable one as absent (callers degrade, never crash). */
export function tryReadMeta(path: string): SessionMeta | undefined {
  try {
    return readMeta({ meta: path });
  } catch {
    return undefined;
  }
}

/** One session `resolve` can pick: its name, alias and the file that knows it. */
export interface KnownSession {
  session: string;
  alias: string | null;
  /** Project hash of the files that know it (null: a history row without one). */
  hash: string | null;
  /** Its meta; for a gone session, its event log, worktree record or history database. */
  path: string;
  /** A gone session's project root and tmux socket, when what knows it says. */
  projectRoot?: string | null;
  socketPath?: string | null;
}

/** An event log whose session has no meta under its hash (killed, pruned, or its server gone). */
export interface OrphanLog {
  hash: string;
  session: string;
  path: string;
}

/** What one listing of the runtime dir knows (see {@link knownSessions}). */
export interface KnownSessions {
  metas: KnownSession[];
  names: Set<string>;
  /** Event logs without a meta beside them: where a killed session's alias is still written. */
  orphanLogs: OrphanLog[];
}

/**
 * Every session with a meta in `runtimeDir`, every name that has any artifact there, and the
 * event logs left without a meta. Aliases are read from the metas only with `readAliases` (one
 * file read per session).
 */
export function knownSessions(runtimeDir: string, readAliases = true): KnownSessions {
  const metas: KnownSession[] = [];
  const names = new Set<string>();
  const logs = new Map<string, OrphanLog>();
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(runtimeDir)];
  } catch {
    return { metas, names, orphanLogs: [] };
  }
  const withMeta = new Set<string>();
  for (const entry of entries) {
    const m = SESSION_ARTIFACT_RE.exec(entry.name);
    if (m === null) continue;
    names.add(m[2]);
    if (m[4] !== undefined) continue;
    const path = joinPath(runtimeDir, entry.name);
    if (m[3] === "events.jsonl") logs.set(`${m[1]}\n${m[2]}`, { hash: m[1], session: m[2], path });
    if (m[3] !== "meta.json") continue;
    withMeta.add(`${m[1]}\n${m[2]}`);
    const alias = readAliases ? tryReadMeta(path)?.alias : undefined;
    metas.push({
      session: m[2],
      alias: typeof alias === "string" ? alias : null,
      hash: m[1],
      path,
    });
  }
  const orphanLogs = [...logs].filter(([key]) => !withMeta.has(key)).map(([, log]) => log);
  return { metas, names, orphanLogs };
}

/**
 * The sessions of `known` without a meta whose alias something still records: the event log
 * (spawn writes the alias into its first event, kill into its last) and the worktree record a
 * `--worktree` session leaves behind. One read of each orphan log's ends, one listing of the
 * worktree records. Sessions that still have a meta are left out (they are in `known.metas`).
 */
export function goneSessions(known: KnownSessions, worktreeDir: string): KnownSession[] {
  const out: KnownSession[] = [];
  for (const log of known.orphanLogs) {
    const alias = aliasInEventLog(log.path);
    if (alias !== null) out.push({ session: log.session, alias, hash: log.hash, path: log.path });
  }
  const live = new Set(known.metas.map((k) => `${k.hash}\n${k.session}`));
  for (const { path, record } of listRecords(worktreeDir)) {
    if (typeof record.alias !== "string" || record.alias === "") continue;
    if (live.has(`${record.projectHash}\n${record.session}`)) continue;
    out.push({
      session: record.session,
      alias: record.alias,
      hash: record.projectHash,
      path,
      projectRoot: record.projectRoot,
      socketPath: record.socketPath,
    });
  }
  return out;
}

/** The sessions of `list` whose alias is `value` (`prefix`: starts with it). */
function aliasMatches(
  list: readonly KnownSession[],
  value: string,
  prefix: boolean,
): KnownSession[] {
  return list.filter((k) =>
    k.alias !== null && (prefix ? k.alias.startsWith(value) : k.alias === value)
  );
}

/**
 * The one session `matches` names (the first of its entries), null when none; throws
 * `session_ambiguous` listing the candidates when they name several sessions.
 */
function oneOf(matches: readonly KnownSession[], value: string): KnownSession | null {
  const names = [...new Set(matches.map((k) => k.session))];
  if (names.length === 0) return null;
  if (names.length === 1) return matches[0];
  const candidates = names.sort().map((n) => {
    const alias = matches.find((k) => k.session === n)?.alias ?? null;
    return { session: n, alias };
  });
  throw new LisaError(
    "session_ambiguous",
    `"${value}" matches ${names.length} sessions: ` +
      candidates.map((c) => c.alias ? `${c.alias} (${c.session})` : c.session).join(", "),
    { details: { value, candidates } },
  );
}

/**
 * Resolves what a person typed for `--session` (seed 004's `SessionRegistry.resolve`): a full
 * name any artifact knows (an event log outlives kill) stands for itself; else an alias stands
 * for its session; else an unambiguous prefix of an alias (a value shaped as a full name, `lisa-…`,
 * is never taken as a prefix). Full names never match by prefix,
 * for any verb: `lisa-w-1` (whose files were pruned) never stands for a running `lisa-w-10`,
 * whose state, output or input it is not. Returns the session name, or null when nothing
 * matches. Throws `session_ambiguous` (exit 1) listing the candidates. Pure over `known`.
 */
export function resolveIn(
  known: { metas: readonly KnownSession[]; names: ReadonlySet<string> },
  value: string,
): string | null {
  if (value === "") return null;
  if (known.names.has(value)) return value;
  const exact = oneOf(aliasMatches(known.metas, value, false), value);
  if (exact !== null) return exact.session;
  // A value shaped as a full name is never a prefix, not even of an alias: in a project whose
  // slug is `lisa` the aliases read `lisa-calm-otter`, and a gone `lisa-calm` is not that one.
  if (isValidSessionName(value)) return null;
  return oneOf(aliasMatches(known.metas, value, true), value)?.session ?? null;
}

/** A generated alias in a project slugged `lisa` (`lisa-calm-otter`, `lisa-calm-otter-2`). */
const NAME_SHAPED_ALIAS = /^lisa-[a-z]+-[a-z]+(?:-\d+)?$/;

/**
 * {@link resolveIn} over everything that still knows a session, so that an alias keeps naming
 * its session after kill, for as long as its event log, its worktree record or its history row
 * is there. Tiers, each consulted only when the ones before matched nothing: a name an artifact
 * knows; an alias among the metas; an alias among the gone sessions' files
 * ({@link goneSessions}); a prefix unique among both; an alias, then a prefix, in history (the
 * newest run for an alias used twice). A value shaped as a full name
 * goes past the metas only when it could be an alias ({@link NAME_SHAPED_ALIAS}), so a poll of
 * an unknown full name reads no more than it always did. Returns the session found (with what
 * knows it), or null. Throws `session_ambiguous`.
 */
export async function resolveSession(
  deps: Deps,
  runtimeDir: string,
  value: string,
): Promise<KnownSession | null> {
  if (value === "") return null;
  const names = knownSessions(runtimeDir, false);
  if (names.names.has(value)) {
    return { session: value, alias: goneAlias(names, value), hash: null, path: "" };
  }
  const known = knownSessions(runtimeDir);
  const live = oneOf(aliasMatches(known.metas, value, false), value);
  if (live !== null) return live;
  const fullName = isValidSessionName(value);
  if (fullName && !NAME_SHAPED_ALIAS.test(value)) return null;
  const gone = goneSessions(known, deps.config.worktreeDir);
  const exactGone = oneOf(aliasMatches(gone, value, false), value);
  if (exactGone !== null) return exactGone;
  // A prefix must be unique among every session it could name, running or gone: `kill` of a
  // prefix meant for a killed session must not end a running one that shares it.
  const prefixed = fullName
    ? null
    : oneOf(aliasMatches([...known.metas, ...gone], value, true), value);
  if (prefixed !== null) return prefixed;
  // History last: it opens a database, and only a session older than its event log needs it.
  const { historyAliases } = await lazyImport<typeof import("./history_aliases.ts")>(
    new URL("./history_aliases.ts", import.meta.url),
  );
  const rows = await historyAliases(deps, value, !fullName);
  const exact = rows.filter((r) => r.alias === value);
  // An alias two runs had (drawn again once the first was forgotten): the newest run's.
  if (exact.length > 0) return exact[0];
  return oneOf(rows, value);
}

/**
 * The alias a killed session `name` had, from its event logs left without a meta (kill writes it
 * into the last event), when they agree; null for a session with a meta (its meta says), or none.
 */
function goneAlias(known: KnownSessions, name: string): string | null {
  const logs = known.orphanLogs.filter((l) => l.session === name);
  const aliases = new Set(logs.map((l) => aliasInEventLog(l.path)));
  return aliases.size === 1 ? [...aliases][0] : null;
}

/**
 * Locates session `name`: a full name (exactly), an alias, or an unambiguous prefix of an alias
 * ({@link resolveSession}). Throws `session_ambiguous` (also for a full name the current project
 * has no file of while several other projects' metas have it), `invalid_session_name` for a
 * value that is neither a valid name nor matches a session, and the errors of
 * {@link resolveProject}. A valid name without meta anywhere is placed in the current project
 * (status then says not_found).
 */
export async function locateSession(
  deps: Deps,
  name: string,
  projectRootFlag?: string,
): Promise<SessionLocation> {
  const project = resolveProject(deps, projectRootFlag);
  if (isValidSessionName(name)) {
    // The fast path of every poll: the project's own meta, no directory listing.
    const localMeta = tryReadMeta(sessionPaths(project.runtimeDir, project.hash, name).meta);
    if (localMeta !== undefined) return locateExact(deps, name, project, localMeta);
  }
  const found = await resolveSession(deps, project.runtimeDir, name);
  if (found === null && !name.startsWith("lisa-")) {
    throw new UsageError(
      `No session is named "${name}": it is not a full name (those start with "lisa-"), nor ` +
        "an alias or alias prefix lisa knows (lisa session list shows the sessions; lisa " +
        "history list the older ones)",
      "invalid_session_name",
    );
  }
  if (found === null) validateSessionName(name);
  return locateExact(deps, found?.session ?? name, project, undefined, found ?? undefined);
}

/**
 * One listing of `runtimeDir` for session `name`: whether project `hash` has any artifact of it,
 * and the meta files other projects have of it.
 */
function filesOfName(
  runtimeDir: string,
  hash: string,
  name: string,
): { local: boolean; otherMetas: MetaFile[] } {
  const otherMetas: MetaFile[] = [];
  try {
    for (const entry of Deno.readDirSync(runtimeDir)) {
      const m = SESSION_ARTIFACT_RE.exec(entry.name);
      if (m === null || m[2] !== name) continue;
      if (m[1] === hash) return { local: true, otherMetas: [] };
      if (m[3] === "meta.json" && m[4] === undefined) {
        otherMetas.push({ hash: m[1], session: name, path: joinPath(runtimeDir, entry.name) });
      }
    }
  } catch { /* unreadable: nothing known */ }
  return { local: false, otherMetas };
}

function locateExact(
  _deps: Deps,
  name: string,
  project: Project,
  known?: SessionMeta,
  gone?: KnownSession,
): SessionLocation {
  validateSessionName(name);
  const local = sessionPaths(project.runtimeDir, project.hash, name);
  // A poll's fast path has just read the meta: it is not read twice.
  const localMeta = known ?? tryReadMeta(local.meta);
  const here = (meta: SessionMeta | undefined): SessionLocation => ({
    session: name,
    hash: project.hash,
    projectRoot: project.root,
    runtimeDir: project.runtimeDir,
    socketPath: meta?.socketPath || project.socketPath,
    paths: local,
    meta,
    project,
  });
  if (localMeta !== undefined) return here(localMeta);
  // This project's own files for the name (its meta gone or unreadable, its event log kept by
  // kill) keep it here: another project's session of the same name is another session.
  const { local: hasLocal, otherMetas } = filesOfName(project.runtimeDir, project.hash, name);
  if (hasLocal) return withAlias(here(undefined), gone);
  const others = otherMetas.map((file) => ({ file, meta: tryReadMeta(file.path) }))
    .filter((o): o is { file: MetaFile; meta: SessionMeta } => o.meta !== undefined);
  if (others.length > 1) {
    // Two other projects each have a session of this name: picking one would act on a session
    // the caller may not mean (kill would end it). Neither is taken.
    const candidates = others.map(({ file, meta }) => ({
      session: name,
      alias: meta.alias ?? null,
      projectRoot: meta.projectRoot ?? null,
      projectHash: file.hash,
    })).sort((x, y) => (x.projectRoot ?? "") < (y.projectRoot ?? "") ? -1 : 1);
    throw new LisaError(
      "session_ambiguous",
      `"${name}" names sessions of ${candidates.length} projects (` +
        candidates.map((c) => c.projectRoot ?? c.projectHash).join(", ") +
        "), none of them this one; run lisa from the project's directory or pass --project-root",
      { details: { value: name, candidates } },
    );
  }
  if (others.length === 1) {
    const { file, meta } = others[0];
    return {
      session: name,
      hash: file.hash,
      // A meta without its project root (older, damaged) reads as this project's.
      projectRoot: meta.projectRoot ?? project.root,
      runtimeDir: project.runtimeDir,
      socketPath: meta.socketPath || project.socketPath,
      paths: sessionPaths(project.runtimeDir, file.hash, name),
      meta,
      project,
    };
  }
  if (gone?.hash) {
    // Known only from what outlives it (another project's event log, a worktree record, a
    // history row): its files, root and server are where those say.
    return withAlias({
      session: name,
      hash: gone.hash,
      projectRoot: gone.projectRoot ?? project.root,
      runtimeDir: project.runtimeDir,
      socketPath: gone.socketPath || project.socketPath,
      paths: sessionPaths(project.runtimeDir, gone.hash, name),
      meta: undefined,
      project,
    }, gone);
  }
  return withAlias(here(undefined), gone);
}

/** `loc` with the alias a gone session was found by (its meta, where it lived, is gone). */
function withAlias(loc: SessionLocation, gone: KnownSession | undefined): SessionLocation {
  return gone?.alias ? { ...loc, alias: gone.alias } : loc;
}
