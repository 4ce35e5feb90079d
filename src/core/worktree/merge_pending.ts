/**
 * Step 3 of `session merge` (`merge.ts`): what is pending in the session's worktree becomes a
 * commit on its branch, after the checks that the worktree is on that branch and holds no
 * unresolved conflict. The worktree's index is put back as the agent left it when git refuses
 * (a hook) or is stopped.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import type { RunResult } from "../../base/runner.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import { pendingChanges, worktreePresent } from "./describe.ts";
import { git, gitMessage, splitZ } from "./git.ts";

/** The message of the commit of a worktree's pending changes. */
export function pendingCommitMessage(session: string): string {
  return `lisa: uncommitted work of session ${session}`;
}

function refused(message: string, details: Record<string, unknown>): LisaError {
  return new LisaError("merge_refused", message, { details });
}

async function revParse(deps: Deps, dir: string, ref: string): Promise<string> {
  return (await git(deps, dir, ["rev-parse", "--verify", "--quiet", ref])).stdout.trim();
}

/**
 * Commits everything pending in the worktree on its branch; returns the commit. When git
 * refuses (a pre-commit hook) or stops, the worktree's index is put back as the agent left it
 * (what it had staged, and only that) and `merge_failed` names git's reason.
 */
async function commitPending(deps: Deps, info: WorktreeInfo, session: string): Promise<string> {
  const indexPath = (await git(deps, info.path, [
    "rev-parse",
    "--path-format=absolute",
    "--git-path",
    "index",
  ])).stdout.trim();
  let saved: Uint8Array | null = null;
  try {
    saved = Deno.readFileSync(indexPath);
  } catch { /* no index yet */ }
  const before = await revParse(deps, info.path, "HEAD");
  const putBack = async () => {
    // A commit that was made (a post-commit hook timed out) stands, with its index.
    const now = await git(deps, info.path, ["rev-parse", "--verify", "--quiet", "HEAD"], {
      allowFailure: true,
      cleanup: true,
    }).catch(() => undefined);
    if (now?.stdout.trim() !== before) return;
    try {
      if (saved === null) Deno.removeSync(indexPath);
      else {
        // Like git: a new file renamed over the index, never a half-written index.
        Deno.writeFileSync(`${indexPath}.lisa-restore`, saved);
        Deno.renameSync(`${indexPath}.lisa-restore`, indexPath);
      }
    } catch { /* best effort: the files themselves were never touched */ }
  };
  let committed: RunResult;
  try {
    await git(deps, info.path, ["add", "-A", "--", "."]);
    committed = await git(deps, info.path, ["commit", "-q", "-m", pendingCommitMessage(session)], {
      allowFailure: true,
    });
  } catch (error) {
    await putBack();
    throw error;
  }
  if (!committed.success) {
    await putBack();
    throw new LisaError(
      "merge_failed",
      `git could not commit the pending work in the worktree ${info.path}: ${
        gitMessage(committed).replace(/\.$/, "")
      }; the worktree is as it was and nothing was merged`,
      { details: { path: info.path, branch: info.branch, stderr: committed.stderr.trim() } },
    );
  }
  return await revParse(deps, info.path, "HEAD");
}

/**
 * Commits what is pending in the worktree of `info` on the session's branch; returns the commit
 * (null when nothing was pending, or the worktree is gone). Throws `merge_refused` when the agent
 * moved the worktree off the session's branch or left unresolved conflicts in it, and
 * `merge_failed` when git refuses the commit.
 */
export async function commitWorktree(
  deps: Deps,
  info: WorktreeInfo,
  session: string,
): Promise<string | null> {
  if (!worktreePresent(info)) return null;
  // An agent that switched branches left its work off the session's branch: merging the
  // branch would bring in none of it, and committing would put it on the other one.
  const on = (await git(deps, info.path, ["symbolic-ref", "--quiet", "HEAD"], {
    allowFailure: true,
  })).stdout.trim();
  if (on !== `refs/heads/${info.branch}`) {
    const where = on === "" ? "a detached HEAD" : `branch "${on.replace(/^refs\/heads\//, "")}"`;
    throw refused(
      `The worktree ${info.path} is on ${where}, not on the session's branch ` +
        `"${info.branch}"; check out "${info.branch}" there (or merge the other branch ` +
        "yourself)",
      { path: info.path, branch: info.branch, head: on || null },
    );
  }
  // Unresolved conflicts (a merge or cherry-pick stopped half-way) would be committed with
  // their conflict markers and merged into the main checkout.
  const unresolved = splitZ(
    (await git(deps, info.path, ["diff", "--name-only", "-z", "--diff-filter=U"])).stdout,
  );
  if (unresolved.length > 0) {
    throw refused(
      `The worktree ${info.path} has unresolved conflicts in ${unresolved.join(", ")}; ` +
        "resolve and commit them there (or abort that merge) first",
      { path: info.path, branch: info.branch, conflicts: unresolved },
    );
  }
  const pending = await pendingChanges(deps, info.path);
  if (pending.uncommitted.length + pending.untracked.length === 0) return null;
  return await commitPending(deps, info, session);
}
