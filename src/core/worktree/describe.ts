/**
 * `lisa session diff`: what an agent changed relative to its worktree's base commit — the
 * commits on its branch, plus the uncommitted and untracked files in its worktree — as one diff.
 *
 * The one diff comes from a scratch index: a copy of the worktree's index into which
 * `git add -A` puts every change (untracked files included), compared with the base commit.
 * The worktree's own index and files are never touched, so a diff taken while the agent works
 * changes nothing it sees.
 */
import type { Deps } from "../../base/deps.ts";
import type { WorktreeInfo } from "../../base/types.ts";
import { findWorktree } from "./find.ts";
import { git, splitZ } from "./git.ts";

/** One commit on a session's branch. */
export interface BranchCommit {
  sha: string;
  subject: string;
}

/** One changed file of a diff. */
export interface ChangedFile {
  path: string;
  /** added, modified, deleted, renamed, copied, typechange (git's letter otherwise). */
  status: string;
  /** The old path of a rename or copy. */
  oldPath?: string;
  /** Lines added and removed (null for a binary file). */
  insertions: number | null;
  deletions: number | null;
}

/** The pending (not committed) state of a worktree. */
export interface PendingChanges {
  /** Tracked files changed or staged but not committed. */
  uncommitted: string[];
  /** Files git does not track yet (ignored files excluded). */
  untracked: string[];
}

/** `session diff --json`. */
export interface DiffResult {
  ok: true;
  session: string;
  worktree: WorktreeInfo;
  /** False when the worktree's directory is gone: only the branch's commits are shown. */
  worktreePresent: boolean;
  /** The branch's tip. */
  head: string;
  commits: BranchCommit[];
  uncommitted: string[];
  untracked: string[];
  files: ChangedFile[];
  insertions: number;
  deletions: number;
  /** git's `--stat` text (with `stat`). */
  stat?: string;
  /** The patch (without `stat`). */
  patch?: string;
}

/** Options of {@link diffSession}. */
export interface DiffOptions {
  session: string;
  projectRoot?: string;
  /** Only the per-file summary (git's `--stat`), no patch. */
  stat?: boolean;
}

const STATUS: Record<string, string> = {
  A: "added",
  M: "modified",
  D: "deleted",
  R: "renamed",
  C: "copied",
  T: "typechange",
};

/** True when the worktree's directory is there and still a git worktree. */
export function worktreePresent(info: WorktreeInfo): boolean {
  try {
    if (!Deno.statSync(info.path).isDirectory) return false;
    Deno.lstatSync(`${info.path}/.git`);
    return true;
  } catch {
    return false;
  }
}

/** The worktree's uncommitted and untracked files (`git status`, NUL-separated). */
export async function pendingChanges(deps: Deps, path: string): Promise<PendingChanges> {
  const r = await git(deps, path, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--no-renames",
  ]);
  const out: PendingChanges = { uncommitted: [], untracked: [] };
  for (const entry of splitZ(r.stdout)) {
    const code = entry.slice(0, 2);
    const file = entry.slice(3);
    if (code === "??") out.untracked.push(file);
    else if (code !== "!!") out.uncommitted.push(file);
  }
  return out;
}

/** The commits on `branch` since `baseCommit`, newest first. */
export async function branchCommits(
  deps: Deps,
  dir: string,
  baseCommit: string,
  branch: string,
): Promise<BranchCommit[]> {
  const r = await git(deps, dir, [
    "log",
    "--format=%H%x1f%s%x1e",
    `${baseCommit}..refs/heads/${branch}`,
    "--",
  ]);
  return r.stdout.split("\x1e").map((s) => s.trim()).filter((s) => s !== "").map((line) => {
    const [sha, subject] = line.split("\x1f");
    return { sha, subject: subject ?? "" };
  });
}

