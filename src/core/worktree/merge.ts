/**
 * `lisa session merge`: a worktree session's work into the main checkout's current branch.
 *
 * 1. Refused while the agent is working (`in_progress` or `just_started`) unless `force`.
 * 2. Under lisa's lock of the repository: the main checkout must be on a branch (not the
 *    session's), with no merge in progress and nothing staged; its uncommitted or untracked
 *    files, and those status hides (`merge_hidden.ts`: ignored files, edits under
 *    assume-unchanged or skip-worktree), must not be among those the merge changes
 *    (`merge_dirty_checkout`, listing them).
 * 3. What is pending in the worktree (changed and untracked files) is committed on the
 *    session's branch, with a message naming the session (`merge_refused` when the agent moved
 *    its worktree off that branch, or left unresolved conflicts in it; `merge_failed`, with the
 *    worktree's index put back, when a hook refuses the commit).
 * 4. The merge is computed without the main checkout (`git merge-tree --write-tree`): a
 *    conflict is reported (`merge_conflict`, exit 2, the conflicting files) with nothing
 *    written there, and the files the merge changes are known before any is.
 * 5. Then `git merge --no-ff` (or `--squash` plus one commit), git's own, hooks and all, after
 *    a restore point of what it changes (`merge_journal.ts`): a merge that fails (a hook
 *    refused it: `merge_failed`), passes its time limit, or is interrupted by a signal
 *    (`interrupted`) is undone from it, exactly; one whose lisa was killed is undone by the next
 *    lisa that takes the repository. The commit of step 3 stays on the session's branch.
 * 6. The record notes what was merged (a squash leaves the branch's commits unreachable, yet
 *    merged: the prune rule reads this note while the squash commit is on a branch), and the
 *    session's event log gets a `worktree_merged` (or `worktree_merge_conflict`) lifecycle
 *    event.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import { openSection } from "../../proc/interrupt.ts";
import { appendLifecycle } from "../session/mod.ts";
import { sessionStatus } from "../status/mod.ts";
import { branchCommits, worktreePresent } from "./describe.ts";
import { findWorktree, type FoundWorktree } from "./find.ts";
import { git, gitMessage, splitZ } from "./git.ts";
import { applyMerge, changesOf, conflictError } from "./merge_apply.ts";
import { hiddenChanges } from "./merge_hidden.ts";
import { journalPath, STATUS_ARGS, statusPaths, withRepo } from "./merge_journal.ts";
import { commitWorktree } from "./merge_pending.ts";
import { type MergedMark, readRecord, writeRecord } from "../../store/worktree_record.ts";

export { pendingCommitMessage } from "./merge_pending.ts";

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

async function revParse(deps: Deps, dir: string, ref: string): Promise<string> {
  return (await git(deps, dir, ["rev-parse", "--verify", "--quiet", ref])).stdout.trim();
}

function refused(message: string, details: Record<string, unknown>): LisaError {
  return new LisaError("merge_refused", message, { details });
}

/** git's own operations that stop half-way for a person, by the file that marks them. */
const OPERATIONS: readonly [string, string][] = [
  ["MERGE_HEAD", "merge"],
  ["rebase-merge", "rebase"],
  ["rebase-apply", "rebase or git am"],
  ["CHERRY_PICK_HEAD", "cherry-pick"],
  ["REVERT_HEAD", "revert"],
  ["BISECT_LOG", "bisect"],
];

/**
 * The git operation a person has in progress in the checkout `main` (a merge, rebase, `git am`,
 * cherry-pick, revert or bisect), or null. Merging over one would mix lisa's work into theirs.
 */
async function operationInProgress(deps: Deps, main: string): Promise<string | null> {
  const gitDir = (await git(deps, main, ["rev-parse", "--absolute-git-dir"])).stdout.trim();
  for (const [file, name] of OPERATIONS) {
    try {
      Deno.lstatSync(`${gitDir}/${file}`);
      return name;
    } catch { /* not this one */ }
  }
  return null;
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
  // A signal while it merges undoes the merge instead of leaving it half done.
  const closeSection = openSection();
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
  } finally {
    closeSection();
  }
}

/**
 * Step 2 of the module doc: the main checkout `main` is on a branch other than the session's
 * `branch`, with no git operation in progress and nothing staged. Returns that branch; throws
 * `merge_refused` or `merge_dirty_checkout`.
 */
async function checkMain(deps: Deps, main: string, branch: string): Promise<string> {
  const into = (await git(deps, main, ["symbolic-ref", "--quiet", "--short", "HEAD"], {
    allowFailure: true,
  })).stdout.trim();
  if (into === "") {
    throw refused(`The main checkout ${main} is not on a branch (detached HEAD)`, { main });
  }
  if (into === branch) {
    throw refused(`The main checkout ${main} is on the session's own branch "${into}"`, {
      main,
      branch: into,
    });
  }
  const operation = await operationInProgress(deps, main);
  if (operation !== null) {
    throw refused(
      `A ${operation} is in progress in ${main}; finish or abort it first (git status says how)`,
      { main, operation },
    );
  }
  const staged = await git(deps, main, ["diff", "--cached", "--quiet"], { allowFailure: true });
  if (!staged.success) {
    throw new LisaError(
      "merge_dirty_checkout",
      `The main checkout ${main} has staged changes; commit or unstage them before merging`,
      { details: { main, files: [] } },
    );
  }
  return into;
}

