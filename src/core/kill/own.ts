/**
 * The caller's own session in `kill` / `kill-all` (see `kill.ts`): lisa run from inside a
 * session it ends must tell that session apart, survive its terminal's hangup, and close it
 * only after the result is out.
 */
import { warn } from "../../base/io.ts";
import type { Deps } from "../../base/deps.ts";
import { callerChain } from "./terminate.ts";

/** What tells the caller's own session apart: lisa's ancestors and its LISA_RUN_ID. */
export interface Caller {
  chain: () => Promise<Set<number>>;
  runId: string | undefined;
}

/** The caller's facts; its ancestors are read lazily, once. */
export function callerOf(deps: Deps): Caller {
  let chain: Promise<Set<number>> | undefined;
  return {
    // Read once, and only when a session with panes is met.
    chain: () => chain ??= callerChain(deps.runner).catch(() => new Set<number>()),
    runId: deps.config.runId,
  };
}

const ignoreHangup = () => {};

/**
 * Runs a kill with SIGHUP ignored (a listener replaces the default action): closing the
 * caller's own session hangs up lisa's terminal. The listener is removed afterwards, except
 * once the caller's own session was closed: a late hangup must not end lisa before it exits.
 */
export async function deafToHangup<T>(
  fn: (ownClosed: () => void) => Promise<T>,
): Promise<T> {
  let listening = false;
  try {
    Deno.addSignalListener("SIGHUP", ignoreHangup);
    listening = true;
  } catch { /* no SIGHUP on this platform */ }
  let keep = false;
  try {
    return await fn(() => keep = true);
  } finally {
    if (listening && !keep) Deno.removeSignalListener("SIGHUP", ignoreHangup);
  }
}

/**
 * Closes the caller's own session(s) last. Never throws: the result is already out, so a
 * failure is only reported on stderr (best effort, the terminal may be gone).
 */
export async function closeOwn(
  deps: Deps,
  closes: readonly (() => Promise<void>)[],
): Promise<void> {
  for (const close of closes) {
    try {
      await close();
    } catch (error) {
      try {
        warn(deps.io, (error as Error).message);
      } catch { /* the terminal went with the session */ }
    }
  }
}
