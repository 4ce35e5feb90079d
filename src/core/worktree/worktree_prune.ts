/**
 * The worktree half of pruning: when a worktree session's worktree and branch may go.
 *
 * A worktree is removed only when
 * - its session is finished (tmux has no live pane of it: gone, or its pane dead), and
 * - nothing would be lost: no uncommitted or untracked files in the worktree, no submodule
 *   cloned into it (its repository lives in the worktree's git dir) nor other repository
 *   cloned into it and added as a gitlink, and no commit of
 *   its branch, or of its worktree's HEAD (an agent may have left the branch), that no other
 *   branch (local or remote-tracking) has — unless `merge --squash` recorded that very tip as
 *   merged and the squash's result is still on a branch (see {@link squashStillMerged}).
 * "Merged" is a fact about the repository when prune runs, never a record of the past: a merge
 * a person undid (`git reset --hard HEAD~1`) leaves the branch's commits unmerged again.
 * Otherwise it is kept, with the reasons and what would be lost (files, commits). `force`
 * removes it anyway (not while its session runs) and lists what was discarded.
 *
 * Removal: `git worktree remove`, `git worktree prune` (git's own bookkeeping stays
 * consistent), the branch (only while it still points at the tip the checks saw), then the
 * record. The checks and the removal run under lisa's lock of the repository, so a merge of the
 * same session (or a second prune) never interleaves with them.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { joinPath } from "../../base/paths.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import { resolveProject } from "../session/mod.ts";
import { type BranchCommit, pendingChanges, worktreePresent } from "./describe.ts";
import { forgetWorktree, git, gitMessage, splitZ } from "./git.ts";
import { clearUnstarted, spawnerAlive } from "./leftover.ts";
import { journalPath, readJournal, selfIdentity, withRepo } from "./merge_journal.ts";
import {
  type FoundRecord,
  listRecords,
  type MergedMark,
  readRecord,
  removeRecord,
  type WorktreeRecord,
  writeRecord,
} from "../../store/worktree_record.ts";
import { endRecordedGroup, type RecordedGroup, recordGroup } from "../../proc/group.ts";
import { openSection } from "../../proc/interrupt.ts";
import { isAlive } from "../../proc/table.ts";
import { sessionPanePids } from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";

/** Why a worktree is kept (or, under `force`, what was discarded). */
export type KeepReason =
  | { kind: "session_running"; detail: string }
  | { kind: "uncommitted_changes"; detail: string; files: string[] }
  | { kind: "unmerged_commits"; detail: string; commits: BranchCommit[] }
  | { kind: "submodules"; detail: string; submodules: string[] }
  | { kind: "git_refused"; detail: string };

/** What pruning did (or, with `dryRun`, would do) with one worktree. */
export interface WorktreePruneResult {
  session: string;
  worktree: WorktreeInfo;
  /** `removed`; `kept` (see `reasons`); `would_remove` under `dryRun`. */
  action: "removed" | "kept" | "would_remove";
  /** Why it is kept; with `force`, what was discarded. Empty when nothing stood in the way. */
  reasons: KeepReason[];
  /** True when `force` removed it despite `reasons` (work was thrown away). */
  discarded: boolean;
  /** True when its branch was deleted. */
  branchDeleted: boolean;
}

/** Options of {@link pruneWorktree}. */
export interface PruneWorktreeOptions {
  /** Remove even with uncommitted changes or unmerged commits (never while it runs). */
  force?: boolean;
  /** Decide only; change nothing. */
  dryRun?: boolean;
  /** The runtime dir (where lisa's repository locks live). */
  runtimeDir: string;
}

/** True while tmux has a live pane of the session (a tmux failure counts as live: kept). */
async function sessionRunning(deps: Deps, record: WorktreeRecord): Promise<boolean> {
  try {
    const pids = await sessionPanePids(new Tmux(deps.runner, record.socketPath), record.session);
    return pids !== null && pids.panePids.length > 0;
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") return false;
    return true;
  }
}