/** Steps 2–6 of the module doc, under lisa's lock of the repository. */
/** One merge, as `mergeSession` resolved it. */
interface MergeJob {
  deps: Deps;
  found: FoundWorktree;
  commonDir: string;
  squash: boolean;
  sessionState: string | null;
  options: MergeOptions;
}

async function mergeLocked(
  deps: Deps,
  found: FoundWorktree,
  commonDir: string,
  squash: boolean,
  sessionState: string | null,
  options: MergeOptions,
): Promise<MergeResult> {
  const job: MergeJob = { deps, found, commonDir, squash, sessionState, options };
  return await withRepo(
    deps,
    found.location.runtimeDir,
    commonDir,
    (stuck) => mergeUnderLock(job, stuck),
  );
}

/**
 * Refuses a merge that something else stands in the way of: an earlier merge that could not be
 * undone, or a prune that took the worktree while this merge waited for the lock.
 */
function checkInTheWay(job: MergeJob, stuck: { session: string; main: string } | null): void {
  const { found, commonDir } = job;
  if (stuck !== null) {
    throw refused(
      `A merge of session ${stuck.session} into ${stuck.main} was interrupted and could not ` +
        `be undone; put ${stuck.main} back yourself (git status shows what it changed), then ` +
        `remove ${journalPath(commonDir)}`,
      { main: stuck.main, journal: journalPath(commonDir) },
    );
  }
  // A prune of the same session that ran while this merge waited for the lock took the
  // worktree and its record: nothing is left to merge.
  if (readRecord(found.recordPath) === undefined && !worktreePresent(found.record.worktree)) {
    throw new LisaError(
      "worktree_not_found",
      `Session "${found.session}" has no worktree any more (pruned meanwhile)`,
      { details: { session: found.session } },
    );
  }
}

/** Steps 2 to 5 of the module doc, under lisa's lock of the repository. */
async function mergeUnderLock(
  job: MergeJob,
  stuck: { session: string; main: string } | null,
): Promise<MergeResult> {
  const { deps, found, commonDir, squash, sessionState, options } = job;
  const { session } = found;
  const info = found.record.worktree;
  const main = info.repoRoot;
  checkInTheWay(job, stuck);
  const into = await checkMain(deps, main, info.branch);
  // The worktree's pending work becomes a commit on its branch.
  const pendingCommit = await commitWorktree(deps, info, session);
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
  const { tree, changes, files, before } = await mergeTree(job, { head, tip, into, pendingCommit });
  const mergeBase = (await git(deps, main, ["merge-base", head, tip])).stdout.trim();
  const commits = (await branchCommits(deps, main, mergeBase, info.branch)).length;
  if (squash && files.length === 0) {
    // Everything is in `into` already: a squash has nothing to commit.
    mark(null);
    return result(null, [], commits);
  }
  const message = options.message ?? defaultMergeMessage(session, info.branch, squash);
  const commit = await applyMerge(deps, {
    session,
    main,
    commonDir,
    into,
    branch: info.branch,
    head,
    tree,
    changes,
    before,
    squash,
    message,
    pendingCommit,
  });
  mark(commit);
  return result(commit, files, commits);
}

/**
 * The merge made first without the checkout (`merge-tree`): a conflict is found with nothing
 * written, and the files it changes are known before any is. Throws `merge_conflict`, and
 * `merge_dirty_checkout` when the checkout has changes of its own in those files.
 */
async function mergeTree(
  job: MergeJob,
  at: { head: string; tip: string; into: string; pendingCommit: string | null },
) {
  const { deps, found } = job;
  const info = found.record.worktree;
  const main = info.repoRoot;
  const { head, tip, into, pendingCommit } = at;
  const computed = await git(deps, main, [
    "merge-tree",
    "--write-tree",
    "-z",
    "--name-only",
    "--no-messages",
    head,
    tip,
  ], { allowFailure: true });
  const [tree, ...conflicted] = splitZ(computed.stdout);
  if (computed.code === 1) {
    throw conflictError(info.branch, into, main, [...new Set(conflicted)], true, pendingCommit);
  }
  if (!computed.success || tree === undefined) {
    throw new LisaError("git_failed", `git merge-tree failed: ${gitMessage(computed)}`, {
      details: { main, stderr: computed.stderr.trim() },
    });
  }
  const changes = changesOf(
    (await git(deps, main, ["diff", "--name-status", "-z", "--no-renames", head, tree]))
      .stdout,
  );
  const files = [...changes.inHead, ...changes.added].sort();
  const before = (await git(deps, main, STATUS_ARGS)).stdout;
  const shown = statusPaths(before).filter((p) => touches(files, p));
  // What status hides (ignored files, assume-unchanged and skip-worktree edits) is a
  // person's too: git's merge would overwrite it, or refuse and leave lisa to undo over it.
  const hidden = (await hiddenChanges(deps, main, head, changes))
    .filter((h) => !shown.some((p) => touches([h], p)));
  const overlap = [...shown, ...hidden].sort();
  if (overlap.length > 0) {
    throw new LisaError(
      "merge_dirty_checkout",
      `The main checkout ${main} has uncommitted, untracked or ignored changes in files the ` +
        `merge would change: ${overlap.join(", ")}; commit, move or stash them first`,
      { details: { main, files: overlap, pendingCommit } },
    );
  }
  return { tree, changes, files, before };
}
