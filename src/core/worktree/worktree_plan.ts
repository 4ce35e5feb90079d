/**
 * `spawn --worktree`, before anything is created: the repository, the base commit, the branch
 * and the worktree's place are checked, so a bad request fails with nothing on disk and no
 * branch in the repository.
 *
 * Where worktrees live: `LISA_WORKTREE_DIR` (default `$XDG_STATE_HOME/lisa/worktrees`, else
 * `~/.local/state/lisa/worktrees`), then the project hash, then the session name. Outside the
 * repository's working tree, so `git status` of the main checkout shows nothing new, and
 * outside the runtime dir, so a reboot that empties `/tmp` does not lose an agent's work.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { baseName, dirName, joinPath } from "../../base/paths.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import type { Project } from "../session/mod.ts";
import { git, gitMessage } from "./git.ts";
import { spawnerAlive } from "./leftover.ts";
import { withRepo } from "./merge_journal.ts";
import { pruneWorktree } from "./worktree_prune.ts";
import { readRecord, recordPathOf, worktreePathOf } from "../../store/worktree_record.ts";

/** Prefix of the default branch names. */
export const BRANCH_PREFIX = "lisa/";

// lisa-{slug}-{YYMMDD}-{HHMMSS}-{nanos}-{agent}-{mode}[-{tag}]
const GENERATED_RE =
  /^lisa-([a-z0-9]+)-\d{6}-\d{6}-(\d{9})-([a-z]+)-(?:interactive|exec)(?:-([a-z0-9]+))?$/;

/**
 * The default branch of a worktree session: `lisa/<alias>` when the session has an alias
 * (meta `alias`), else a short stand-in from its name — `lisa/<slug>-<tag or agent>-<nanos>`
 * for a generated name, `lisa/<name without "lisa-">` for a custom one. The one place that
 * names worktree branches.
 */
export function defaultBranchName(ref: { session: string; alias?: string | null }): string {
  if (ref.alias) return `${BRANCH_PREFIX}${ref.alias}`;
  const m = GENERATED_RE.exec(ref.session);
  if (m !== null) return `${BRANCH_PREFIX}${m[1]}-${m[4] ?? m[3]}-${m[2]}`;
  return `${BRANCH_PREFIX}${ref.session.replace(/^lisa-/, "")}`;
}

/**
 * The branch that keeps git from making branch `name`: `name` itself, one of its parents as a
 * branch (`lisa` stands in the way of `lisa/x`), or a branch beneath it (`lisa/x/y`), as git
 * keeps refs as files. Null when none does.
 */
