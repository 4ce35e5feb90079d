/**
 * A person's files in the main checkout that a merge would overwrite although `git status`
 * shows nothing of them (step 2 of `merge.ts`, beside the files status shows):
 *
 * - an ignored file (or directory) where the branch adds a file, or a file where it needs a
 *   directory: git's merge replaces ignored paths without a word (a `.env`, a build log);
 * - a tracked file marked assume-unchanged or skip-worktree whose content is not HEAD's: status
 *   trusts the mark and hides the edit; git then refuses the merge, or overwrites the file.
 */
import type { Deps } from "../../base/deps.ts";
import { joinPath } from "../../base/paths.ts";
import { git, splitZ } from "./git.ts";
import { blobsOf, hashes } from "./merge_journal.ts";

/** True when something is on disk at `path` (a symlink not followed). */
function present(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The path in the way of adding `file` in `main`: the file itself when anything is there, or
 * the first of its parent directories that is not a directory; null when none is.
 */
function inTheWay(main: string, file: string): string | null {
  const parts = file.split("/");
  for (let n = 1; n < parts.length; n++) {
    const dir = parts.slice(0, n).join("/");
    const info = present(joinPath(main, dir));
    if (info === null) return null;
    if (!info.isDirectory) return dir;
  }
  return present(joinPath(main, file)) === null ? null : file;
}

/**
 * The files of `inHead` the index marks assume-unchanged or skip-worktree (`git ls-files -v`:
 * a lower-case tag, or `S`). One listing of the whole index (ls-files reads no pathspec file,
 * and thousands of paths would not fit in arguments).
 */
async function markedFiles(deps: Deps, main: string, inHead: readonly string[]): Promise<string[]> {
  if (inHead.length === 0) return [];
  const wanted = new Set(inHead);
  const listed = await git(deps, main, ["ls-files", "-v", "-z"]);
  return splitZ(listed.stdout).filter((e) => /^([a-z]|S) /.test(e)).map((e) => e.slice(2))
    .filter((p) => wanted.has(p));
}

/**
 * The paths of the main checkout `main` (sorted) that merging `changes` into `head` would
 * overwrite while `git status` hides them (see the module doc). Throws `git_failed`.
 */
export async function hiddenChanges(
  deps: Deps,
  main: string,
  head: string,
  changes: { inHead: readonly string[]; added: readonly string[] },
): Promise<string[]> {
  const out = new Set<string>();
  // Status listed every untracked path that is not ignored: whatever is there now is ignored.
  for (const file of changes.added) {
    const path = inTheWay(main, file);
    if (path !== null) out.add(path);
  }
  const marked = await markedFiles(deps, main, changes.inHead);
  if (marked.length > 0) {
    const committed = await blobsOf(deps, main, head, new Set(marked));
    const now = await hashes(deps, main, marked);
    for (const file of marked) {
      const info = present(joinPath(main, file));
      // Absent (a sparse checkout's skip-worktree file): nothing there to lose.
      if (info === null) continue;
      if (info.isDirectory || now.get(file) !== committed.get(file)) out.add(file);
    }
  }
  return [...out].sort();
}
