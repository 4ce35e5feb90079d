/**
 * Step 5 of `session merge` (`merge.ts`): git's own merge (or squash and commit) into the main
 * checkout, hooks and all, after a restore point of what it changes (`merge_journal.ts`). A
 * merge that fails, passes its time limit or is interrupted by a signal is undone from it at
 * once; one whose lisa is killed, by the next lisa that takes the repository.
 */
import type { Deps } from "../../base/deps.ts";
import { InterruptedError, LisaError } from "../../base/errors.ts";
import type { RunResult } from "../../base/runner.ts";
import { recordGroup } from "../../proc/group.ts";
import { git, gitMessage, splitZ } from "./git.ts";
import {
  journalPath,
  type MergeJournal,
  readStateFiles,
  removeJournal,
  selfIdentity,
  undoMerge,
  writeJournal,
} from "./merge_journal.ts";

/** What {@link applyMerge} merges, as `merge.ts` computed and checked it. */
export interface MergeStep {
  session: string;
  /** The main checkout, and its repository's common git dir. */
  main: string;
  commonDir: string;
  /** The branch merged into, the commit it points at, and the tree the merge makes. */
  into: string;
  head: string;
  tree: string;
  /** The session's branch. */
  branch: string;
  /** The files the merge changes (`changesOf`). */
  changes: { inHead: string[]; added: string[] };
  /** `git status` of the main checkout before. */
  before: string;
  squash: boolean;
  message: string;
  /** The commit of the worktree's pending work (for error details). */
  pendingCommit: string | null;
}

