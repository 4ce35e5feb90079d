/**
 * The one call every remover of a session's files makes first (`kill`, `kill-all`, `cleanup`,
 * spawn's failure cleanup, `prune`): the session's hook and event files go into the history
 * store, the session is marked ended, and the sweeps close its open turn. `node:sqlite` is
 * loaded only here, lazily, so callers pay nothing until they remove something.
 */
import type { Deps } from "../../base/deps.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { SessionFiles } from "./ingest.ts";

/** Why a session's files are being removed. */
export type RemovalReason = "killed" | "cleanup" | "spawn_failed" | "pruned";

/** A session about to lose its files: where they are, and its run when known. */
export interface RemovedSession extends SessionFiles {
  runId?: string | null;
}

type Modules = {
  store: typeof import("./store.ts");
  ingest: typeof import("./ingest.ts");
  sweep: typeof import("./sweep.ts");
};

async function load(): Promise<Modules> {
  const [store, ingest, sweep] = await Promise.all([
    lazyImport<Modules["store"]>(new URL("./store.ts", import.meta.url)),
    lazyImport<Modules["ingest"]>(new URL("./ingest.ts", import.meta.url)),
    lazyImport<Modules["sweep"]>(new URL("./sweep.ts", import.meta.url)),
  ]);
  return { store, ingest, sweep };
}

/**
 * Records `sessions` in history before their files are removed (module doc). Never throws and
 * never blocks the removal: a history that cannot be written (no place for it, busy past its
 * timeout, unsafe) costs one warning line on stderr. Does nothing when there is no place for
 * the database (no LISA_HISTORY_DB, XDG_STATE_HOME or HOME).
 */
export async function recordBeforeRemoval(
  deps: Deps,
  sessions: readonly RemovedSession[],
  reason: RemovalReason,
): Promise<void> {
  if (sessions.length === 0) return;
  let m: Modules;
  try {
    m = await load();
    if (m.store.historyPath(deps) === null) return;
  } catch {
    return;
  }
  let h;
  try {
    h = await m.store.openHistory(deps);
  } catch (error) {
    deps.io.err(`lisa: warning: history not recorded: ${(error as Error).message}\n`);
    return;
  }
  try {
    const at = deps.now().toISOString();
    for (const s of sessions) {
      m.ingest.ingestSession(h, s);
      m.ingest.markEnded(h, s.session, s.runId ?? null, reason, at);
      m.ingest.forgetCursors(h, s);
    }
    await m.sweep.sweepHistory(h, deps, { probe: false });
  } catch (error) {
    deps.io.err(`lisa: warning: history not recorded: ${(error as Error).message}\n`);
  } finally {
    h.close();
  }
}

/**
 * The sweeps after a spawn (seed 002's background recovery, run when sessions start): only when
 * the history database already exists, so a spawn never creates it. Never throws, never
 * writes on stderr: a spawn's output stays its own.
 */
export async function sweepAfterSpawn(deps: Deps): Promise<void> {
  try {
    const m = await load();
    const path = m.store.historyPath(deps);
    if (path === null) return;
    try {
      Deno.lstatSync(path);
    } catch {
      return;
    }
    const h = await m.store.openHistory(deps, path);
    try {
      await m.sweep.sweepHistory(h, deps);
    } finally {
      h.close();
    }
  } catch { /* history is best effort here */ }
}
