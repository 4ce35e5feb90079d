/**
 * `lisa session merge`: a worktree session's work into the main checkout's current branch.
 *
 * 1. Refused while the agent is working (`in_progress` or `just_started`) unless `force`.
 * 2. Under lisa's lock of the repository: the main checkout must be on a branch (not the
 *    session's), with no merge in progress and nothing staged; its uncommitted or untracked
 *    files must not be among those the merge changes (`merge_dirty_checkout`, listing them).
 * 3. What is pending in the worktree (changed and untracked files) is committed on the
 *    session's branch, with a message naming the session (`merge_refused` when the agent moved
 *    its worktree off that branch, or left unresolved conflicts in it; `merge_failed`, with the
 *    worktree's index put back, when a hook refuses the commit).
 * 4. `git merge --no-ff` (or `--squash` plus one commit). A conflict is aborted at once
 *    (`git merge --abort`; `git reset --merge` after a squash): the main checkout is as it
 *    was, and the error (`merge_conflict`, exit 2) lists the conflicting files. A merge or
 *    squash commit that fails otherwise (a hook refused it: `merge_failed`) or times out is
 *    undone the same way. The commit of step 3 stays on the session's branch.
 * 5. The record notes what was merged (a squash leaves the branch's commits unreachable, yet
 *    merged: the prune rule reads this note), and the session's event log gets a
 *    `worktree_merged` (or `worktree_merge_conflict`) lifecycle event.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import type { RunResult } from "../../base/runner.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import { sessionStatus } from "../status/status.ts";
import { branchCommits, pendingChanges, worktreePresent } from "./describe.ts";
import { appendLifecycle } from "../session/lifecycle.ts";
import { findWorktree, type FoundWorktree } from "./find.ts";
import { git, gitMessage, splitZ, withRepoLock } from "./git.ts";
import { type MergedMark, writeRecord } from "./record.ts";

/** States in which the agent counts as working (merge refuses them without `force`). */
export const BUSY_STATES: readonly string[] = ["in_progress", "just_started"];

/** Options of {@link mergeSession}. */
export interface MergeOptions {
  session: string;
  projectRoot?: string;
  /** One commit instead of a merge commit. */
  squash?: boolean;
  /** The merge (or squash) commit's message. */
  message?: string;
  /** Merge even while the agent is working. */
  force?: boolean;
}

/** `session merge --json`. */
export interface MergeResult {
  ok: true;
  session: string;
  worktree: WorktreeInfo;
  branch: string;
  /** The main checkout's branch the work went into. */
  into: string;
  squash: boolean;
  /** The commit made on `into` (null when there was nothing to merge). */
  mergeCommit: string | null;
  /** The commit of the worktree's pending changes (null when there were none). */
  pendingCommit: string | null;
  /** Commits of the branch brought in. */
  commits: number;
  /** Files the merge changed in the main checkout. */
  files: string[];
  /** True when the main checkout already had everything. */
  upToDate: boolean;
  /** The session's state when merged (null when it is gone). */
  sessionState: string | null;
}

/** The default commit messages, naming the session and its branch. */
export function defaultMergeMessage(session: string, branch: string, squash: boolean): string {
  return squash
    ? `lisa: work of session ${session} (branch ${branch}, squashed)`
    : `Merge lisa session ${session} (branch ${branch})`;
}

/** The message of the commit of a worktree's pending changes. */
export function pendingCommitMessage(session: string): string {
  return `lisa: uncommitted work of session ${session}`;
}

async function revParse(deps: Deps, dir: string, ref: string): Promise<string> {
  return (await git(deps, dir, ["rev-parse", "--verify", "--quiet", ref])).stdout.trim();
}

function refused(message: string, details: Record<string, unknown>): LisaError {
  return new LisaError("merge_refused", message, { details });
}

