/**
 * Bounded JSONL logs: the event log (`…-events.jsonl`) and the hook sidecar (`…-hooks.jsonl`).
 * Appends and compaction run under the exclusive lock on the sibling `.lock` file, readers take
 * it shared, so nobody ever sees a half-written line or a half-compacted file (DESIGN §4.4).
 * Every read is bounded by a tail window, so a huge file never costs a whole-file read.
 */
import type { Config } from "../base/config.ts";
import { FileUnsafeError, LisaError } from "../base/errors.ts";
import type { EventRecord } from "../base/types.ts";
import { pathExists } from "./atomic.ts";
import { tryWithLockSync, withLock } from "./lock.ts";
import { type LogNotes, readNotes, readUpTo, writeNotes } from "./log_notes.ts";
import { compact, type Compacted } from "./compact.ts";
import { lockPathFor, SESSION_ARTIFACT_RE } from "./runtime_dir.ts";
import { completeLines, NEWLINE, readAt, readTail } from "./tail.ts";
import { joinPath } from "../base/paths.ts";

const encoder = new TextEncoder();
/** Tail window of readers when the caller gives none (twice the default LISA_EVENTS_MAX_BYTES). */
const DEFAULT_READ_WINDOW = 2_000_000;
/** Below this size recounting lines is cheaper than keeping the count in the lock file. */
const COUNT_CACHE_MIN_BYTES = 64 * 1024;

/** Bounds and lock timeout of {@link appendJsonl}. */
export interface JsonlBounds {
  /** Compact when the file is larger than this many bytes. */
  maxBytes: number;
  /** Compact when the file has more than this many lines. */
  maxLines: number;
  /** Give up with `LockBusyError` after this many milliseconds. */
  lockTimeoutMs: number;
  /**
   * Never compact away a line the log's reader has not marked read ({@link markRead}): the
   * hook log, whose lines history must ingest. Until a mark exists, nothing is dropped.
   */
  keepUnread?: boolean;
}

/** Options of {@link readJsonlTail}. */
export interface JsonlReadOptions {
  /** Return at most this many records (the newest). */
  limit?: number;
  /** Give up with `LockBusyError` after this many milliseconds. */
  lockTimeoutMs: number;
  /** Read at most this many bytes from the end of the file (default 2 MB). */
  maxBytes?: number;
}

/**
 * `events_file_unsafe`: a log lisa reads is a symlink or not a regular file (planted, or
 * tampered with). Refused with a clear message, never followed.
 */
export class EventsFileUnsafeError extends LisaError {
  constructor(path: string, reason: string) {
    super("events_file_unsafe", `Refusing to read the log "${path}": ${reason}`, {
      details: { eventsFile: path },
    });
  }
}

