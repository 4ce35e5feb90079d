/**
 * Finding a session by name from any directory: under the current project's hash first, else
 * through its meta file anywhere in the runtime dir (one directory listing), whose projectRoot
 * and socketPath then decide where it lives.
 */
import type { Deps } from "../../base/deps.ts";
import { validateSessionName } from "./identity.ts";
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
export function shownAgent(meta: Pick<SessionMeta, "agent" | "commandOnly">): Agent | "command" {
  return meta.commandOnly ? "command" : meta.agent;
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

/**
 * Locates session `name`. Throws `invalid_session_name` for a bad name and the errors of
 * {@link resolveProject}. A session without meta anywhere is placed in the current project.
 */
export function locateSession(deps: Deps, name: string, projectRootFlag?: string): SessionLocation {
  validateSessionName(name);
  const project = resolveProject(deps, projectRootFlag);
  const local = sessionPaths(project.runtimeDir, project.hash, name);
  const localMeta = tryReadMeta(local.meta);
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
  for (const file of scanMetaFiles(project.runtimeDir)) {
    if (file.session !== name || file.hash === project.hash) continue;
    const meta = tryReadMeta(file.path);
    if (meta === undefined) continue;
    return {
      session: name,
      hash: file.hash,
      projectRoot: meta.projectRoot,
      runtimeDir: project.runtimeDir,
      socketPath: meta.socketPath || project.socketPath,
      paths: sessionPaths(project.runtimeDir, file.hash, name),
      meta,
      project,
    };
  }
  return here(undefined);
}