/** The merge_conflict error (exit 2) naming the files. */
export function conflictError(
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
export function changesOf(out: string): { inHead: string[]; added: string[] } {
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
 * Merges `step.branch` into the main checkout (step 5 of `merge.ts`); returns the commit made.
 * Throws, each after undoing the merge (`restored` in the details): `merge_conflict` (exit 2),
 * `merge_failed` (git or a hook refused), `command_timeout`, `interrupted`.
 */
export async function applyMerge(deps: Deps, step: MergeStep): Promise<string> {
  const { main, into, branch, pendingCommit } = step;
  const { journal, jpath } = await writeRestorePoint(deps, step);
  const options = {
    allowFailure: true,
    onStart: (pgid: number) => {
      try {
        writeJournal(jpath, { ...journal, gitGroup: recordGroup(pgid) });
      } catch { /* undone without ending that git, should this lisa be killed */ }
    },
  };
  const { undo, as, notMerged } = undoerOf(deps, step, journal, jpath);
  const branchRef = `refs/heads/${branch}`;
  try {
    const merged = await git(
      deps,
      main,
      step.squash
        ? ["merge", "--squash", branchRef]
        : ["merge", "--no-ff", "--no-edit", "-m", step.message, branchRef],
      options,
    );
    if (!merged.success) {
      const unresolved = splitZ(
        (await git(deps, main, ["diff", "--name-only", "-z", "--diff-filter=U"], {
          allowFailure: true,
          cleanup: true,
        })).stdout,
      );
      // Conflict markers are git's writing, not a person's: those files are put back.
      const restored = await undo(unresolved.length === 0);
      if (unresolved.length > 0) {
        throw conflictError(branch, into, main, unresolved, restored, pendingCommit);
      }
      throw notMerged("merge", merged, restored);
    }
    if (step.squash) {
      // A hook may refuse the commit: the squashed changes must not stay staged.
      const committed = await git(deps, main, ["commit", "-q", "-m", step.message], options);
      if (!committed.success) {
        throw notMerged("commit the squash of", committed, await undo(true));
      }
    }
    const commit = (await git(deps, main, ["rev-parse", "--verify", "--quiet", "HEAD"])).stdout
      .trim();
    // Done: from here on the merge stands.
    removeJournal(jpath);
    return commit;
  } catch (error) {
    if (error instanceof LisaError && ["merge_failed", "merge_conflict"].includes(error.code)) {
      throw error;
    }
    // Stopped (its time limit, a signal): undone, and said so.
    const restored = await undo();
    if (error instanceof InterruptedError) {
      throw new InterruptedError(
        error.signal,
        error.exitCode - 128,
        `merging "${branch}" into "${into}"; ${as(restored)}`,
        { main, branch, into, pendingCommit, restored },
      );
    }
    if (error instanceof LisaError) Object.assign(error.details, { main, restored });
    throw error;
  }
}

/** How a failed merge is taken back, and how the checkout it leaves is worded. */
interface Undoer {
  /** Undoes the merge (see `whole` in {@link undoerOf}); true when the checkout is as it was. */
  undo(whole?: boolean): Promise<boolean>;
  /** The checkout after an undo, in words. */
  as(restored: boolean): string;
  /** The `merge_failed` error of a git step that failed (`what`: the step, in words). */
  notMerged(what: string, r: RunResult, restored: boolean): LisaError;
}

/** The undo of the merge of `step` from its restore point (`journal`, at `jpath`). */
function undoerOf(deps: Deps, step: MergeStep, journal: MergeJournal, jpath: string): Undoer {
  const { main, into, branch, pendingCommit } = step;
  // `whole`: git ended by itself (it refused, or a hook did), so each file of the merge is
  // whole, as HEAD has it or as the merge makes it, unless someone changed it since the checks
  // (git's refusal to overwrite such a file is why it failed): that file is left as it is.
  // A git ended by a signal or its time limit may have left a file half written: then every
  // file of the merge is put back.
  // The files the undo left as someone changed them meanwhile (`whole` undo only).
  let kept: string[] = [];
  const undo = async (whole = false): Promise<boolean> => {
    const undone = await undoMerge(deps, journal, whole).catch(() => null);
    // One that could not be undone stays, for the next lisa to try again.
    if (undone?.settled) removeJournal(jpath);
    if (undone !== null && !undone.restored && undone.restoredButLeft) kept = undone.left;
    return undone?.restored ?? false;
  };
  const as = (restored: boolean) =>
    restored
      ? `${main} is as it was`
      : kept.length > 0
      ? `${main} is as it was but for ${kept.join(", ")}, which someone changed meanwhile ` +
        "(kept as they made it)"
      : `${main} is NOT as it was`;
  const notMerged = (what: string, r: RunResult, restored: boolean) =>
    new LisaError(
      "merge_failed",
      `git could not ${what} "${branch}" into "${into}": ${gitMessage(r).replace(/\.$/, "")}; ${
        as(restored)
      }`,
      {
        details: {
          main,
          branch,
          into,
          pendingCommit,
          restored,
          ...(kept.length > 0 ? { kept } : {}),
          stderr: r.stderr.trim(),
        },
      },
    );
  return { undo, as, notMerged };
}

/**
 * The restore point, written before anything of the checkout changes (`merge_journal.ts`).
 * Throws `merge_failed` when it cannot be written: then nothing was merged.
 */
async function writeRestorePoint(
  deps: Deps,
  step: MergeStep,
): Promise<{ journal: MergeJournal; jpath: string }> {
  const { main, into, branch, pendingCommit } = step;
  const gitDir = (await git(deps, main, ["rev-parse", "--absolute-git-dir"])).stdout.trim();
  const jpath = journalPath(step.commonDir);
  const journal: MergeJournal = {
    version: 1,
    session: step.session,
    main,
    gitDir,
    ref: `refs/heads/${into}`,
    head: step.head,
    tree: step.tree,
    message: step.message,
    inHead: step.changes.inHead,
    added: step.changes.added,
    newDirs: newDirsOf(main, step.changes.added),
    stateFiles: readStateFiles(gitDir),
    status: step.before,
    ...selfIdentity(),
    gitGroup: null,
    startedAt: deps.now().toISOString(),
  };
  try {
    writeJournal(jpath, journal);
  } catch (error) {
    throw new LisaError(
      "merge_failed",
      `Cannot write the merge's restore point "${jpath}": ${(error as Error).message}; ` +
        `nothing was merged and ${main} is as it was`,
      { cause: error, details: { main, branch, into, pendingCommit, restored: true } },
    );
  }
  return { journal, jpath };
}