function refuseSymlink(path: string): void {
  try {
    const info = Deno.lstatSync(path);
    if (info.isSymlink) throw new FileUnsafeError(path, "it is a symlink");
    if (!info.isFile) throw new FileUnsafeError(path, "it is not a regular file");
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Appends `records` (one JSON line each) to the JSONL file at `path` with one write, under the
 * exclusive lock on `lockPathFor(path)`. The file is created 0600; a symlink is refused. When
 * the file then exceeds `maxBytes` or `maxLines`, it is compacted from a bounded tail window
 * (about 2×maxBytes) to the newest lines within ~80% of both bounds and replaced atomically;
 * with `keepUnread`, lines its reader has not marked read stay whatever the bounds. Throws
 * `LockBusyError` when the lock is not free within `lockTimeoutMs`, and I/O errors.
 */
export async function appendJsonl(
  path: string,
  records: object | object[],
  bounds: JsonlBounds,
): Promise<void> {
  const list = Array.isArray(records) ? records : [records];
  if (list.length === 0) return;
  const text = list.map((r) => JSON.stringify(r)).join("\n") + "\n";
  const lockPath = lockPathFor(path);
  await withLock(lockPath, { exclusive: true, timeoutMs: bounds.lockTimeoutMs }, () => {
    refuseSymlink(path);
    const file = Deno.openSync(path, { read: true, append: true, create: true, mode: 0o600 });
    try {
      const info = file.statSync();
      // A line left unfinished by a crash must not swallow ours: start on a fresh line.
      let prefix = "";
      if (info.size > 0) {
        const last = new Uint8Array(1);
        if (readAt(file, info.size - 1, last) === 1 && last[0] !== NEWLINE) prefix = "\n";
      }
      const bytes = encoder.encode(prefix + text);
      let off = 0;
      while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
      const size = info.size + bytes.length;
      const added = list.length + prefix.length;
      const cached = size > COUNT_CACHE_MIN_BYTES;
      let notes = cached ? readNotes(lockPath) : undefined;
      let newlines: number | undefined;
      const count = notes?.count;
      if (count !== undefined && count.ino === info.ino && count.size === info.size) {
        newlines = count.newlines + added;
      } else if (size <= bounds.maxBytes) {
        // Exact up to maxLines + 1, which is all the decision needs.
        newlines = readTail(file, size, size, bounds.maxLines).newlines;
      }
      let compacted: Compacted | null = null;
      if (size > bounds.maxBytes || newlines === undefined || newlines > bounds.maxLines) {
        notes ??= readNotes(lockPath);
        const readTo = bounds.keepUnread ? readUpTo(notes, info.ino, size) : undefined;
        // Nothing read yet: every line is still wanted, the file stays as it is.
        if (readTo !== 0) compacted = compact(path, file, size, bounds, readTo);
      }
      if (compacted !== null) {
        const ino = Deno.lstatSync(path).ino ?? null;
        const next: LogNotes = {};
        if (ino !== null && compacted.count.size > COUNT_CACHE_MIN_BYTES) {
          next.count = { ino, ...compacted.count };
        }
        if (ino !== null && bounds.keepUnread) next.read = { ino, offset: compacted.readOffset };
        writeNotes(lockPath, next);
      } else if (cached && newlines !== undefined && info.ino !== null) {
        writeNotes(lockPath, { ...notes, count: { ino: info.ino, size, newlines } });
      }
    } finally {
      file.close();
    }
  });
}

/**
 * Marks the log at `path` read up to `cursor` (where its reader stopped, once what it read is
 * stored for good), so that compaction of a `keepUnread` log may drop the lines before it. Done
 * only while the log is still the file the cursor was taken on (same inode, at least that
 * long), and only if its lock is free at once: otherwise the lines are kept a while longer.
 * Returns true when the mark was written. Never throws.
 */
export function markRead(path: string, cursor: { ino: number | null; offset: number }): boolean {
  const ino = cursor.ino;
  if (ino === null) return false;
  const lockPath = lockPathFor(path);
  try {
    return tryWithLockSync(lockPath, () => {
      const info = Deno.lstatSync(path);
      if (!info.isFile || info.ino !== ino || info.size < cursor.offset) return false;
      writeNotes(lockPath, { ...readNotes(lockPath), read: { ino, offset: cursor.offset } });
      return true;
    }) ?? false;
  } catch {
    return false;
  }
}

/**
 * The read mark of the log at `path` ({@link markRead}, moved along by each compaction), or
 * null when none is noted. Read without the lock: a torn read is no mark.
 */
export function readMark(path: string): { ino: number; offset: number } | null {
  return readNotes(lockPathFor(path)).read ?? null;
}

/**
 * Reads the newest complete lines of `path` under the shared lock, at most `maxBytes` from its
 * end, and returns the ones that parse as JSON, oldest first, at most `limit`. A missing file
 * gives []. Invalid lines are skipped (fewer than `limit` come back only when the window holds
 * too few valid lines). Throws `LockBusyError` when a writer holds the lock past `lockTimeoutMs`,
 * and `events_file_unsafe` when `path` is a symlink or not a regular file.
 */
export async function readJsonlTail<T>(path: string, options: JsonlReadOptions): Promise<T[]> {
  const limit = options.limit ?? Infinity;
  if (limit <= 0) return [];
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  if (info.isSymlink) throw new EventsFileUnsafeError(path, "it is a symlink");
  if (!info.isFile) throw new EventsFileUnsafeError(path, "it is not a regular file");
  return await withLock(
    lockPathFor(path),
    { exclusive: false, timeoutMs: options.lockTimeoutMs },
    () => {
      let file: Deno.FsFile;
      try {
        file = Deno.openSync(path, { read: true });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return [];
        throw error;
      }
      try {
        const size = file.statSync().size;
        const tail = readTail(file, size, options.maxBytes ?? DEFAULT_READ_WINDOW, limit);
        const out: T[] = [];
        const lines = completeLines(tail);
        for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
          try {
            out.push(JSON.parse(lines[i]) as T);
          } catch { /* a corrupt line is skipped, never fatal */ }
        }
        return out.reverse();
      } finally {
        file.close();
      }
    },
  );
}

/** Appends one event record to a session's event log with the configured bounds and timeout. */
export async function appendEvent(
  eventsPath: string,
  record: EventRecord,
  config: Config,
): Promise<void> {
  await appendJsonl(eventsPath, record, {
    maxBytes: config.eventsMaxBytes,
    maxLines: config.eventsMaxLines,
    lockTimeoutMs: config.eventLockTimeoutMs,
  });
}

/** Options of {@link readEvents}. */
export interface ReadEventsOptions {
  /** At most this many events (the newest). */
  limit?: number;
  /** Only events whose `at` is at or after this time (epoch ms). */
  sinceMs?: number;
}

/**
 * The newest events of a session's log, oldest first (see {@link readJsonlTail}); records
 * without an `at` are dropped when `sinceMs` is given. Missing log → [].
 */
export async function readEvents(
  eventsPath: string,
  config: Config,
  options: ReadEventsOptions = {},
): Promise<EventRecord[]> {
  const events = await readJsonlTail<EventRecord>(eventsPath, {
    limit: options.limit,
    lockTimeoutMs: config.eventLockTimeoutMs,
    maxBytes: 2 * config.eventsMaxBytes,
  });
  const records = events.filter((e) => typeof e === "object" && e !== null && !Array.isArray(e));
  const since = options.sinceMs;
  if (since === undefined) return records;
  return records.filter((e) => {
    const at = typeof e.at === "string" ? Date.parse(e.at) : NaN;
    return Number.isFinite(at) && at >= since;
  });
}

function mtimeMsOf(path: string): number | undefined {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile) return undefined;
    return info.mtime?.getTime();
  } catch {
    return undefined;
  }
}