/**
 * True when `merged` records a `merge --squash` of `tip` whose result is still on a branch now:
 * its squash commit is on a branch other than the session's (local or remote-tracking), or,
 * when the squash had nothing to commit, merging `tip` into the branch it went into still
 * changes nothing. A squash a person undid (or a branch gone) is not merged.
 */
async function squashStillMerged(
  deps: Deps,
  info: WorktreeInfo,
  merged: MergedMark | undefined,
  tip: string,
): Promise<boolean> {
  if (merged === undefined || !merged.squash || merged.tip !== tip) return false;
  const repo = info.repoRoot;
  if (merged.commit !== null) {
    const on = await git(deps, repo, [
      "for-each-ref",
      "--format=%(refname)",
      `--contains=${merged.commit}`,
      "refs/heads",
      "refs/remotes",
    ], { allowFailure: true });
    return on.success &&
      on.stdout.split("\n").some((r) => r !== "" && r !== `refs/heads/${info.branch}`);
  }
  const into = `refs/heads/${merged.into}`;
  const tree = await git(deps, repo, ["rev-parse", "--verify", "--quiet", `${into}^{tree}`], {
    allowFailure: true,
  });
  if (!tree.success) return false;
  const result = await git(deps, repo, ["merge-tree", "--write-tree", "--no-messages", into, tip], {
    allowFailure: true,
  });
  return result.success && result.stdout.trim() === tree.stdout.trim();
}

/**
 * Commits of `branch` — and of the worktree's HEAD, which an agent may have moved off the
 * branch (a detached HEAD's commits go with the worktree) — that no other branch has. A tip
 * whose squash merge is still on a branch ({@link squashStillMerged}) counts as merged.
 */
async function unmergedCommits(
  deps: Deps,
  info: WorktreeInfo,
  merged: MergedMark | undefined,
  present: boolean,
): Promise<{ tip: string | null; commits: BranchCommit[] }> {
  const tip = await git(deps, info.repoRoot, [
    "rev-parse",
    "--verify",
    "--quiet",
    `refs/heads/${info.branch}`,
  ], { allowFailure: true });
  const sha = tip.success ? tip.stdout.trim() : null;
  const head = present
    ? await git(deps, info.path, ["rev-parse", "--verify", "--quiet", "HEAD"], {
      allowFailure: true,
    })
    : undefined;
  const heads = new Set<string>();
  if (sha !== null) heads.add(sha);
  if (head?.success) heads.add(head.stdout.trim());
  for (const h of [...heads]) {
    if (await squashStillMerged(deps, info, merged, h)) heads.delete(h);
  }
  if (heads.size === 0) return { tip: sha, commits: [] };
  const r = await git(deps, info.repoRoot, [
    "log",
    "--format=%H%x1f%s%x1e",
    ...heads,
    "--not",
    `--exclude=${info.branch}`,
    "--branches",
    "--remotes",
    "--",
  ]);
  const commits = r.stdout.split("\x1e").map((s) => s.trim()).filter((s) => s !== "").map(
    (line) => {
      const [c, subject] = line.split("\x1f");
      return { sha: c, subject: subject ?? "" };
    },
  );
  return { tip: sha, commits };
}

/** What the prune rule found for one worktree: the reasons to keep it, and its branch's tip. */
interface Verdict {
  reasons: KeepReason[];
  present: boolean;
  /** The branch's tip the checks saw (null when the branch is gone). */
  tip: string | null;
}

/**
 * The repositories of their own inside the worktree at `path`, which go with it, commits made
 * there and all: the submodules initialized in it (git keeps their repositories in the
 * worktree's own git dir, `modules/`), and the git repositories cloned into it that its index
 * holds as gitlinks (`git add` of a plain clone, as merge's pending commit does: its `.git` is
 * a directory of its own, not a submodule's pointer).
 */
