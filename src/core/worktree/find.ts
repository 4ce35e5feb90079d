/**
 * Finding a session's worktree: from its meta while the session exists, else from the durable
 * record (`store/worktree_record.ts`) that outlives `kill`.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { locateSession, type SessionLocation } from "../session/mod.ts";
import { findRecord, recordPathOf, type WorktreeRecord } from "../../store/worktree_record.ts";

/** A session's worktree, found. */
export interface FoundWorktree {
  session: string;
  record: WorktreeRecord;
  /** The record's file (written by merge; may not exist for a hand-made meta). */
  recordPath: string;
  location: SessionLocation;
}

/**
 * The worktree of `session`. Throws `invalid_session_name`, the project errors, and
 * `worktree_not_found` when the session has none (spawned without `--worktree`, pruned, or
 * unknown).
 */
export async function findWorktree(
  deps: Deps,
  session: string,
  projectRoot?: string,
): Promise<FoundWorktree> {
  const location = await locateSession(deps, session, projectRoot);
  // The located name (a resolver may have turned an alias or prefix into it).
  session = location.session;
  const found = findRecord(deps.config.worktreeDir, location.hash, session);
  if (found !== undefined) {
    return { session, record: found.record, recordPath: found.path, location };
  }
  const meta = location.meta;
  if (meta?.worktree !== undefined) {
    return {
      session,
      record: {
        session,
        projectRoot: meta.projectRoot,
        projectHash: meta.projectHash ?? location.hash,
        socketPath: meta.socketPath,
        createdAt: meta.createdAt,
        worktree: meta.worktree,
      },
      // A meta without its project hash (older, damaged) is filed under the one it was found in.
      recordPath: recordPathOf(deps.config.worktreeDir, meta.projectHash ?? location.hash, session),
      location,
    };
  }
  throw new LisaError(
    "worktree_not_found",
    `Session "${session}" has no worktree (spawned without --worktree, or already pruned)`,
    { details: { session } },
  );
}
