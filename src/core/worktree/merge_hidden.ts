/**
 * A person's files in the main checkout that a merge would overwrite although `git status`
 * shows nothing of them (step 2 of `merge.ts`, beside the files status shows): an ignored file
 * (or directory) where the branch adds a file, or a file where it needs a directory: git's merge
 * replaces ignored paths without a word (a `.env`, a build log).
 */
import { joinPath } from "../../base/paths.ts";

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
 * The paths of the main checkout `main` (sorted) that merging `changes` would
 * overwrite while `git status` hides them (see the module doc).
 */
export function hiddenChanges(
  main: string,
  changes: { inHead: readonly string[]; added: readonly string[] },
): string[] {
  const out = new Set<string>();
  // Status listed every untracked path that is not ignored: whatever is there now is ignored.
  for (const file of changes.added) {
    const path = inTheWay(main, file);
    if (path !== null) out.add(path);
  }
  return [...out].sort();
}
