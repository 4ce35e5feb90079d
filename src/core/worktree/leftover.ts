/**
 * What an interrupted `spawn --worktree` leaves, and clearing it. The spawn records its intent
 * before `git worktree add` runs (`store/worktree_record.ts`, `spawning`); a record whose
 * spawning lisa is gone (killed, even by SIGKILL) while it was still making the worktree holds
 * nothing but the base commit's files: its worktree, its branch (while at the base commit) and
 * git's own process group (a `git worktree add` that outlived its lisa) are ended and removed,
 * by prune and by the next spawn of the name.
 */
import type { Deps } from "../../base/deps.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import { endRecordedGroup } from "../../proc/group.ts";
import { isAlive } from "../../proc/table.ts";
import { forgetWorktree, git } from "./git.ts";
import { withRepo } from "./merge_journal.ts";
import { readRecord, removeRecord, type SpawnIntent } from "../../store/worktree_record.ts";

/** True while the lisa that wrote `intent` still runs (its spawn is under way, not a leftover). */
export function spawnerAlive(intent: SpawnIntent): boolean {
  return isAlive(intent.pid, intent.startTime);
}

/**
 * Removes what `git worktree add` of `info` created: the worktree (forced: it holds nothing but
 * the base commit), git's entry of it, and the branch while it still points at the base commit
 * (a branch that moved is someone's work). The caller holds the repository lock. Says whether
 * the worktree's directory is gone and whether the branch was deleted.
 */
export async function removeUnstarted(
  deps: Deps,
  info: WorktreeInfo,
): Promise<{ removed: boolean; branchDeleted: boolean }> {
  const { path, branch, baseCommit, repoRoot } = info;
  // Undoing: these run even after a signal interrupted lisa.
  const cleanup = { allowFailure: true, cleanup: true };
  await git(deps, repoRoot, ["worktree", "remove", "--force", "--force", path], cleanup);
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* git removed it */ }
  await forgetWorktree(deps, repoRoot, path, cleanup);
  const ref = `refs/heads/${branch}`;
  const had = await git(deps, repoRoot, ["rev-parse", "--verify", "--quiet", ref], cleanup);
  const deleted = had.stdout.trim() === baseCommit &&
    (await git(deps, repoRoot, ["update-ref", "-d", ref, baseCommit], cleanup)).success;
  let removed = false;
  try {
    Deno.lstatSync(path);
  } catch {
    removed = true;
  }
  return { removed, branchDeleted: deleted };
}

/**
 * Clears the leftover of an interrupted spawn recorded at `recordPath` (module doc), under the
 * repository's lock: ends the git that outlived its lisa, removes the worktree and its branch,
 * then the record. Does nothing (null) when the record is not such a leftover (any more).
 */
export async function clearUnstarted(
  deps: Deps,
  runtimeDir: string,
  commonDir: string,
  recordPath: string,
): Promise<{ removed: boolean; branchDeleted: boolean } | null> {
  return await withRepo(deps, runtimeDir, commonDir, async () => {
    const record = readRecord(recordPath);
    const intent = record?.spawning;
    if (intent === undefined || intent.phase !== "worktree" || spawnerAlive(intent)) return null;
    if (intent.gitGroup) await endRecordedGroup(intent.gitGroup);
    const done = await removeUnstarted(deps, record!.worktree);
    if (done.removed) removeRecord(recordPath);
    return done;
  });
}
