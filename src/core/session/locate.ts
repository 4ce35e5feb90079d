/**
 * Finding a session by name from any directory: under the current project's hash first, else
 * through its meta file anywhere in the runtime dir (one directory listing), whose projectRoot
 * and socketPath then decide where it lives.
 */
import type { Deps } from "../../base/deps.ts";
import { isValidSessionName, validateSessionName } from "./identity.ts";
import { LisaError } from "../../base/errors.ts";
import type { Agent } from "../../base/types.ts";
import { joinPath } from "../../base/paths.ts";
import { type Project, resolveProject } from "./project.ts";
import type { SessionMeta } from "../../base/types.ts";
import { SESSION_ARTIFACT_RE, type SessionPaths, sessionPaths } from "../../store/runtime_dir.ts";
import { readMeta } from "../../store/session_store.ts";

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

/** One session `resolve` can pick: its name, alias and meta file. */
export interface KnownSession {
  session: string;
  alias: string | null;
  hash: string;
  path: string;
}

/**
 * Every session with a meta in `runtimeDir`, and every name that has any artifact there.
 * Aliases are read from the metas only with `readAliases` (one file read per session).
 */
export function knownSessions(
  runtimeDir: string,
  readAliases = true,
): { metas: KnownSession[]; names: Set<string> } {
  const metas: KnownSession[] = [];
  const names = new Set<string>();
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(runtimeDir)];
  } catch {
    return { metas, names };
  }
  for (const entry of entries) {
    const m = SESSION_ARTIFACT_RE.exec(entry.name);
    if (m === null) continue;
    names.add(m[2]);
    if (m[3] !== "meta.json" || m[4] !== undefined) continue;
    const path = joinPath(runtimeDir, entry.name);
    const alias = readAliases ? tryReadMeta(path)?.alias : undefined;
    metas.push({
      session: m[2],
      alias: typeof alias === "string" ? alias : null,
      hash: m[1],
      path,
    });
  }
  return { metas, names };
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
  const byAlias = known.metas.filter((k) => k.alias === value);
  const unique = (list: readonly KnownSession[]) => [...new Set(list.map((k) => k.session))];
  if (unique(byAlias).length === 1) return byAlias[0].session;
  const matches = byAlias.length > 0
    ? byAlias
    // A value shaped as a full name is never a prefix, not even of an alias: in a project whose
    // slug is `lisa` the aliases read `lisa-calm-otter`, and a gone `lisa-calm` is not that one.
    : isValidSessionName(value)
    ? []
    : known.metas.filter((k) => k.alias !== null && k.alias.startsWith(value));
  const names = unique(matches);
  if (names.length === 1) return names[0];
  if (names.length === 0) return null;
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
 * Locates session `name`: a full name (exactly), an alias, or an unambiguous prefix of an alias
 * ({@link resolveIn}). Throws `session_ambiguous`, `invalid_session_name` for a value that is
 * neither a valid name nor matches a session, and the errors of {@link resolveProject}. A valid
 * name without meta anywhere is placed in the current project (status then says not_found).
 */
export function locateSession(
  deps: Deps,
  name: string,
  projectRootFlag?: string,
): SessionLocation {
  const project = resolveProject(deps, projectRootFlag);
  if (isValidSessionName(name)) {
    // The fast path of every poll: the project's own meta, no directory listing.
    const localMeta = tryReadMeta(sessionPaths(project.runtimeDir, project.hash, name).meta);
    if (localMeta !== undefined) return locateExact(deps, name, project, localMeta);
  }
  // A full name any artifact knows needs no alias: the metas are read only for the others.
  const names = knownSessions(project.runtimeDir, false);
  if (names.names.has(name)) return locateExact(deps, name, project);
  const resolved = resolveIn(knownSessions(project.runtimeDir), name);
  if (resolved === null) validateSessionName(name);
  return locateExact(deps, resolved ?? name, project);
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
  if (hasLocal) return here(undefined);
  for (const file of otherMetas) {
    const meta = tryReadMeta(file.path);
    if (meta === undefined) continue;
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
  return here(undefined);
}
