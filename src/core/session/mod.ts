/**
 * The session domain's face: a session's identity (project, hash, names, run ids), finding it
 * by name, alias or alias prefix from any directory (`locate.ts`), its alias, its lifecycle
 * events and the removal of its files.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). Every verb
 * finds its session through this face, so it stays light: the lifecycle log (with the event
 * store) loads on its first append (spawn, kill, merge).
 */
import { lazyImport } from "../../base/lazy.ts";

export { knownAliases, pickAlias } from "./alias.ts";
export { removeSessionArtifacts } from "./artifacts.ts";
export {
  canonicalProjectRoot,
  isValidSessionName,
  newRunId,
  projectHash,
  sessionName,
  validateSessionName,
} from "./identity.ts";
export type { LifecycleFields } from "./lifecycle.ts";
export {
  locateSession,
  type MetaFile,
  resolveSession,
  scanMetaFiles,
  sessionKey,
  type SessionLocation,
  shownAgent,
  tryReadMeta,
} from "./locate.ts";
export { type Project, resolveProject } from "./project.ts";

type Lifecycle = typeof import("./lifecycle.ts");

/** Appends a lifecycle event to a session's event log (`lifecycle.ts`); never throws. */
export async function appendLifecycle(...args: Parameters<Lifecycle["appendLifecycle"]>) {
  const m = await lazyImport<Lifecycle>(new URL("./lifecycle.ts", import.meta.url));
  return await m.appendLifecycle(...args);
}
