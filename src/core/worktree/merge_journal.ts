/**
 * The restore point of a merge into the person's checkout: all or nothing.
 *
 * No filesystem changes thousands of files at once, so a merge that is stopped half-way (its
 * time limit, a signal, SIGKILL) must be undone from a record of what it was about to change,
 * written before it changes anything: the journal, `<git common dir>/lisa-merge.json` (beside
 * the repository's own state, so it outlives a reboot and any runtime dir). It names the branch
 * and the commit it pointed at, the files the merge changes (all clean before it: merge checks
 * that), the directories it creates, git's merge state files as they were, and `git status`
 * before. Undoing puts back exactly those, which loses nothing: every other file, staged or not,
 * was never touched.
 *
 * A merge that fails or is interrupted undoes itself at once. One whose lisa was killed
 * (SIGKILL) is undone by the next lisa that takes the repository's lock ({@link withRepo}: merge,
 * prune, spawn --worktree), after it ends the git that lisa left running.
 */
import type { Deps } from "../../base/deps.ts";
import { joinPath } from "../../base/paths.ts";
import { endRecordedGroup, type RecordedGroup } from "../../proc/group.ts";
import { isAlive, readStat } from "../../proc/table.ts";
import { readJsonIfExists, removeIfExists, writeJsonAtomic } from "../../store/atomic.ts";
import { git, splitZ, withRepoLock } from "./git.ts";

/** git's files that a merge writes in a checkout's git dir (put back as they were). */
export const MERGE_STATE_FILES: readonly string[] = [
  "MERGE_HEAD",
  "MERGE_MSG",
  "MERGE_MODE",
  "AUTO_MERGE",
  "SQUASH_MSG",
  "ORIG_HEAD",
];

/** `git status` as merge compares it before and after. */
export const STATUS_ARGS: readonly string[] = [
  "status",
  "--porcelain=v1",
  "-z",
  "--untracked-files=all",
];

/** The record of a merge in progress (module doc). */
export interface MergeJournal {
  version: 1;
  session: string;
  /** The checkout merged into, and its own git dir. */
  main: string;
  gitDir: string;
  /** The branch merged into (`refs/heads/…`) and the commit it pointed at. */
  ref: string;
  head: string;
  /** The tree the merge makes (`git merge-tree`). */
  tree: string;
  /**
   * The message of the commit the merge makes (absent in a journal of an older lisa): with
   * `tree`, what tells lisa's commit from one a person made on top of `head`.
   */
  message?: string;
  /** Files the merge changes that exist at `head` (modified, deleted, type changed). */
  inHead: string[];
  /** Files the merge adds. */
  added: string[];
  /** Directories the added files create (removed again when empty). */
  newDirs: string[];
  /** git's merge state files as they were (null: absent). */
  stateFiles: Record<string, string | null>;
  /** `git status` ({@link STATUS_ARGS}) before. */
  status: string;
  /** The merging lisa and its start time; the process group of its running git step. */
  pid: number;
  startTime: number | null;
  gitGroup: RecordedGroup | null;
  startedAt: string;
}

/** The journal of the repository whose common git dir is `commonDir`. */
export function journalPath(commonDir: string): string {
  return joinPath(commonDir, "lisa-merge.json");
}