export async function branchInTheWay(
  deps: Deps,
  repoRoot: string,
  name: string,
): Promise<string | null> {
  const parts = name.split("/");
  const names = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
  const listed = await git(deps, repoRoot, [
    "for-each-ref",
    "--format=%(refname)",
    ...names.map((n) => `refs/heads/${n}`),
  ], { allowFailure: true });
  for (const ref of listed.stdout.split("\n")) {
    const branch = ref.replace(/^refs\/heads\//, "");
    if (names.includes(branch) || branch.startsWith(`${name}/`)) return branch;
  }
  return null;
}

/** The `branch_exists` error of `branch` in `repoRoot` (`blocker`: the branch in the way). */
export function branchExistsError(
  branch: string,
  repoRoot: string,
  blocker: string = branch,
): LisaError {
  return new LisaError(
    "branch_exists",
    blocker === branch
      ? `Branch "${branch}" already exists in ${repoRoot}; choose another with --branch`
      : `Branch "${blocker}" of ${repoRoot} leaves no room for a branch "${branch}" (git keeps ` +
        "branches as files); choose another with --branch",
    { details: { branch, repoRoot, ...(blocker === branch ? {} : { blocker }) } },
  );
}

/** `path` with the symlinks of its deepest existing ancestor resolved. */
function resolvedPath(path: string): string {
  const rest: string[] = [];
  for (let dir = path; dir !== "/" && dir !== ""; dir = dirName(dir)) {
    try {
      return joinPath(Deno.realPathSync(dir), ...rest);
    } catch {
      rest.unshift(baseName(dir));
    }
  }
  return path;
}

/** True when something is at `path`. */
export function pathTaken(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The `worktree_exists` error of the worktree directory `path`. */
export function worktreeExistsError(path: string): LisaError {
  return new LisaError(
    "worktree_exists",
    `Worktree directory "${path}" already exists (a kept worktree of an earlier session of ` +
      "this name?)",
    { details: { path } },
  );
}

/**
 * The `worktree_exists` error of a name whose earlier run still has a worktree record (`info`),
 * its directory there or not.
 */
export function recordExistsError(session: string, info: WorktreeInfo): LisaError {
  const missing = !pathTaken(info.path);
  return new LisaError(
    "worktree_exists",
    `Session name "${session}" still has the worktree of an earlier run: ${info.path} (branch ` +
      `"${info.branch}")${
        missing ? ", its directory missing (moved or deleted by hand: move it back there)" : ""
      }; lisa never replaces it. Merge it (session merge ${session}) or remove it (session ` +
      "prune; --force discards its work), or spawn under another name",
    { details: { session, path: info.path, branch: info.branch, missing } },
  );
}

/** What `spawn --worktree` asks for. */
export interface WorktreeRequest {
  project: Project;
  session: string;
  /** The session's alias, when it has one (names the default branch). */
  alias?: string | null;
  /** `--branch` (default {@link defaultBranchName}). */
  branch?: string;
  /** `--base` (default `HEAD`). */
  base?: string;
  /** `--dry-run`: what an interrupted spawn left is not cleared, only judged. */
  dryRun?: boolean;
}

/** A worktree, decided and checked. */
export interface WorktreePlan {
  info: WorktreeInfo;
  /** Where the agent starts: the worktree, or the same subdirectory the project root is in. */
  cwd: string;
  /** The repository's common git dir (the key of lisa's repository lock). */
  commonDir: string;
  /** The durable record's file. */
  recordPath: string;
}

/**
 * Checks a `spawn --worktree` request and decides the worktree. Creates nothing (but clears
 * what an interrupted spawn of the same name left, when it holds no one's work). Throws
 * `not_a_git_repo`, `base_not_found`, `invalid_branch_name`, `branch_exists`,
 * `worktree_exists` (its directory is already there) and `worktree_dir_inside_repo`.
 */
export async function planWorktree(deps: Deps, request: WorktreeRequest): Promise<WorktreePlan> {
  const { project, session } = request;
  const top = await git(deps, project.root, [
    "rev-parse",
    "--path-format=absolute",
    "--show-toplevel",
    "--git-common-dir",
    "--show-prefix",
  ], { allowFailure: true });
  const lines = top.stdout.split("\n");
  if (!top.success || lines.length < 3 || lines[0] === "") {
    throw new LisaError(
      "not_a_git_repo",
      `--worktree needs a git repository, and "${project.root}" is not in one` +
        (top.success ? "" : ` (${gitMessage(top)})`),
      { details: { projectRoot: project.root } },
    );
  }
  const [repoRoot, commonDir, prefix] = lines;
  const recordPath = recordPathOf(deps.config.worktreeDir, project.hash, session);
  // What an interrupted spawn of this name left (its worktree, its branch, a git still
  // running) goes first, by the prune rule: the name spawns again after any interruption.
  // (A dry run only asks whether it would go.)
  const leftover = readRecord(recordPath);
  let cleared = false;
  if (leftover?.spawning !== undefined && !spawnerAlive(leftover.spawning)) {
    const pruned = await pruneWorktree(deps, { path: recordPath, record: leftover }, {
      runtimeDir: project.runtimeDir,
      dryRun: request.dryRun,
    });
    cleared = pruned.action !== "kept";
  }
  // Another run's record (its worktree kept, or moved or deleted by hand; or a spawn of the
  // name still at work) is never overwritten: it is all that leads to that run's work.
  if (!cleared && leftover !== undefined) throw recordExistsError(session, leftover.worktree);
  // A merge a killed lisa left half done is undone before the base is read: `HEAD` would
  // otherwise name the commit about to be taken back. (A dry run changes nothing.)
  if (!request.dryRun) await withRepo(deps, project.runtimeDir, commonDir, async () => {});
  const base = request.base ?? "HEAD";
  const baseCommit = await baseCommitOf(deps, repoRoot, base);
  const branch = await freeBranch(deps, repoRoot, request);
  const path = worktreePathOf(deps.config.worktreeDir, project.hash, session);
  // git's toplevel has its symlinks resolved: so must the path be (LISA_WORKTREE_DIR may lead
  // into the repository through a symlink).
  const real = resolvedPath(path);
  if ([path, real].some((p) => p === repoRoot || p.startsWith(`${repoRoot}/`))) {
    throw new LisaError(
      "worktree_dir_inside_repo",
      `Worktree directory "${path}" would be inside the repository ${repoRoot}; set ` +
        "LISA_WORKTREE_DIR to a directory outside it",
      { details: { path, repoRoot } },
    );
  }
  if (!cleared && pathTaken(path)) throw worktreeExistsError(path);
  // The agent starts in the same subdirectory the project root is in, when the base has it.
  const sub = prefix.replace(/\/+$/, "");
  const hasSub = sub !== "" &&
    (await git(deps, repoRoot, ["cat-file", "-e", `${baseCommit}:${sub}`], { allowFailure: true }))
      .success;
  return {
    info: { path, branch, base, baseCommit, repoRoot },
    cwd: hasSub ? joinPath(path, sub) : path,
    commonDir,
    recordPath,
  };
}

/** The commit `base` names in `repoRoot`; throws `base_not_found`. */
async function baseCommitOf(deps: Deps, repoRoot: string, base: string): Promise<string> {
  const resolved = await git(deps, repoRoot, [
    "rev-parse",
    "--verify",
    "--quiet",
    "--end-of-options",
    `${base}^{commit}`,
  ], { allowFailure: true });
  if (!resolved.success || resolved.stdout.trim() === "") {
    const empty = base === "HEAD" ? " (the repository has no commits yet)" : "";
    throw new LisaError(
      "base_not_found",
      `--base "${base}" is not a commit of ${repoRoot}${empty}`,
      { details: { base, repoRoot } },
    );
  }
  return resolved.stdout.trim();
}

/**
 * The worktree's branch: `--branch` as given, else the default name or, when a kept worktree of
 * an earlier session with the same alias holds it, the next free `-2`…`-9`. A branch asked for
 * by name is never renamed, nor one whose parent is a branch (no other name under it helps).
 * Throws `invalid_branch_name` and `branch_exists`.
 */
async function freeBranch(
  deps: Deps,
  repoRoot: string,
  request: WorktreeRequest,
): Promise<string> {
  const given = request.branch !== undefined;
  const wanted = request.branch ??
    defaultBranchName({ session: request.session, alias: request.alias });
  const valid = await git(deps, repoRoot, ["check-ref-format", "--branch", wanted], {
    allowFailure: true,
  });
  // `--branch` also expands `@{-1}`, `@`…: a name it rewrites names another branch.
  if (!valid.success || valid.stdout.trim() !== wanted || wanted.startsWith("-")) {
    throw new LisaError("invalid_branch_name", `"${wanted}" is not a valid branch name`, {
      details: { branch: wanted },
    });
  }
  let branch = wanted;
  for (let n = 2;; n++) {
    const blocker = await branchInTheWay(deps, repoRoot, branch);
    if (blocker === null) return branch;
    if (given || n > 9 || !blocker.startsWith(branch)) {
      throw branchExistsError(branch, repoRoot, blocker);
    }
    branch = `${wanted}-${n}`;
  }
}