async function submoduleClones(deps: Deps, path: string): Promise<string[]> {
  const gitDir = await git(deps, path, ["rev-parse", "--absolute-git-dir"], {
    allowFailure: true,
  });
  if (!gitDir.success) return [];
  const out = new Set<string>();
  try {
    for (const e of Deno.readDirSync(`${gitDir.stdout.trim()}/modules`)) {
      if (e.isDirectory) out.add(e.name);
    }
  } catch { /* no submodule initialized */ }
  const staged = await git(deps, path, ["ls-files", "-s", "-z"], { allowFailure: true });
  for (const entry of splitZ(staged.stdout)) {
    if (!entry.startsWith("160000 ")) continue;
    const link = entry.slice(entry.indexOf("\t") + 1);
    try {
      if (Deno.lstatSync(`${path}/${link}/.git`).isDirectory) out.add(link);
    } catch { /* not checked out, or a submodule's pointer file */ }
  }
  return [...out].sort();
}

/**
 * The checks of the prune rule (module doc). Without its repository (`repoThere` false) only
 * the worktree's files can be judged.
 */
async function judge(deps: Deps, record: WorktreeRecord, repoThere: boolean): Promise<Verdict> {
  const info = record.worktree;
  const reasons: KeepReason[] = [];
  const present = worktreePresent(info);
  if (present) {
    let pending;
    try {
      pending = await pendingChanges(deps, info.path);
    } catch (error) {
      if (!(error instanceof LisaError && error.code === "git_failed")) throw error;
      // Its repository is gone or moved: git cannot say what is pending, and its files may be
      // the only copy left. Kept (a worktree of its own, not a reason to stop pruning others).
      pending = { uncommitted: [], untracked: [] };
      reasons.push({
        kind: "git_refused",
        detail: `git cannot read the worktree ${info.path} (${error.message}); its files may be ` +
          "the only copy of the work",
      });
    }
    const files = [...pending.uncommitted, ...pending.untracked];
    if (files.length > 0) {
      reasons.push({
        kind: "uncommitted_changes",
        detail: `${files.length} uncommitted or untracked file(s) in ${info.path}`,
        files,
      });
    }
    const submodules = await submoduleClones(deps, info.path);
    if (submodules.length > 0) {
      reasons.push({
        kind: "submodules",
        detail: `the worktree ${info.path} has its own clones of submodules or repositories (${
          submodules.join(", ")
        }): a commit made in one exists nowhere else`,
        submodules,
      });
    }
  }
  const unmerged = repoThere
    ? await unmergedCommits(deps, info, record.merged, present)
    : { tip: null, commits: [] };
  if (unmerged.commits.length > 0) {
    reasons.push({
      kind: "unmerged_commits",
      detail: `${unmerged.commits.length} commit(s) of branch ${info.branch} are on no other ` +
        "branch (merge them with session merge)",
      commits: unmerged.commits,
    });
  }
  return { reasons, present, tip: unmerged.tip };
}

/**
 * Applies the prune rule (module doc) to one worktree record. Never throws for a worktree it
 * keeps; throws `lock_busy` and `git_failed` for failures of git itself.
 */
export async function pruneWorktree(
  deps: Deps,
  found: FoundRecord,
  options: PruneWorktreeOptions,
): Promise<WorktreePruneResult> {
  const { record } = found;
  const info = record.worktree;
  const out = outcomeOf(record);
  const intent = record.spawning;
  const common = await git(deps, info.repoRoot, [
    "rev-parse",
    "--path-format=absolute",
    "--git-common-dir",
  ], { allowFailure: true });
  const running = intent !== undefined && spawnerAlive(intent)
    ? `lisa (pid ${intent.pid}) is still spawning session ${record.session}`
    : await sessionRunning(deps, record)
    ? `session ${record.session} is still running; kill it first`
    : null;
  if (running !== null) {
    // A merge of it that a killed lisa left half done is undone all the same: its orphaned
    // git would go on changing the main checkout while the session runs.
    // (Only when there is one: the lock may be held for long by a merge or spawn at work.)
    const commonDir = common.stdout.trim();
    if (common.success && !options.dryRun && readJournal(journalPath(commonDir)) !== undefined) {
      await withRepo(deps, options.runtimeDir, commonDir, async () => {});
    }
    return out("kept", [{ kind: "session_running", detail: running }]);
  }
  if (intent?.phase === "worktree" && common.success) {
    return await pruneUnstarted(deps, found, options, common.stdout.trim());
  }
  if (!common.success) return await pruneWithoutRepo(deps, found, options);
  if (options.dryRun) {
    const { reasons } = await judge(deps, record, true);
    return out(reasons.length > 0 && !options.force ? "kept" : "would_remove", reasons);
  }
  return await withRepo(
    deps,
    options.runtimeDir,
    common.stdout.trim(),
    () => pruneUnderLock(deps, found, options),
  );
}