/** Paths in `git status --porcelain -z` output (both sides of a rename). */
function statusPaths(out: string): string[] {
  const paths: string[] = [];
  const entries = splitZ(out);
  for (let i = 0; i < entries.length; i++) {
    const code = entries[i].slice(0, 2);
    paths.push(entries[i].slice(3));
    if (code.includes("R") || code.includes("C")) paths.push(entries[++i]);
  }
  return paths;
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
 * True when the merge's `files` touch the local path `path`: the same file, or a file where the
 * path is a directory (or the reverse), which git refuses to overwrite.
 */
function touches(files: readonly string[], path: string): boolean {
  const dir = path.replace(/\/$/, "");
  return files.some((f) => f === dir || f.startsWith(`${dir}/`) || dir.startsWith(`${f}/`));
}

/**
 * Merges session `session`'s worktree branch into the main checkout (see the module doc).
 * Throws `worktree_not_found`, `session_busy`, `merge_refused`, `merge_dirty_checkout`,
 * `merge_conflict` (exit 2, `conflicts` in the details), `merge_failed`, `git_failed`,
 * `lock_busy`.
 */
export async function mergeSession(deps: Deps, options: MergeOptions): Promise<MergeResult> {
  const found = await findWorktree(deps, options.session, options.projectRoot);
  const { session } = found;
  const info = found.record.worktree;
  const squash = options.squash ?? false;

  const { report } = await sessionStatus(deps, { session, projectRoot: options.projectRoot });
  const sessionState = report.sessionState === "not_found" ? null : report.sessionState;
  if (sessionState !== null && BUSY_STATES.includes(sessionState) && !options.force) {
    throw new LisaError(
      "session_busy",
      `Session "${session}" is ${sessionState}: its agent may still be changing files; wait ` +
        "for it (session monitor) or merge with --force",
      { details: { session, sessionState } },
    );
  }

  const main = info.repoRoot;
  const commonDir = (await git(deps, main, [
    "rev-parse",
    "--path-format=absolute",
    "--git-common-dir",
  ])).stdout.trim();
  const log = (reason: string, extra: Record<string, unknown>) =>
    appendLifecycle(deps, found.location.paths.events, session, {
      runId: found.location.meta?.runId ?? null,
      state: null,
      status: null,
      reason,
      branch: info.branch,
      ...extra,
    });
  try {
    const merged = await mergeLocked(deps, found, commonDir, squash, sessionState, options);
    await log("worktree_merged", {
      into: merged.into,
      mergeCommit: merged.mergeCommit,
      squash,
      upToDate: merged.upToDate,
    });
    return merged;
  } catch (error) {
    if (error instanceof LisaError && error.code === "merge_conflict") {
      await log("worktree_merge_conflict", { conflicts: error.details.conflicts });
    }
    throw error;
  }
}

/** Steps 2–5 of the module doc, under lisa's lock of the repository. */
async function mergeLocked(
  deps: Deps,
  found: FoundWorktree,
  commonDir: string,
  squash: boolean,
  sessionState: string | null,
  options: MergeOptions,
): Promise<MergeResult> {
  const { session } = found;
  const info = found.record.worktree;
  const main = info.repoRoot;
  return await withRepoLock(found.location.runtimeDir, commonDir, async () => {
    const into = (await git(deps, main, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
      allowFailure: true,
    })).stdout.trim();
    if (into === "") {
      throw refused(`The main checkout ${main} is not on a branch (detached HEAD)`, { main });
    }
    if (into === info.branch) {
      throw refused(`The main checkout ${main} is on the session's own branch "${into}"`, {
        main,
        branch: into,
      });
    }
    const merging = await git(deps, main, ["rev-parse", "-q", "--verify", "MERGE_HEAD"], {
      allowFailure: true,
    });
    if (merging.success) {
      throw refused(`A merge is already in progress in ${main}; finish or abort it first`, {
        main,
      });
    }
    const staged = await git(deps, main, ["diff", "--cached", "--quiet"], { allowFailure: true });
    if (!staged.success) {
      throw new LisaError(
        "merge_dirty_checkout",
        `The main checkout ${main} has staged changes; commit or unstage them before merging`,
        { details: { main, files: [] } },
      );
    }

    // The worktree's pending work becomes a commit on its branch.
    let pendingCommit: string | null = null;
    if (worktreePresent(info)) {
      // An agent that switched branches left its work off the session's branch: merging the
      // branch would bring in none of it, and committing would put it on the other one.
      const on = (await git(deps, info.path, ["symbolic-ref", "--quiet", "HEAD"], {
        allowFailure: true,
      })).stdout.trim();
      if (on !== `refs/heads/${info.branch}`) {
        const where = on === ""
          ? "a detached HEAD"
          : `branch "${on.replace(/^refs\/heads\//, "")}"`;
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
      if (pending.uncommitted.length + pending.untracked.length > 0) {
        pendingCommit = await commitPending(deps, info, session);
      }
    }

    const branchRef = `refs/heads/${info.branch}`;
    const tip = await revParse(deps, main, branchRef);
    const head = await revParse(deps, main, "HEAD");
    const result = (mergeCommit: string | null, files: string[], commits: number) => ({
      ok: true as const,
      session,
      worktree: info,
      branch: info.branch,
      into,
      squash,
      mergeCommit,
      pendingCommit,
      commits,
      files,
      upToDate: mergeCommit === null,
      sessionState,
    });
    const mark = (commit: string | null) => {
      const merged: MergedMark = { tip, into, commit, squash, at: deps.now().toISOString() };
      try {
        writeRecord(found.recordPath, { ...found.record, merged });
      } catch { /* the merge stands; prune then judges by ancestry alone */ }
    };

    const ancestor = await git(deps, main, ["merge-base", "--is-ancestor", tip, head], {
      allowFailure: true,
    });
    if (ancestor.success) {
      mark(null);
      return result(null, [], 0);
    }
    const mergeBase = (await git(deps, main, ["merge-base", head, tip])).stdout.trim();
    const files = splitZ(
      (await git(deps, main, ["diff", "--name-only", "-z", "--no-renames", mergeBase, tip]))
        .stdout,
    );
    const statusArgs = ["status", "--porcelain=v1", "-z", "--untracked-files=all"];
    const before = (await git(deps, main, statusArgs)).stdout;
    const overlap = statusPaths(before).filter((p) => touches(files, p));
    if (overlap.length > 0) {
      throw new LisaError(
        "merge_dirty_checkout",
        `The main checkout ${main} has uncommitted or untracked changes in files the merge ` +
          `would change: ${overlap.join(", ")}; commit or stash them first`,
        { details: { main, files: overlap, pendingCommit } },
      );
    }
    const commits = (await branchCommits(deps, main, mergeBase, info.branch)).length;
    const message = options.message ?? defaultMergeMessage(session, info.branch, squash);
    // Puts the main checkout back as it was after a failed (or stopped) merge or squash
    // commit; true when it is. A commit the merge already made is left alone.
    const restore = async (): Promise<boolean> => {
      const now = await git(deps, main, ["rev-parse", "--verify", "--quiet", "HEAD"], {
        allowFailure: true,
      });
      if (now.stdout.trim() !== head) return false;
      const inMerge = (await git(deps, main, ["rev-parse", "-q", "--verify", "MERGE_HEAD"], {
        allowFailure: true,
      })).success;
      await git(deps, main, inMerge ? ["merge", "--abort"] : ["reset", "--merge"], {
        allowFailure: true,
      });
      return (await git(deps, main, statusArgs)).stdout === before;
    };
    // A git call that throws (a timeout in a slow hook) first puts the checkout back.
    const restoring = async (args: string[]) => {
      try {
        return await git(deps, main, args, { allowFailure: true });
      } catch (error) {
        await restore().catch(() => false);
        throw error;
      }
    };
    const notMerged = (step: string, r: RunResult, restored: boolean) =>
      new LisaError(
        "merge_failed",
        `git could not ${step} "${info.branch}" into "${into}": ${
          gitMessage(r).replace(/\.$/, "")
        }; ${main} is ` +
          `${restored ? "as it was" : "NOT as it was"}`,
        {
          details: {
            main,
            branch: info.branch,
            into,
            pendingCommit,
            restored,
            stderr: r.stderr.trim(),
          },
        },
      );
    const merged = await restoring(
      squash
        ? ["merge", "--squash", branchRef]
        : ["merge", "--no-ff", "--no-edit", "-m", message, branchRef],
    );
    if (!merged.success) {
      const conflicts = splitZ(
        (await git(deps, main, ["diff", "--name-only", "-z", "--diff-filter=U"], {
          allowFailure: true,
        })).stdout,
      );
      const restored = await restore();
      if (conflicts.length > 0) {
        throw new LisaError(
          "merge_conflict",
          `Merging "${info.branch}" into "${into}" conflicts in ${conflicts.join(", ")}; the ` +
            `merge was aborted and ${main} is ${restored ? "as it was" : "NOT as it was"}`,
          {
            exitCode: 2,
            details: { main, branch: info.branch, into, pendingCommit, restored, conflicts },
          },
        );
      }
      throw notMerged("merge", merged, restored);
    }
    if (squash) {
      const any = await git(deps, main, ["diff", "--cached", "--quiet"], { allowFailure: true });
      if (any.success) {
        mark(null);
        return result(null, [], commits);
      }
      // A hook may refuse the commit: the squashed changes must not stay staged.
      const committed = await restoring(["commit", "-q", "-m", message]);
      if (!committed.success) throw notMerged("commit the squash of", committed, await restore());
    }
    const commit = await revParse(deps, main, "HEAD");
    mark(commit);
    return result(commit, files, commits);
  });
}
