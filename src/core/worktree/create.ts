/**
 * Creating and removing a session's worktree. `git worktree add` and `git worktree remove` run
 * under lisa's lock of the repository (`git.ts`), so parallel spawns into one repository never
 * trip over git's own lock files.
 *
 * Intent first (`store/worktree_record.ts`): the record, marked `spawning`, is written before
 * `git worktree add` runs, so whatever interrupts the spawn (a timeout, a signal, SIGKILL), prune
 * and the next spawn of the name find what it left (`leftover.ts`). The spawn drops the mark
 * ({@link confirmWorktree}) once its session runs.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { dirName } from "../../base/paths.ts";
import { InterruptedError } from "../../base/errors.ts";
import { recordGroup } from "../../proc/group.ts";
import { interruption, openSection, SIGNAL_NUMBERS } from "../../proc/interrupt.ts";
import { readStat } from "../../proc/table.ts";
import { git, gitMessage } from "./git.ts";
import { withRepo } from "./merge_journal.ts";
import { removeUnstarted } from "./leftover.ts";
import {
  branchExistsError,
  branchInTheWay,
  pathTaken,
  recordExistsError,
  worktreeExistsError,
  type WorktreePlan,
} from "./worktree_plan.ts";
import {
  readRecord,
  removeRecord,
  type SpawnIntent,
  type WorktreeRecord,
  writeRecord,
} from "../../store/worktree_record.ts";

/** The facts of the session a worktree is created for (its record). */
export type RecordBase = Omit<WorktreeRecord, "worktree" | "merged" | "spawning">;

/** The mark of a spawn by this lisa process, in `phase`. */
function intentOf(
  phase: SpawnIntent["phase"],
  gitGroup: SpawnIntent["gitGroup"] = null,
): SpawnIntent {
  return { pid: Deno.pid, startTime: readStat(Deno.pid)?.startTime ?? null, phase, gitGroup };
}

/**
 * Creates the worktree of `plan` on its new branch at the base commit, with its record (marked
 * `spawning` until {@link confirmWorktree}). Throws `worktree_exists` and `branch_exists` (made
 * since the plan), `worktree_create_failed` (git's message), `command_timeout` and
 * `interrupted` (nothing left behind by any of them), `lock_busy`.
 */
export async function createWorktree(
  deps: Deps,
  runtimeDir: string,
  plan: WorktreePlan,
  base: RecordBase,
): Promise<void> {
  const { path, branch, baseCommit, repoRoot } = plan.info;
  const recordOf = (spawning: SpawnIntent): WorktreeRecord => ({
    ...base,
    worktree: plan.info,
    spawning,
  });
  try {
    Deno.mkdirSync(dirName(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new LisaError(
      "worktree_create_failed",
      `Cannot create the worktree directory "${dirName(path)}": ${(error as Error).message}`,
      { cause: error, details: { path } },
    );
  }
  const failure = await withRepo(deps, runtimeDir, plan.commonDir, async () => {
    // Checked again under the lock: a directory or branch made since the plan (a parallel
    // spawn of the same name or --branch) is not ours to create, nor to remove when `add` fails.
    const other = readRecord(plan.recordPath);
    if (other !== undefined) return recordExistsError(base.session, other.worktree);
    if (pathTaken(path)) return worktreeExistsError(path);
    const blocker = await branchInTheWay(deps, repoRoot, branch);
    if (blocker !== null) return branchExistsError(branch, repoRoot, blocker);
    try {
      writeRecord(plan.recordPath, recordOf(intentOf("worktree")));
    } catch (error) {
      return recordError(plan.recordPath, error, path, branch);
    }
    const undo = async () => {
      if (await removeUnstarted(deps, plan.info).catch(() => false)) removeRecord(plan.recordPath);
    };
    let added;
    try {
      const argv = ["worktree", "add", "--quiet", "-b", branch, path, baseCommit];
      added = await git(deps, repoRoot, argv, {
        allowFailure: true,
        // Its process group, for the next lisa to end should this one be killed (SIGKILL).
        onStart: (pgid) => {
          try {
            writeRecord(plan.recordPath, recordOf(intentOf("worktree", recordGroup(pgid))));
          } catch { /* the intent without the group still marks the leftover */ }
        },
      });
    } catch (error) {
      // Timed out or interrupted: git and all it started (its checkout) were ended.
      await undo();
      throw error;
    }
    if (added.success) return undefined;
    // git removes what it created when `add` fails; a branch it made before failing goes too.
    await undo();
    return new LisaError(
      "worktree_create_failed",
      `git could not create the worktree "${path}" (branch "${branch}"): ${gitMessage(added)}`,
      { details: { path, branch, repoRoot } },
    );
  });
  if (failure !== undefined) throw failure;
  try {
    writeRecord(plan.recordPath, recordOf(intentOf("session")));
  } catch (error) {
    await discardWorktree(deps, runtimeDir, plan).catch(() => {});
    throw recordError(plan.recordPath, error, path, branch);
  }
}

function recordError(recordPath: string, error: unknown, path: string, branch: string) {
  return new LisaError(
    "worktree_create_failed",
    `Cannot write the worktree record "${recordPath}": ${(error as Error).message}`,
    { cause: error, details: { path, branch } },
  );
}

/**
 * Marks the worktree of `plan` as belonging to a session that runs (drops `spawning`). Throws
 * I/O errors of the record.
 */
export function confirmWorktree(plan: WorktreePlan): void {
  const record = readRecord(plan.recordPath);
  if (record === undefined) return;
  const { spawning: _, ...confirmed } = record;
  writeRecord(plan.recordPath, confirmed);
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
  const done = await withRepo(
    deps,
    runtimeDir,
    plan.commonDir,
    () => removeUnstarted(deps, plan.info),
  );
  if (done.removed) removeRecord(plan.recordPath);
}

/** The interruptible part of a worktree spawn (`src/proc/interrupt.ts`). */
export interface SpawnSection {
  /** Throws `interrupted` when a signal came since the section opened. */
  check(): void;
  close(): void;
}

/**
 * Opens the section of a worktree spawn, from its worktree to its running session: a signal
 * then ends git, and the spawn undoes what it made instead of dying with it half made.
 */
export function openSpawnSection(): SpawnSection {
  const close = openSection();
  return {
    check() {
      const signal = interruption();
      if (signal !== null) {
        throw new InterruptedError(signal, SIGNAL_NUMBERS[signal] ?? 15, "spawning a session");
      }
    },
    close,
  };
}