/** The result of pruning `record`'s worktree: `action`, with the reasons it had (or overrode). */
function outcomeOf(record: WorktreeRecord) {
  return (
    action: WorktreePruneResult["action"],
    reasons: KeepReason[],
    branchDeleted = false,
  ): WorktreePruneResult => ({
    session: record.session,
    worktree: record.worktree,
    action,
    reasons,
    discarded: action === "removed" && reasons.length > 0,
    branchDeleted,
  });
}

/** A spawn interrupted while it made the worktree: only the base commit's files are in it. */
async function pruneUnstarted(
  deps: Deps,
  found: FoundRecord,
  options: PruneWorktreeOptions,
  commonDir: string,
): Promise<WorktreePruneResult> {
  const out = outcomeOf(found.record);
  if (options.dryRun) return out("would_remove", []);
  const cleared = await clearUnstarted(deps, options.runtimeDir, commonDir, found.path);
  if (cleared?.removed) return out("removed", [], cleared.branchDeleted);
  return out("kept", [{
    kind: "git_refused",
    detail:
      `the worktree ${found.record.worktree.path} of an interrupted spawn could not be removed`,
  }]);
}

/**
 * The repository is gone: its branch went with it; the worktree's files may be all that is
 * left, and only lisa's own record and directory are left to remove.
 */
async function pruneWithoutRepo(
  deps: Deps,
  found: FoundRecord,
  options: PruneWorktreeOptions,
): Promise<WorktreePruneResult> {
  const out = outcomeOf(found.record);
  const { reasons } = await judge(deps, found.record, false);
  if (reasons.length > 0 && !options.force) return out("kept", reasons);
  if (options.dryRun) return out("would_remove", reasons);
  try {
    Deno.removeSync(found.record.worktree.path, { recursive: true });
  } catch { /* not there */ }
  removeRecord(found.path);
  return out("removed", reasons);
}

/**
 * Under lisa's lock of the repository: finishes a prune that was killed while it removed the
 * worktree, else judges the record as it is now (a merge of the same session that ran meanwhile
 * is seen, and nothing changes between the checks and the removal) and removes what may go.
 */
async function pruneUnderLock(
  deps: Deps,
  found: FoundRecord,
  options: PruneWorktreeOptions,
): Promise<WorktreePruneResult> {
  const out = outcomeOf(found.record);
  const info = found.record.worktree;
  const now = readRecord(found.path) ?? found.record;
  const unfinished = now.pruning;
  if (unfinished !== undefined && !isAlive(unfinished.pid, unfinished.startTime)) {
    // A prune that was killed while it removed the worktree (judged removable then).
    if (unfinished.gitGroup) await endRecordedGroup(unfinished.gitGroup);
    const reasons = await judgeAgain(deps, now);
    if (reasons.length > 0 && !options.force) return out("kept", reasons);
    const branchDeleted = await finishRemoval(deps, info, unfinished.tip);
    removeRecord(found.path);
    return out("removed", reasons, branchDeleted);
  }
  const { reasons, present, tip } = await judge(deps, now, true);
  if (reasons.length > 0 && !options.force) return out("kept", reasons);
  const mark = (gitGroup: RecordedGroup | null) => {
    try {
      writeRecord(found.path, { ...now, pruning: { ...selfIdentity(), tip, gitGroup } });
    } catch { /* without the mark, a prune killed half way leaves the rest to --force */ }
  };
  // Intent first; and a signal while git removes it finishes the removal rather than
  // leaving half a worktree (the rest of its files were judged to hold nothing to lose).
  mark(null);
  const closeSection = openSection();
  try {
    if (present) {
      let removed;
      try {
        removed = await git(
          deps,
          info.repoRoot,
          ["worktree", "remove", ...(options.force ? ["--force", "--force"] : []), info.path],
          { allowFailure: true, onStart: (pgid) => mark(recordGroup(pgid)) },
        );
      } catch (error) {
        await finishRemoval(deps, info, tip);
        removeRecord(found.path);
        throw error;
      }
      if (!removed.success) {
        writeRecord(found.path, now);
        return out("kept", [...reasons, { kind: "git_refused", detail: gitMessage(removed) }]);
      }
    }
    const branchDeleted = await finishRemoval(deps, info, tip);
    removeRecord(found.path);
    return out("removed", reasons, branchDeleted);
  } finally {
    closeSection();
  }
}