/** Parses `diff --name-status -z` and `diff --numstat -z` into one list. */
export function parseChangedFiles(nameStatus: string, numstat: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  const ns = splitZ(nameStatus);
  for (let i = 0; i < ns.length;) {
    const code = ns[i++];
    const letter = code.charAt(0);
    if (letter === "R" || letter === "C") {
      const oldPath = ns[i++];
      const path = ns[i++];
      files.push({ path, oldPath, status: STATUS[letter], insertions: null, deletions: null });
    } else {
      files.push({
        path: ns[i++],
        status: STATUS[letter] ?? letter,
        insertions: null,
        deletions: null,
      });
    }
  }
  const counts = new Map<string, [number | null, number | null]>();
  const nums = splitZ(numstat);
  for (let i = 0; i < nums.length;) {
    const [add, del, path] = nums[i++].split("\t");
    const n = (t: string) => (t === "-" ? null : Number(t));
    if (path === "") {
      i++; // the old path of a rename
      counts.set(nums[i++], [n(add), n(del)]);
    } else counts.set(path, [n(add), n(del)]);
  }
  for (const f of files) {
    const c = counts.get(f.path);
    if (c) [f.insertions, f.deletions] = c;
  }
  return files;
}

/**
 * Runs `fn` with the environment of a scratch index holding every change of the worktree at
 * `path` (tracked, staged, untracked). The worktree's own index is not touched.
 */
async function withScratchIndex<T>(
  deps: Deps,
  path: string,
  fn: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  const real =
    (await git(deps, path, ["rev-parse", "--path-format=absolute", "--git-path", "index"]))
      .stdout.trim();
  const dir = Deno.makeTempDirSync({ prefix: "lisa-diff-" });
  try {
    const index = `${dir}/index`;
    try {
      Deno.copyFileSync(real, index);
      // With the original's mtime: git tells a "racily clean" entry (a file changed in the
      // second its index was written, same size) by comparing it with the index file's mtime.
      // A copy stamped now would hide such an edit from the diff.
      const { atime, mtime } = Deno.statSync(real);
      if (mtime !== null) Deno.utimeSync(index, atime ?? mtime, mtime);
    } catch { /* no index yet: git starts an empty one */ }
    const env = { GIT_INDEX_FILE: index };
    await git(deps, path, ["add", "-A", "--", "."], { env });
    return await fn(env);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/**
 * What session `session`'s agent changed since its base commit (see the module doc). Throws
 * the errors of `findWorktree` (`worktree_not_found`) and `git_failed`.
 */
export async function diffSession(deps: Deps, options: DiffOptions): Promise<DiffResult> {
  const { record, session } = await findWorktree(deps, options.session, options.projectRoot);
  const info = record.worktree;
  const present = worktreePresent(info);
  const dir = present ? info.path : info.repoRoot;
  const head = (await git(deps, dir, ["rev-parse", "--verify", `refs/heads/${info.branch}`]))
    .stdout.trim();
  const commits = await branchCommits(deps, dir, info.baseCommit, info.branch);
  const pending = present ? await pendingChanges(deps, dir) : { uncommitted: [], untracked: [] };
  // Paths as the person named them: git otherwise quotes every byte past ASCII ("\303\274").
  // Quoting stays for what it protects (`"`, `\`, control characters); `git apply` reads both.
  const common = ["-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "-M"];
  const run = async (env: Record<string, string>, target: string[]) => {
    const args = (extra: string[]) => [...common, ...extra, ...target, "--"];
    const nameStatus = await git(deps, dir, args(["--name-status", "-z"]), { env });
    const numstat = await git(deps, dir, args(["--numstat", "-z"]), { env });
    // `--binary`: a binary file's change is in the patch, not "Binary files differ", so the
    // patch applies with `git apply`.
    const text = await git(deps, dir, args(options.stat ? ["--stat=100"] : ["--binary"]), {
      env,
    });
    return { files: parseChangedFiles(nameStatus.stdout, numstat.stdout), text: text.stdout };
  };
  const { files, text } = present
    ? await withScratchIndex(deps, dir, (env) => run(env, ["--cached", info.baseCommit]))
    : await run({}, [info.baseCommit, head]);
  const sum = (key: "insertions" | "deletions") => files.reduce((n, f) => n + (f[key] ?? 0), 0);
  return {
    ok: true,
    session,
    worktree: info,
    worktreePresent: present,
    head,
    commits,
    uncommitted: pending.uncommitted,
    untracked: pending.untracked,
    files,
    insertions: sum("insertions"),
    deletions: sum("deletions"),
    ...(options.stat ? { stat: text } : { patch: text }),
  };
}
