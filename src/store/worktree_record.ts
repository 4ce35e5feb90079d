/**
 * The durable record of a session's worktree. The session's meta goes with `kill` (and the
 * runtime dir with a reboot), but the worktree and its branch stay until they are merged and
 * pruned, so each worktree has a record beside it: `<LISA_WORKTREE_DIR>/<project-hash>/
 * <session>.lisa.json` next to the worktree directory `<…>/<project-hash>/<session>`. `diff`,
 * `merge` and the prune rule read it; `merge` adds what it merged; pruning removes it with the
 * worktree.
 *
 * Intent first: `spawn` writes the record (with `spawning`) before `git worktree add` makes
 * anything, and drops the mark once the session runs. A spawn that was interrupted — even by
 * SIGKILL, which nothing can catch — leaves a record that says so, so prune and the next spawn of
 * the name find what it left and clear it.
 */
import type { RecordedGroup, WorktreeInfo } from "../base/types.ts";
import { joinPath } from "../base/paths.ts";
import { readJsonIfExists, writeJsonAtomic } from "./atomic.ts";

/** Suffix of a record file. */
const RECORD_SUFFIX = ".lisa.json";

/**
 * What `merge` merged. Prune reads it for squashes only (a squash leaves the branch's commits on
 * no other branch), and only while the squash's result is still on a branch.
 */
export interface MergedMark {
  /** The branch tip that was merged. */
  tip: string;
  /** The branch of the main checkout it went into. */
  into: string;
  /** The commit the merge made on `into` (null when there was nothing to merge). */
  commit: string | null;
  squash: boolean;
  at: string;
}

/** The mark of a spawn still under way (see the module doc). */
export interface SpawnIntent {
  /** The spawning lisa process, and its start time (clock ticks since boot; null: unknown). */
  pid: number;
  startTime: number | null;
  /**
   * `worktree`: the worktree is being made (only the base commit's files are in it); `session`:
   * it is made and the session is being started (an agent may have run in it).
   */
  phase: "worktree" | "session";
  /** The process group of `git worktree add` while it runs (ended if it outlived its lisa). */
  gitGroup?: RecordedGroup | null;
}

/**
 * The mark of a prune removing the worktree (written before `git worktree remove` starts): the
 * worktree was judged removable, so a prune that was killed half way is finished by the next.
 */
export interface PruneIntent {
  /** The pruning lisa process, and its start time (null: unknown). */
  pid: number;
  startTime: number | null;
  /** The branch's tip that was judged (null: no branch). */
  tip: string | null;
  /** The process group of `git worktree remove` while it runs. */
  gitGroup?: RecordedGroup | null;
}

/** A worktree session, as recorded at spawn (and updated by merge). */
export interface WorktreeRecord {
  session: string;
  /** The session's alias, so that it names the session after kill (absent in older records). */
  alias?: string;
  projectRoot: string;
  projectHash: string;
  socketPath: string;
  createdAt: string;
  worktree: WorktreeInfo;
  merged?: MergedMark;
  /** Present while the spawn that creates the worktree has not finished. */
  spawning?: SpawnIntent;
  /** Present while a prune removes the worktree. */
  pruning?: PruneIntent;
}

/** The directory of a project's worktrees and records. */
export function projectWorktreeDir(worktreeDir: string, hash: string): string {
  return joinPath(worktreeDir, hash);
}

/** The worktree directory of `session`. */
export function worktreePathOf(worktreeDir: string, hash: string, session: string): string {
  return joinPath(worktreeDir, hash, session);
}

/** The record file of `session`. */
export function recordPathOf(worktreeDir: string, hash: string, session: string): string {
  return joinPath(worktreeDir, hash, `${session}${RECORD_SUFFIX}`);
}

function isRecord(value: unknown): value is WorktreeRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  const wt = r.worktree as Record<string, unknown> | undefined;
  return typeof r.session === "string" && typeof wt === "object" && wt !== null &&
    typeof wt.path === "string" && typeof wt.branch === "string" &&
    typeof wt.baseCommit === "string" && typeof wt.repoRoot === "string";
}

/** Reads a record; undefined when missing, unreadable or malformed. */
export function readRecord(path: string): WorktreeRecord | undefined {
  try {
    const value = readJsonIfExists<unknown>(path);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a record atomically (0600). Throws I/O errors. */
export function writeRecord(path: string, record: WorktreeRecord): void {
  writeJsonAtomic(path, record);
}

/** Removes a record (a missing one is fine). */
export function removeRecord(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** A record found on disk, with its file. */
export interface FoundRecord {
  path: string;
  record: WorktreeRecord;
}

/** Every record of one project hash, or of every hash when `hash` is absent (sorted by name). */
export function listRecords(worktreeDir: string, hash?: string): FoundRecord[] {
  const hashes: string[] = [];
  if (hash !== undefined) hashes.push(hash);
  else {
    try {
      for (const e of Deno.readDirSync(worktreeDir)) if (e.isDirectory) hashes.push(e.name);
    } catch { /* no worktrees yet */ }
  }
  const out: FoundRecord[] = [];
  for (const h of hashes) {
    const dir = projectWorktreeDir(worktreeDir, h);
    let entries: Deno.DirEntry[] = [];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isFile || !e.name.endsWith(RECORD_SUFFIX)) continue;
      const path = joinPath(dir, e.name);
      const record = readRecord(path);
      if (record !== undefined) out.push({ path, record });
    }
  }
  return out.sort((a, b) => a.record.session.localeCompare(b.record.session));
}

/**
 * The record of `session`: under `hash` first, else under any hash. Undefined when none.
 */
export function findRecord(
  worktreeDir: string,
  hash: string,
  session: string,
): FoundRecord | undefined {
  const local = recordPathOf(worktreeDir, hash, session);
  const record = readRecord(local);
  if (record !== undefined) return { path: local, record };
  return listRecords(worktreeDir).find((f) => f.record.session === session);
}