function removeFile(path: string, removed: string[]): boolean {
  try {
    Deno.removeSync(path);
    removed.push(path);
    return true;
  } catch {
    return false; // already gone or not ours to remove: pruning is best effort
  }
}

/**
 * Removes event logs (`.lisa-*-events.jsonl`) of `runtimeDir` last written more than
 * `retentionDays` days before `nowMs`, with their `.lock` files; hook sidecars
 * (`-hooks.jsonl`) past the same age go too when their session has no meta file (a live
 * session keeps its hooks). Lock files left without their log are removed once past the age.
 * Symlinks and non-files are never touched. `retentionDays` ≤ 0 disables pruning. Only project
 * `hash`'s files when given. Best effort: never throws; returns the removed paths.
 */
export function pruneOldEvents(
  runtimeDir: string,
  retentionDays: number,
  nowMs: number,
  hash?: string,
): string[] {
  const removed: string[] = [];
  if (!(retentionDays > 0)) return removed;
  const cutoff = nowMs - retentionDays * 86_400_000;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(runtimeDir)];
  } catch {
    return removed;
  }
  const isOld = (path: string) => {
    const mtime = mtimeMsOf(path);
    return mtime !== undefined && mtime < cutoff;
  };
  const locks: string[] = [];
  const gone = new Set<string>();
  for (const entry of entries) {
    if (!entry.isFile) continue;
    const m = SESSION_ARTIFACT_RE.exec(entry.name);
    if (m === null) continue;
    const [, fileHash, session, kind, lock] = m;
    if (hash !== undefined && fileHash !== hash) continue;
    const path = joinPath(runtimeDir, entry.name);
    if (lock !== undefined) {
      if (kind === "events.jsonl" || kind === "hooks.jsonl") locks.push(path);
      continue;
    }
    if (kind === "events.jsonl" && isOld(path)) {
      if (removeFile(path, removed)) gone.add(path);
    } else if (kind === "hooks.jsonl" && isOld(path)) {
      const meta = joinPath(runtimeDir, `.lisa-${fileHash}-session-${session}-meta.json`);
      if (!pathExists(meta) && removeFile(path, removed)) gone.add(path);
    }
  }
  for (const lock of locks) {
    const data = lock.slice(0, -".lock".length);
    if (gone.has(data) || (!pathExists(data) && isOld(lock))) removeFile(lock, removed);
  }
  return removed;
}
