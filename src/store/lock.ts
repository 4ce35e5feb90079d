/**
 * Advisory file locks over `Deno.FsFile.tryLock`, retried until a timeout. A state-file lock is
 * never held across a tmux or agent call (callers keep `fn` to file I/O). The exceptions exist to
 * order tmux calls: `send`'s per-session input lock (`src/core/drive/send.ts`) and the project's
 * spawn lock (`src/core/session/spawn_lock.ts`).
 */
import { FileUnsafeError, LockBusyError } from "../base/errors.ts";

/** Options of {@link withLock}. */
export interface LockOptions {
  /** Exclusive (writers) or shared (readers). Default exclusive. */
  exclusive?: boolean;
  /** Give up after this many milliseconds with `LockBusyError`. */
  timeoutMs: number;
  /** Asked while the lock is waited for: an error it returns ends the wait (thrown). */
  stop?: () => Error | null;
}

function openLockFile(lockPath: string): Deno.FsFile {
  try {
    if (Deno.lstatSync(lockPath).isSymlink) {
      throw new FileUnsafeError(lockPath, "the lock file is a symlink");
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return Deno.openSync(lockPath, { read: true, write: true, create: true, mode: 0o600 });
}

/**
 * Runs `fn` while holding the lock on `lockPath` (created 0600 when missing). Throws
 * `LockBusyError` when the lock cannot be taken within `timeoutMs`; never hangs.
 */
export async function withLock<T>(
  lockPath: string,
  options: LockOptions,
  fn: () => T | Promise<T>,
): Promise<T> {
  const exclusive = options.exclusive ?? true;
  const file = openLockFile(lockPath);
  try {
    const deadline = Date.now() + options.timeoutMs;
    let delay = 2;
    while (!file.tryLockSync(exclusive)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new LockBusyError(lockPath, options.timeoutMs);
      const stopped = options.stop?.() ?? null;
      if (stopped !== null) throw stopped;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
      delay = Math.min(delay * 2, 25);
    }
    try {
      return await fn();
    } finally {
      file.unlockSync();
    }
  } finally {
    file.close();
  }
}

/**
 * Runs `fn` under the exclusive lock on `lockPath` if it can be taken at once (one try, no
 * waiting), for work that may as well be skipped when someone holds it. Returns `fn`'s value,
 * or undefined when the lock was busy. Throws `FileUnsafeError` for a symlinked lock file.
 */
export function tryWithLockSync<T>(lockPath: string, fn: () => T): T | undefined {
  const file = openLockFile(lockPath);
  try {
    if (!file.tryLockSync(true)) return undefined;
    try {
      return fn();
    } finally {
      file.unlockSync();
    }
  } finally {
    file.close();
  }
}
