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
import { InterruptedError, LisaError } from "../../base/errors.ts";
import type { RunResult } from "../../base/runner.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import { sessionStatus } from "../status/status.ts";
import { branchCommits, pendingChanges, worktreePresent } from "./describe.ts";
import { appendLifecycle } from "../session/lifecycle.ts";
import { findWorktree, type FoundWorktree } from "./find.ts";
import { recordGroup } from "../../proc/group.ts";
import { openSection } from "../../proc/interrupt.ts";
import { git, gitMessage, splitZ } from "./git.ts";
import {
  journalPath,
  type MergeJournal,
  readStateFiles,
  removeJournal,
  selfIdentity,
  STATUS_ARGS,
  statusPaths,
  undoMerge,
  withRepo,
  writeJournal,
} from "./merge_journal.ts";
import { type MergedMark, readRecord, writeRecord } from "./record.ts";

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

/** The merge_conflict error (exit 2) naming the files. */
function conflictError(
  branch: string,
  into: string,
  main: string,
  conflicts: string[],
  restored: boolean,
  pendingCommit: string | null,
): LisaError {
  return new LisaError(
    "merge_conflict",
    `Merging "${branch}" into "${into}" conflicts in ${conflicts.join(", ")}; the ` +
      `merge was aborted and ${main} is ${restored ? "as it was" : "NOT as it was"}`,
    { exitCode: 2, details: { main, branch, into, pendingCommit, restored, conflicts } },
  );
}

/** `git diff --name-status -z --no-renames` output: the files that exist before, and the added. */
function changesOf(out: string): { inHead: string[]; added: string[] } {
  const entries = splitZ(out);
  const inHead: string[] = [];
  const added: string[] = [];
  for (let i = 0; i + 1 < entries.length; i += 2) {
    (entries[i] === "A" ? added : inHead).push(entries[i + 1]);
  }
  return { inHead, added };
}

/** The directories that adding `added` files in `main` creates (those not there now). */
function newDirsOf(main: string, added: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const file of added) {
    const parts = file.split("/");
    for (let n = 1; n < parts.length; n++) {
      const dir = parts.slice(0, n).join("/");
      if (dirs.has(dir)) continue;
      try {
        Deno.lstatSync(`${main}/${dir}`);
      } catch {
        dirs.add(dir);
      }
    }
  }
  return [...dirs];
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
  const found = findWorktree(deps, options.session, options.projectRoot);
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

/** Steps 2–6 of the module doc, under lisa's lock of the repository. */
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
  return await withRepo(deps, found.location.runtimeDir, commonDir, async (stuck) => {
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
    if (readRecord(found.recordPath) === undefined && !worktreePresent(info)) {
      throw new LisaError(
        "worktree_not_found",
        `Session "${session}" has no worktree any more (pruned meanwhile)`,
        { details: { session } },
      );
    }
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
    // The merge is first made without the checkout (`merge-tree`): a conflict is found with
    // nothing written, and the files it changes are known before any is.
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
    const overlap = statusPaths(before).filter((p) => touches(files, p));
    if (overlap.length > 0) {
      throw new LisaError(
        "merge_dirty_checkout",
        `The main checkout ${main} has uncommitted or untracked changes in files the merge ` +
          `would change: ${overlap.join(", ")}; commit or stash them first`,
        { details: { main, files: overlap, pendingCommit } },
      );
    }
    const mergeBase = (await git(deps, main, ["merge-base", head, tip])).stdout.trim();
    const commits = (await branchCommits(deps, main, mergeBase, info.branch)).length;
    if (squash && files.length === 0) {
      // Everything is in `into` already: a squash has nothing to commit.
      mark(null);
      return result(null, [], commits);
    }
    const message = options.message ?? defaultMergeMessage(session, info.branch, squash);

    // The restore point, before anything of the checkout changes (`merge_journal.ts`).
    const gitDir = (await git(deps, main, ["rev-parse", "--absolute-git-dir"])).stdout.trim();
    const jpath = journalPath(commonDir);
    const journal: MergeJournal = {
      version: 1,
      session,
      main,
      gitDir,
      ref: `refs/heads/${into}`,
      head,
      tree,
      inHead: changes.inHead,
      added: changes.added,
      newDirs: newDirsOf(main, changes.added),
      stateFiles: readStateFiles(gitDir),
      status: before,
      ...selfIdentity(),
      gitGroup: null,
      startedAt: deps.now().toISOString(),
    };
    writeJournal(jpath, journal);
    const step = {
      allowFailure: true,
      onStart: (pgid: number) => {
        try {
          writeJournal(jpath, { ...journal, gitGroup: recordGroup(pgid) });
        } catch { /* undone without ending that git, should this lisa be killed */ }
      },
    };
    const undo = async (): Promise<boolean> => {
      const undone = await undoMerge(deps, journal).catch(() => null);
      // One that could not be undone stays, for the next lisa to try again.
      if (undone?.settled) removeJournal(jpath);
      return undone?.restored ?? false;
    };
    const notMerged = (what: string, r: RunResult, restored: boolean) =>
      new LisaError(
        "merge_failed",
        `git could not ${what} "${info.branch}" into "${into}": ${
          gitMessage(r).replace(/\.$/, "")
        }; ${main} is ${restored ? "as it was" : "NOT as it was"}`,
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
    // Stopped (its time limit, a signal): undone, and said so.
    const stopped = async (error: unknown): Promise<never> => {
      const restored = await undo();
      if (error instanceof InterruptedError) {
        throw new InterruptedError(
          error.signal,
          error.exitCode - 128,
          `merging "${info.branch}" into "${into}"; ${main} is ${
            restored ? "as it was" : "NOT as it was"
          }`,
          { main, branch: info.branch, into, pendingCommit, restored },
        );
      }
      if (error instanceof LisaError) Object.assign(error.details, { main, restored });
      throw error;
    };
    try {
      const merged = await git(
        deps,
        main,
        squash
          ? ["merge", "--squash", branchRef]
          : ["merge", "--no-ff", "--no-edit", "-m", message, branchRef],
        step,
      );
      if (!merged.success) {
        const unresolved = splitZ(
          (await git(deps, main, ["diff", "--name-only", "-z", "--diff-filter=U"], {
            allowFailure: true,
            cleanup: true,
          })).stdout,
        );
        const restored = await undo();
        if (unresolved.length > 0) {
          throw conflictError(info.branch, into, main, unresolved, restored, pendingCommit);
        }
        throw notMerged("merge", merged, restored);
      }
      if (squash) {
        // A hook may refuse the commit: the squashed changes must not stay staged.
        const committed = await git(deps, main, ["commit", "-q", "-m", message], step);
        if (!committed.success) throw notMerged("commit the squash of", committed, await undo());
      }
      const commit = await revParse(deps, main, "HEAD");
      // Done: from here on the merge stands.
      removeJournal(jpath);
      mark(commit);
      return result(commit, files, commits);
    } catch (error) {
      if (error instanceof LisaError && ["merge_failed", "merge_conflict"].includes(error.code)) {
        throw error;
      }
      return await stopped(error);
    }
  });
}
