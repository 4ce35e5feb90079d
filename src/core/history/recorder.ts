/**
 * The one call every remover of a session's files makes first (`kill`, `kill-all`, `cleanup`,
 * spawn's failure cleanup, `prune`): the session's hook and event files go into the history
 * store, the session is marked ended, and the sweeps close its open turn. `node:sqlite` is
 * loaded only here, lazily, so callers pay nothing until they remove something.
 */
import { warn } from "../../base/io.ts";
import type { Deps } from "../../base/deps.ts";
import { type HistoryModules as Modules, loadHistoryModules as load } from "./modules.ts";
import type { SessionFiles } from "./ingest.ts";

/** Why a session's files are being removed. */
export type RemovalReason = "killed" | "cleanup" | "spawn_failed" | "pruned";

/** A session about to lose its files: where they are, and its run when known. */
export interface RemovedSession extends SessionFiles {
  runId?: string | null;
}

/** What {@link recordBeforeRemoval} could record. */
export interface RecordOutcome {
  /**
   * True when every session's hook and event lines are in history (their files may go), or
   * when there is no history to keep them for (no place for the database, no `node:sqlite`).
   */
  recorded: boolean;
  /** Sessions history could not take (`hash/session`): their hook files must stay. */
  unrecorded: Set<string>;
  /** Why, when some session was not recorded. */
  error?: { code: string; message: string };
}

/** The key of a session in {@link RecordOutcome.unrecorded}. */
export function recordKey(s: Pick<SessionFiles, "hash" | "session">): string {
  return `${s.hash}/${s.session}`;
}

function failure(error: unknown): { code: string; message: string } {
  const code = (error as { code?: unknown })?.code;
  return {
    code: typeof code === "string" ? code : "history_error",
    message: (error as Error)?.message ?? String(error),
  };
}

/**
 * Records `sessions` in history before their files are removed (module doc), each in its own
 * transaction; a database busy past its timeout (`history_busy`, BUSY_TIMEOUT_MS) is not waited
 * for again by the sessions after it. Never throws and never blocks the removal: it returns which
 * sessions history could not take, whose hook files the caller keeps for the next ingestion
 * (a history read, or the next removal), and says so in one warning line on stderr. Records
 * nothing, and counts everything recorded, when there is no place for the database (no
 * LISA_HISTORY_DB, XDG_STATE_HOME or HOME) or this Deno has no `node:sqlite`.
 */
export async function recordBeforeRemoval(
  deps: Deps,
  sessions: readonly RemovedSession[],
  reason: RemovalReason,
): Promise<RecordOutcome> {
  const all: RecordOutcome = { recorded: true, unrecorded: new Set() };
  if (sessions.length === 0) return all;
  let m: Modules;
  try {
    m = await load();
    if (m.store.historyPath(deps) === null) return all;
  } catch {
    return all;
  }
  const none = (error: unknown): RecordOutcome => {
    const outcome = {
      recorded: false,
      unrecorded: new Set(sessions.map(recordKey)),
      error: failure(error),
    };
    warnUnrecorded(deps, outcome);
    return outcome;
  };
  let h;
  try {
    h = await m.store.openHistory(deps);
  } catch (error) {
    if ((error as { code?: unknown })?.code === "history_unavailable") return all;
    return none(error);
  }
  const outcome: RecordOutcome = { recorded: true, unrecorded: new Set() };
  try {
    const at = deps.now().toISOString();
    for (const s of sessions) {
      if (outcome.error?.code === "history_busy") {
        outcome.unrecorded.add(recordKey(s));
        continue;
      }
      try {
        m.ingest.ingestSession(h, s, undefined, deps.env);
      } catch (error) {
        outcome.unrecorded.add(recordKey(s));
        outcome.error ??= failure(error);
        continue;
      }
      // Its lines are in: what follows only closes it, and a failure there loses nothing.
      try {
        m.ingest.markEnded(h, s.session, s.runId ?? null, reason, at);
        m.ingest.forgetCursors(h, s);
      } catch { /* the sweeps of the next read close it */ }
    }
    await m.sweep.sweepHistory(h, deps, { probe: false });
  } catch {
    /* the sweeps run again on the next read */
  } finally {
    h.close();
  }
  outcome.recorded = outcome.unrecorded.size === 0;
  if (!outcome.recorded) warnUnrecorded(deps, outcome);
  return outcome;
}

function warnUnrecorded(deps: Deps, outcome: RecordOutcome): void {
  warn(
    deps.io,
    `history not recorded (${outcome.error?.message}); the hook and event files ` +
      `of ${[...outcome.unrecorded].map((k) => k.slice(k.indexOf("/") + 1)).join(", ")} are ` +
      `kept for the next history read`,
  );
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
