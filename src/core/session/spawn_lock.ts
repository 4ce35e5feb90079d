/**
 * The project's spawn lock (`.lisa-{hash}-spawn.lock` in the runtime dir). A spawn holds it from
 * its check that the name is free to the meta of the session it made; whoever removes the files
 * of a session it judged gone (prune, cleanup) takes it to look again before removing them. So
 * nobody clears the files of a session of the same name that started meanwhile: its startup
 * script (the session would die before its command ran) or its meta.
 */
import { LisaError, LockBusyError } from "../../base/errors.ts";
import { withLock } from "../../store/lock.ts";
import { spawnLockPath } from "../../store/runtime_dir.ts";

/**
 * How long the spawn lock is waited for. A spawn holds it for a check of the name, the clearing
 * of a gone earlier run's files (history records them first, waiting up to 5 s for a busy
 * database) and one tmux call (LISA_CMD_TIMEOUT_SECONDS, 20 s by default): some 100 ms as a rule.
 */
export const SPAWN_LOCK_TIMEOUT_MS = 30_000;

/**
 * Runs `fn` under the spawn lock of the project with hash `hash`. The one lock besides a send's
 * input lock held across a tmux call: it exists to order them. Throws `lock_busy` past
 * {@link SPAWN_LOCK_TIMEOUT_MS}, `undone` saying what was not done.
 */
export async function withSpawnLock<T>(
  runtimeDir: string,
  hash: string,
  undone: string,
  fn: () => Promise<T>,
): Promise<T> {
  const path = spawnLockPath(runtimeDir, hash);
  try {
    return await withLock(path, { timeoutMs: SPAWN_LOCK_TIMEOUT_MS }, fn);
  } catch (error) {
    if (!(error instanceof LockBusyError) || error.details.lockPath !== path) throw error;
    throw new LisaError(
      "lock_busy",
      `Another lisa held the project's spawn lock for ${SPAWN_LOCK_TIMEOUT_MS} ms; ${undone}`,
      { cause: error, details: { ...error.details } },
    );
  }
}

/**
 * Removes the spawn lock file of the project with hash `hash` unless a spawn holds it (taken
 * without waiting, removed while held): for `session smoke`, which leaves nothing behind in the
 * runtime dir. Never throws.
 */
export async function removeSpawnLock(runtimeDir: string, hash: string): Promise<void> {
  const path = spawnLockPath(runtimeDir, hash);
  try {
    Deno.lstatSync(path);
  } catch {
    return;
  }
  try {
    await withLock(path, { timeoutMs: 0 }, () => Deno.removeSync(path));
  } catch { /* held by a spawn, or gone already */ }
}