/**
 * The prune rule again, for a worktree whose removal a killed prune began: time passed, and a
 * file written or changed in it since, or a commit made, is work the first judgement never saw.
 * A tracked file that is missing is the removal's own doing (git deletes the worktree's files
 * after its checks), not a change: its content is in the commit. The record keeps its mark, so
 * the next prune judges the same way.
 */
async function judgeAgain(deps: Deps, record: WorktreeRecord): Promise<KeepReason[]> {
  const { reasons } = await judge(deps, record, true);
  const path = record.worktree.path;
  return reasons.flatMap((r): KeepReason[] => {
    if (r.kind !== "uncommitted_changes") return [r];
    const files = r.files.filter((f) => {
      try {
        Deno.lstatSync(joinPath(path, f));
        return true;
      } catch {
        return false;
      }
    });
    if (files.length === 0) return [];
    return [{
      ...r,
      detail: `${files.length} file(s) written or changed in ${path} since a prune that was ` +
        "stopped began removing it",
      files,
    }];
  });
}

/**
 * Finishes removing a worktree judged removable: what is left of its directory, git's entry of
 * it, and its branch while at `tip` (a branch that moved since holds commits nobody judged).
 * Runs even after a signal. True when the branch was deleted.
 */
async function finishRemoval(deps: Deps, info: WorktreeInfo, tip: string | null): Promise<boolean> {
  const cleanup = { allowFailure: true, cleanup: true };
  if (worktreePresent(info)) {
    await git(
      deps,
      info.repoRoot,
      ["worktree", "remove", "--force", "--force", info.path],
      cleanup,
    );
  }
  try {
    Deno.removeSync(info.path, { recursive: true });
  } catch { /* gone */ }
  await forgetWorktree(deps, info.repoRoot, info.path, cleanup);
  if (tip === null) return false;
  const ref = `refs/heads/${info.branch}`;
  const at = await git(deps, info.repoRoot, ["rev-parse", "--verify", "--quiet", ref], cleanup);
  if (at.stdout.trim() !== tip) return false;
  return (await git(deps, info.repoRoot, ["update-ref", "-d", ref, tip], cleanup)).success;
}

/** Options of {@link pruneWorktrees}. */
export interface PruneWorktreesOptions {
  projectRoot?: string;
  /** Every project's worktrees, not only the current project's. */
  allProjects?: boolean;
  /** Only these sessions. */
  sessions?: readonly string[];
  force?: boolean;
  dryRun?: boolean;
}

/**
 * Applies {@link pruneWorktree} to every recorded worktree of the project (or of every
 * project), in name order. For `session prune`.
 */
export async function pruneWorktrees(
  deps: Deps,
  options: PruneWorktreesOptions = {},
): Promise<WorktreePruneResult[]> {
  const project = resolveProject(deps, options.projectRoot);
  const records = listRecords(
    deps.config.worktreeDir,
    options.allProjects ? undefined : project.hash,
  ).filter((f) => options.sessions === undefined || options.sessions.includes(f.record.session));
  const results: WorktreePruneResult[] = [];
  for (const found of records) {
    results.push(
      await pruneWorktree(deps, found, {
        force: options.force,
        dryRun: options.dryRun,
        runtimeDir: project.runtimeDir,
      }),
    );
  }
  return results;
}
