/**
 * Incremental reading of an append-only JSONL file (hook sidecar, event log) from a byte
 * cursor: only the complete lines written since the cursor, and a new cursor. A file that was
 * compacted or replaced since (another inode, or shorter than the cursor) is read again from
 * its start, and the caller is told (`reset`), so it can skip lines it already has.
 */
import { FileUnsafeError } from "../base/errors.ts";
import { NEWLINE, readAt } from "./tail.ts";

/** Where reading stopped in a file: its inode and the byte after the last complete line. */
export interface FileCursor {
  ino: number | null;
  offset: number;
}

/** What {@link readLinesFrom} returns. */
export interface CursorRead {
  /** Complete lines written since the cursor, oldest first (empty lines skipped). */
  lines: string[];
  /** The cursor to pass next time. */
  next: FileCursor;
  /** True when the file was read again from its start (compacted, replaced or truncated). */
  reset: boolean;
  /** With `oldestFirst`: true when lines after `next` are left for another read. */
  more?: boolean;
}

/** Longest stretch read at once; older bytes of a larger file are skipped. */
export const MAX_READ_BYTES = 8 * 1024 * 1024;

const decoder = new TextDecoder();

/**
 * Reads the complete lines of `path` after `cursor` (from the start when `cursor` is null).
 * More than `maxBytes` after it: the newest `maxBytes` are read (older bytes are skipped), or,
 * with `oldestFirst` (a reader that must see every line), the oldest `maxBytes`, and `more`
 * says the rest waits for the next read from `next`. Returns null when the file does not
 * exist. Throws `file_unsafe` for a symlink or a non-regular file, and I/O errors as they come.
 */
export function readLinesFrom(
  path: string,
  cursor: FileCursor | null,
  maxBytes = MAX_READ_BYTES,
  oldestFirst = false,
): CursorRead | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (info.isSymlink) throw new FileUnsafeError(path, "it is a symlink");
  if (!info.isFile) throw new FileUnsafeError(path, "it is not a regular file");
  const file = Deno.openSync(path, { read: true });
  try {
    const stat = file.statSync();
    const ino = stat.ino ?? null;
    const size = stat.size;
    const same = cursor !== null && cursor.ino === ino && size >= cursor.offset;
    let start = same ? cursor.offset : 0;
    let end = size;
    let skipFirst = false;
    if (size - start > maxBytes) {
      if (oldestFirst) end = start + maxBytes;
      else {
        start = size - maxBytes;
        skipFirst = true;
      }
    }
    const buf = new Uint8Array(end - start);
    const n = readAt(file, start, buf);
    let bytes = buf.subarray(0, n);
    let base = start;
    if (skipFirst) {
      const first = bytes.indexOf(NEWLINE);
      base += first + 1;
      bytes = first < 0 ? new Uint8Array(0) : bytes.subarray(first + 1);
    }
    let last = bytes.lastIndexOf(NEWLINE);
    // A chunk without a newline holds part of one line longer than the chunk: it is skipped
    // (no reader can use it), so the next read goes on after it.
    const skipLong = last < 0 && end < size;
    const lines = last < 0
      ? []
      : decoder.decode(bytes.subarray(0, last)).split("\n").filter((l) => l.length > 0);
    if (skipLong) last = bytes.length - 1;
    return {
      lines,
      next: { ino, offset: last < 0 ? base : base + last + 1 },
      reset: cursor !== null && !same,
      ...(oldestFirst ? { more: end < size } : {}),
    };
  } finally {
    file.close();
  }
}