/** Reads a journal; undefined when there is none (or it is unreadable). */
export function readJournal(path: string): MergeJournal | undefined {
  try {
    const j = readJsonIfExists<MergeJournal>(path);
    return j?.version === 1 && typeof j.main === "string" && typeof j.tree === "string"
      ? j
      : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a journal atomically. Throws I/O errors. */
export function writeJournal(path: string, journal: MergeJournal): void {
  writeJsonAtomic(path, journal);
}

/** Removes a journal (a missing one is fine). */
export function removeJournal(path: string): void {
  removeIfExists(path);
}

/** The merge state files of `gitDir` as they are now. */
export function readStateFiles(gitDir: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const name of MERGE_STATE_FILES) {
    try {
      out[name] = Deno.readTextFileSync(joinPath(gitDir, name));
    } catch {
      out[name] = null;
    }
  }
  return out;
}

/** The identity of this lisa process, for a journal. */
export function selfIdentity(): { pid: number; startTime: number | null } {
  return { pid: Deno.pid, startTime: readStat(Deno.pid)?.startTime ?? null };
}

function nul(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * An `index.lock` left by the merge's git, ended before it could remove it (SIGKILL): waited
 * for a moment (a git that is finishing), then removed when it was made during the merge.
 */
async function clearStaleIndexLock(deps: Deps, j: MergeJournal): Promise<void> {
  const lock = joinPath(j.gitDir, "index.lock");
  for (let i = 0; i < 40 && exists(lock); i++) await deps.sleep(50);
  try {
    const made = Deno.lstatSync(lock).mtime?.getTime() ?? 0;
    if (made >= Date.parse(j.startedAt) - 2000) Deno.removeSync(lock);
  } catch { /* none */ }
}

/** What undoing a merge did. */
export interface UndoResult {
  /** True when the branch and every file of the merge are as they were before it. */
  restored: boolean;
  /**
   * Files of the merge someone changed since it began (after a SIGKILL, before the undo): not
   * lisa's to overwrite, left as they are.
   */
  left: string[];
  /** True when nothing more can be done (the journal can go). */
  settled: boolean;
  /**
   * True when everything of the merge is as it was but the files in `left`: the undo did its
   * part, and only what someone changed meanwhile differs.
   */
  restoredButLeft?: boolean;
  /**
   * The commit the branch points at when it is not the merge's (someone committed since, on
   * top of `head` or amending the merge): left as it is, with everything else of the merge.
   */
  keptCommit?: string;
}

/**
 * True when `commit` is the one the merge of `j` makes: its first parent is `head`, its tree
 * the merge's, and its message the merge's (a commit-msg hook may add lines after it). A
 * person's commit on top of `head`, or the merge amended, is not.
 */
async function isMergeCommit(deps: Deps, j: MergeJournal, commit: string): Promise<boolean> {
  const shown = await git(deps, j.main, ["show", "-s", "-z", "--format=%P%x00%T%x00%B", commit], {
    allowFailure: true,
    cleanup: true,
  });
  if (!shown.success) return false;
  const [parents, tree, ...body] = shown.stdout.split("\0");
  if (parents.split(" ")[0] !== j.head || tree !== j.tree) return false;
  return j.message === undefined || body.join("\0").trim().startsWith(j.message.trim());
}

/** Blob ids by path in tree `tree`, for the paths of `wanted`. */
export async function blobsOf(
  deps: Deps,
  main: string,
  tree: string,
  wanted: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const listed = await git(deps, main, ["ls-tree", "-r", "-z", "--full-tree", tree], {
    cleanup: true,
  });
  for (const entry of splitZ(listed.stdout)) {
    const tab = entry.indexOf("\t");
    const path = entry.slice(tab + 1);
    if (wanted.has(path)) out.set(path, entry.slice(0, tab).split(" ")[2]);
  }
  return out;
}

/** The blob id each existing file of `paths` would have (git's filters applied), by path. */
export async function hashes(
  deps: Deps,
  main: string,
  paths: string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const files = paths.filter((p) => {
    try {
      return !Deno.lstatSync(joinPath(main, p)).isDirectory;
    } catch {
      return false;
    }
  });
  // `--stdin-paths` reads lines: a name with a newline is hashed on its own.
  const lined = files.filter((p) => !p.includes("\n"));
  const batch = await git(deps, main, ["hash-object", "--stdin-paths"], {
    allowFailure: true,
    cleanup: true,
    stdin: lined.map((p) => `${p}\n`).join(""),
  });
  const ids = batch.stdout.split("\n");
  const single = batch.success ? files.filter((p) => p.includes("\n")) : files;
  if (batch.success) lined.forEach((p, i) => out.set(p, ids[i]));
  for (const p of single) {
    const one = await git(deps, main, ["hash-object", `--path=${p}`, "--", p], {
      allowFailure: true,
      cleanup: true,
    });
    if (one.success) out.set(p, one.stdout.trim());
  }
  return out;
}

/**
 * True when the file at `path` holds the start (a strict prefix, none of it included) of blob
 * `blob`: what git leaves of a file it was stopped writing (it writes a file front to back).
 */
async function partOf(deps: Deps, j: MergeJournal, path: string, blob: string): Promise<boolean> {
  let content: string;
  try {
    content = new TextDecoder("utf-8", { fatal: true }).decode(
      Deno.readFileSync(joinPath(j.main, path)),
    );
  } catch {
    return false; // unreadable, or cut inside a character: not judged to be git's
  }
  const whole = await git(deps, j.main, ["cat-file", "blob", blob], {
    allowFailure: true,
    cleanup: true,
  });
  return whole.success && content.length < whole.stdout.length &&
    whole.stdout.startsWith(content);
}

/**
 * Files of the merge whose content is neither what `head` has nor what the merge makes:
 * someone changed them since it began. When the merge's git was still running at the undo
 * (`gitRan`: it was ended then), a file that holds only the start of what the merge makes is
 * git's own write, stopped half-way, and is no one's change: it is put back with the rest.
 */
async function changedSince(deps: Deps, j: MergeJournal, gitRan: boolean): Promise<string[]> {
  const paths = [...j.inHead, ...j.added];
  const wanted = new Set(paths);
  const before = await blobsOf(deps, j.main, j.head, wanted);
  const after = await blobsOf(deps, j.main, j.tree, wanted);
  const now = await hashes(deps, j.main, paths);
  const changed = paths.sort().filter((p) => {
    let isDir = false;
    try {
      isDir = Deno.lstatSync(joinPath(j.main, p)).isDirectory;
    } catch { /* absent */ }
    if (isDir) return false; // a directory the merge made where a file was (or the reverse)
    const id = now.get(p) ?? null;
    // A file that is gone (git removes one before it writes it anew) holds nothing to lose.
    if (id === null) return false;
    return id !== before.get(p) && id !== after.get(p);
  });
  if (!gitRan) return changed;
  const left: string[] = [];
  for (const p of changed) {
    const merged = after.get(p);
    if (merged === undefined || !(await partOf(deps, j, p, merged))) left.push(p);
  }
  return left;
}

/** Paths in `git status --porcelain -z` output (both sides of a rename). */
export function statusPaths(out: string): string[] {
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
 * Undoes the merge of `j` (module doc): the branch back at `head` (when the merge moved it and
 * nobody else did since), the merge's files in the index and the working tree as at `head`,
 * its new directories gone, git's merge state files as they were. Undoing what a killed lisa
 * left (`afterKill`: time passed, a person may have gone on working), a file that is neither as
 * `head` has it nor as the merge makes it is left as it is (`left`): someone changed it since, and
 * lisa never overwrites what it did not write (but the start of what the merge makes, which is
 * git's own write stopped by the undo: {@link changedSince}).
 */
export async function undoMerge(
  deps: Deps,
  j: MergeJournal,
  afterKill = false,
): Promise<UndoResult> {
  const opts = { allowFailure: true, cleanup: true };
  const stuck: UndoResult = { restored: false, left: [], settled: false };
  const theirs: UndoResult = { restored: false, left: [], settled: true };
  const gitRan = j.gitGroup !== null && await endRecordedGroup(j.gitGroup);
  await clearStaleIndexLock(deps, j);
  // A person who switched branches since (after a SIGKILL) made the checkout theirs again.
  const on = await git(deps, j.main, ["symbolic-ref", "--quiet", "HEAD"], opts);
  if (!on.success) return on.code === 1 ? theirs : stuck;
  if (on.stdout.trim() !== j.ref) return theirs;
  const now = (await git(deps, j.main, ["rev-parse", "--verify", "--quiet", j.ref], opts)).stdout
    .trim();
  if (now !== j.head) {
    // Only the commit the merge made is taken back: one a person made since is theirs.
    if (!(await isMergeCommit(deps, j, now))) return { ...theirs, keptCommit: now };
    const back = await git(deps, j.main, [
      "update-ref",
      "-m",
      `lisa: undo the interrupted merge of session ${j.session}`,
      j.ref,
      j.head,
      now,
    ], opts);
    if (!back.success) return stuck;
  }
  let left: string[] = [];
  if (afterKill) {
    try {
      left = await changedSince(deps, j, gitRan);
    } catch {
      return stuck;
    }
  }
  const keep = new Set(left);
  const added = j.added.filter((p) => !keep.has(p));
  const inHead = j.inHead.filter((p) => !keep.has(p));
  if (!(await putFilesBack(deps, j, added, inHead))) return { ...stuck, left };
  for (const [name, content] of Object.entries(j.stateFiles)) {
    const path = joinPath(j.gitDir, name);
    try {
      if (content === null) removeIfExists(path);
      else Deno.writeTextFileSync(path, content);
    } catch { /* git's own bookkeeping; status below tells */ }
  }
  // Before the merge none of its files showed in `git status` (merge checks that).
  const status = await git(deps, j.main, STATUS_ARGS, opts);
  if (!status.success) return { ...stuck, left };
  const ours = new Set([...j.inHead, ...j.added]);
  const dirs = j.newDirs.map((d) => `${d}/`);
  const shown = statusPaths(status.stdout).filter((p) =>
    ours.has(p) || dirs.some((d) => p.startsWith(d)) || ours.has(p.replace(/\/$/, ""))
  );
  const others = shown.filter((p) => !keep.has(p.replace(/\/$/, "")));
  return {
    restored: left.length === 0 && shown.length === 0,
    left,
    settled: true,
    restoredButLeft: others.length === 0,
  };
}

/**
 * The merge's files as `head` has them: what it added goes (added files first: a file the merge
 * put where `head` has a directory, or the reverse), what it changed is restored. False when git
 * refused.
 */
async function putFilesBack(
  deps: Deps,
  j: MergeJournal,
  added: string[],
  inHead: string[],
): Promise<boolean> {
  const literal = { allowFailure: true, cleanup: true, env: { GIT_LITERAL_PATHSPECS: "1" } };
  if (added.length > 0) {
    const rm = await git(deps, j.main, [
      "rm",
      "--cached",
      "-q",
      "-f",
      "--ignore-unmatch",
      "--pathspec-from-file=-",
      "--pathspec-file-nul",
    ], { ...literal, stdin: nul(added) });
    if (!rm.success) return false;
    for (const file of added) {
      const path = joinPath(j.main, file);
      try {
        if (!Deno.lstatSync(path).isDirectory) Deno.removeSync(path);
      } catch { /* never written */ }
    }
    for (const dir of [...j.newDirs].sort((a, b) => b.length - a.length)) {
      try {
        Deno.removeSync(joinPath(j.main, dir));
      } catch { /* not empty, or not there */ }
    }
  }
  if (inHead.length > 0) {
    const restored = await git(deps, j.main, [
      "restore",
      `--source=${j.head}`,
      "--staged",
      "--worktree",
      "--pathspec-from-file=-",
      "--pathspec-file-nul",
    ], { ...literal, stdin: nul(inHead) });
    if (!restored.success) return false;
  }
  return true;
}

/**
 * Undoes the merge a killed lisa left in the repository whose common git dir is `commonDir`
 * (module doc). The caller holds the repository's lock. Returns the journal that could not be
 * undone (it stays, to be tried again), or null.
 */
export async function recoverMerge(deps: Deps, commonDir: string): Promise<MergeJournal | null> {
  const path = journalPath(commonDir);
  const j = readJournal(path);
  if (j === undefined) return null;
  // A lisa that runs on with another runtime dir (another lock) is still merging.
  if (j.pid !== Deno.pid && isAlive(j.pid, j.startTime)) return null;
  const undone = await undoMerge(deps, j, true);
  if (undone.settled) removeJournal(path);
  const what = `the merge of session ${j.session} into ${j.main} that an ended lisa (pid ` +
    `${j.pid}) left half done`;
  deps.io.err(
    undone.restored
      ? `lisa: undid ${what}; ${j.main} is as it was\n`
      : undone.keptCommit !== undefined
      ? `lisa: left ${what} as it is: ${j.ref.replace(/^refs\/heads\//, "")} is at ${
        undone.keptCommit.slice(0, 12)
      }, a commit lisa did not make (someone committed or amended since), so nothing was ` +
        "undone; git show it, and git revert or reset it yourself if it should not stay\n"
      : undone.settled
      ? `lisa: undid what it could of ${what}; left as someone changed them since: ${
        undone.left.join(", ") || "(the branch moved or was switched)"
      }\n`
      : `lisa: could not undo ${what}; see git status there (lisa tries again next time)\n`,
  );
  return undone.settled ? null : j;
}

/**
 * Runs `fn` holding lisa's lock of the repository (`withRepoLock`), after undoing a merge a
 * killed lisa left there ({@link recoverMerge}). `fn` gets the journal that could not be undone
 * (or null).
 */
export async function withRepo<T>(
  deps: Deps,
  runtimeDir: string,
  commonDir: string,
  fn: (stuck: MergeJournal | null) => Promise<T>,
): Promise<T> {
  return await withRepoLock(runtimeDir, commonDir, async () => {
    const stuck = await recoverMerge(deps, commonDir);
    return await fn(stuck);
  });
}
