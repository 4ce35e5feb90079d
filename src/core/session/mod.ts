/**
 * The session domain's face: a session's identity (project, hash, names, run ids), finding it
 * by name, alias or alias prefix from any directory (`locate.ts`), its alias, its lifecycle
 * events, the removal of its files (and of what gone sessions of its name left under other
 * project hashes), and the project's spawn lock that orders a name's claim against removals.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). Every verb
 * finds its session through this face, so it stays light: the lifecycle log (with the event
 * store) loads on its first append (spawn, kill, merge), the other hashes' removal on its first
 * call.
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
  validateNewSessionName,
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
export { removeSpawnLock, SPAWN_LOCK_TIMEOUT_MS, withSpawnLock } from "./spawn_lock.ts";

type Lifecycle = typeof import("./lifecycle.ts");
type OtherHashes = typeof import("./other_hashes.ts");

/** Appends a lifecycle event to a session's event log (`lifecycle.ts`); never throws. */
export async function appendLifecycle(...args: Parameters<Lifecycle["appendLifecycle"]>) {
  const m = await lazyImport<Lifecycle>(new URL("./lifecycle.ts", import.meta.url));
  return await m.appendLifecycle(...args);
}

/** Removes what gone sessions of a name left under other project hashes (`other_hashes.ts`). */
export async function removeLeftUnderOtherHashes(
  ...args: Parameters<OtherHashes["removeLeftUnderOtherHashes"]>
) {
  const m = await lazyImport<OtherHashes>(new URL("./other_hashes.ts", import.meta.url));
  return await m.removeLeftUnderOtherHashes(...args);
}
