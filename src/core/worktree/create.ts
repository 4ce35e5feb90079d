/**
 * Creating and removing a session's worktree. `git worktree add` and `git worktree remove` run
 * under lisa's lock of the repository (`git.ts`), so parallel spawns into one repository never
 * trip over git's own lock files.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { dirName } from "../../base/paths.ts";
import { git, gitMessage, withRepoLock } from "./git.ts";
import {
  branchExists,
  branchExistsError,
  pathTaken,
  worktreeExistsError,
  type WorktreePlan,
} from "./plan.ts";
import { removeRecord, type WorktreeRecord, writeRecord } from "./record.ts";

/** The facts of the session a worktree is created for (its record). */
export type RecordBase = Omit<WorktreeRecord, "worktree" | "merged">;

/**
 * Creates the worktree of `plan` on its new branch at the base commit, then its record.
 * Throws `worktree_exists` and `branch_exists` (made since the plan), `worktree_create_failed`
 * (git's message) and `command_timeout` (nothing left behind by any of them), `lock_busy`.
 */
export async function createWorktree(
  deps: Deps,
  runtimeDir: string,
  plan: WorktreePlan,
  base: RecordBase,
): Promise<void> {
  const { path, branch, baseCommit, repoRoot } = plan.info;
  try {
    Deno.mkdirSync(dirName(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new LisaError(
      "worktree_create_failed",
      `Cannot create the worktree directory "${dirName(path)}": ${(error as Error).message}`,
      { cause: error, details: { path } },
    );
  }
  const failure = await withRepoLock(runtimeDir, plan.commonDir, async () => {
    // Checked again under the lock: a directory or branch made since the plan (a parallel
    // spawn of the same name or --branch) is not ours to create, nor to remove when `add` fails.
    if (pathTaken(path)) return worktreeExistsError(path);
    if (await branchExists(deps, repoRoot, branch)) return branchExistsError(branch, repoRoot);
    let added;
    try {
      const argv = ["worktree", "add", "--quiet", "-b", branch, path, baseCommit];
      added = await git(deps, repoRoot, argv, { allowFailure: true });
    } catch (error) {
      // A timeout (a slow checkout hook): git was stopped half-way.
      await removeCreated(deps, plan).catch(() => {});
      throw error;
    }
    if (added.success) return undefined;
    // git removes what it created when `add` fails; a branch it made before failing goes too.
    await removeCreated(deps, plan).catch(() => {});
    return new LisaError(
      "worktree_create_failed",
      `git could not create the worktree "${path}" (branch "${branch}"): ${gitMessage(added)}`,
      { details: { path, branch, repoRoot } },
    );
  });
  if (failure !== undefined) throw failure;
  try {
    writeRecord(plan.recordPath, { ...base, worktree: plan.info });
  } catch (error) {
    await discardWorktree(deps, runtimeDir, plan).catch(() => {});
    throw new LisaError(
      "worktree_create_failed",
      `Cannot write the worktree record "${plan.recordPath}": ${(error as Error).message}`,
      { cause: error, details: { path, branch } },
    );
  }
}

/**
 * Undoes {@link createWorktree} of a spawn that failed afterwards: the worktree (forced: it
 * holds nothing but the base commit), the branch, the record. Best effort; throws nothing a
 * caller must handle beyond `lock_busy`.
 */
export async function discardWorktree(
  deps: Deps,
  runtimeDir: string,
  plan: WorktreePlan,
): Promise<void> {
  await withRepoLock(runtimeDir, plan.commonDir, () => removeCreated(deps, plan));
  removeRecord(plan.recordPath);
}

/**
 * Removes what `git worktree add` of `plan` created: the worktree (forced: it holds nothing but
 * the base commit), git's entry of it, and the branch while it still points at the base commit
 * (a branch that moved is someone's work). The caller holds the repository lock.
 */
async function removeCreated(deps: Deps, plan: WorktreePlan): Promise<void> {
  const { path, branch, baseCommit, repoRoot } = plan.info;
  await git(deps, repoRoot, ["worktree", "remove", "--force", path], { allowFailure: true });
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* git removed it */ }
  await git(deps, repoRoot, ["worktree", "prune"], { allowFailure: true });
  await git(deps, repoRoot, ["update-ref", "-d", `refs/heads/${branch}`, baseCommit], {
    allowFailure: true,
  });
}
