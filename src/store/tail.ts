/**
 * Bounded reads from the end of a file, for the JSONL logs: a huge file never costs a
 * whole-file read. Lines are split on the newline byte, which never occurs inside a UTF-8
 * multi-byte sequence, so byte windows can be decoded line by line safely.
 */
import { FileUnsafeError, LisaError } from "../base/errors.ts";

const decoder = new TextDecoder();
/** The newline byte. */
export const NEWLINE = 0x0a;
/** Bytes read per step when walking a file backwards. */
const CHUNK = 64 * 1024;

/** Reads up to `buf.length` bytes at `position`; returns how many were read (short at EOF). */
export function readAt(file: Deno.FsFile, position: number, buf: Uint8Array): number {
  file.seekSync(position, Deno.SeekMode.Start);
  let off = 0;
  while (off < buf.length) {
    const n = file.readSync(buf.subarray(off));
    if (n === null || n === 0) break;
    off += n;
  }
  return off;
}

/** Number of newline bytes in `buf`. */
export function countNewlines(buf: Uint8Array): number {
  let count = 0;
  let i = buf.indexOf(NEWLINE);
  while (i >= 0) {
    count++;
    i = buf.indexOf(NEWLINE, i + 1);
  }
  return count;
}

/** The end of a file: the bytes from `start` to `size`. */
export interface TailWindow {
  bytes: Uint8Array;
  /** Offset of `bytes[0]` in the file; 0 means the window holds the whole file. */
  start: number;
  /** Newline bytes in `bytes`. */
  newlines: number;
}

/**
 * Reads `file` (of `size` bytes) backwards in chunks until more than `stopAfterNewlines`
 * newlines were seen, `windowBytes` were read, or the start was reached. Reads at most
 * `windowBytes` (rounded to whole chunks only when stopping early). Throws when the file is
 * shorter than `size` (only an outside truncation can do that while its lock is held).
 */
export function readTail(
  file: Deno.FsFile,
  size: number,
  windowBytes: number,
  stopAfterNewlines = Infinity,
): TailWindow {
  const floor = Math.max(0, size - Math.max(0, windowBytes));
  const chunks: Uint8Array[] = [];
  let pos = size;
  let newlines = 0;
  while (pos > floor && newlines <= stopAfterNewlines) {
    const n = Math.min(CHUNK, pos - floor);
    pos -= n;
    const buf = new Uint8Array(n);
    // Compacting a half-read window would lose lines, so fail instead.
    if (readAt(file, pos, buf) < n) {
      throw new LisaError("file_changed", "A file shrank while lisa read it; try again");
    }
    chunks.unshift(buf);
    newlines += countNewlines(buf);
  }
  const bytes = chunks.length === 1 ? chunks[0] : new Uint8Array(size - pos);
  if (chunks.length !== 1) {
    let off = 0;
    for (const c of chunks) {
      bytes.set(c, off);
      off += c.length;
    }
  }
  return { bytes, start: pos, newlines };
}

/**
 * The last `windowBytes` of the file at `path` (following symlinks), as {@link readTail} reads
 * them. A regular file that fits in the window is read in one call (a poll reads small sidecars
 * constantly); one that grew past it meanwhile is read as a tail. Throws I/O errors (NotFound
 * for a missing file) and `file_unsafe` for anything but a regular file: opening a FIFO would
 * block until some writer came, hanging every status and list.
 */
export function readTailOf(path: string, windowBytes: number): TailWindow {
  const info = Deno.statSync(path);
  if (!info.isFile) throw new FileUnsafeError(path, "it is not a regular file");
  if (info.size <= windowBytes) {
    const bytes = Deno.readFileSync(path);
    if (bytes.length <= windowBytes) return { bytes, start: 0, newlines: countNewlines(bytes) };
  }
  const file = Deno.openSync(path, { read: true });
  try {
    return readTail(file, file.statSync().size, windowBytes);
  } finally {
    file.close();
  }
}

/**
 * The complete lines of a tail window, oldest first: the first segment is dropped when the
 * window does not start at the beginning of the file (it may be the end of a longer line), and
 * text after the last newline is dropped (a line nobody finished). Empty lines are skipped.
 */
export function completeLines(tail: TailWindow): string[] {
  let bytes = tail.bytes;
  if (tail.start > 0) {
    const first = bytes.indexOf(NEWLINE);
    bytes = first < 0 ? new Uint8Array(0) : bytes.subarray(first + 1);
  }
  const last = bytes.lastIndexOf(NEWLINE);
  if (last < 0) return [];
  return decoder.decode(bytes.subarray(0, last)).split("\n").filter((l) => l.length > 0);
}
