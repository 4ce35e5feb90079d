/**
 * Creating and removing a session's worktree. `git worktree add` and `git worktree remove` run
 * under lisa's lock of the repository (`git.ts`), so parallel spawns into one repository never
 * trip over git's own lock files.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { dirName } from "../../base/paths.ts";
import { git, gitMessage, withRepoLock } from "./git.ts";
import type { WorktreePlan } from "./plan.ts";
import { removeRecord, type WorktreeRecord, writeRecord } from "./record.ts";

/** The facts of the session a worktree is created for (its record). */
export type RecordBase = Omit<WorktreeRecord, "worktree" | "merged">;

/**
 * Creates the worktree of `plan` on its new branch at the base commit, then its record.
 * Throws `worktree_create_failed` (git's message; nothing left behind) and `lock_busy`.
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
  const added = await withRepoLock(
    runtimeDir,
    plan.commonDir,
    () =>
      git(deps, repoRoot, ["worktree", "add", "--quiet", "-b", branch, path, baseCommit], {
        allowFailure: true,
      }),
  );
  if (!added.success) {
    // git removes what it created when `add` fails; a branch it made before failing goes too.
    await discardWorktree(deps, runtimeDir, plan).catch(() => {});
    throw new LisaError(
      "worktree_create_failed",
      `git could not create the worktree "${path}" (branch "${branch}"): ${gitMessage(added)}`,
      { details: { path, branch, repoRoot } },
    );
  }
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
  const { path, branch, repoRoot } = plan.info;
  await withRepoLock(runtimeDir, plan.commonDir, async () => {
    await git(deps, repoRoot, ["worktree", "remove", "--force", path], { allowFailure: true });
    await git(deps, repoRoot, ["worktree", "prune"], { allowFailure: true });
    await git(deps, repoRoot, ["branch", "-D", "--end-of-options", branch], {
      allowFailure: true,
    });
  });
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* git removed it */ }
  removeRecord(plan.recordPath);
}
