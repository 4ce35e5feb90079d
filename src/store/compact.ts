/**
 * Compaction of a bounded JSONL log (`events.ts`): the file is rewritten, atomically, with the
 * newest lines that fit a share of its bounds, and, for a log whose reader must see every line
 * (`keepUnread`), with every line that reader has not read yet.
 */
import { LisaError } from "../base/errors.ts";
import { writeFileAtomic } from "./atomic.ts";
import type { JsonlBounds } from "./events.ts";
import type { LineCount } from "./log_notes.ts";
import { NEWLINE, readAt, readTail } from "./tail.ts";

const decoder = new TextDecoder();
/**
 * Compaction keeps this share of each bound, so the next compaction is a few hundred appends
 * away instead of on every append once the file is full.
 */
const KEEP_RATIO = 0.8;

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** A complete line of a log and where it starts in the file. */
interface PlacedLine {
  text: string;
  offset: number;
  /** Its bytes, newline included. */
  cost: number;
}

/**
 * The complete lines of `bytes` (the file's bytes from `start`), with their offsets: the first
 * segment is skipped when `start` is not 0 (it may be the end of a longer line), text after the
 * last newline too (a line nobody finished), and empty lines.
 */
function placedLines(bytes: Uint8Array, start: number): PlacedLine[] {
  const out: PlacedLine[] = [];
  let from = 0;
  if (start > 0) {
    const first = bytes.indexOf(NEWLINE);
    if (first < 0) return out;
    from = first + 1;
  }
  for (let nl = bytes.indexOf(NEWLINE, from); nl >= 0; nl = bytes.indexOf(NEWLINE, from)) {
    if (nl > from) {
      out.push({
        text: decoder.decode(bytes.subarray(from, nl)),
        offset: start + from,
        cost: nl + 1 - from,
      });
    }
    from = nl + 1;
  }
  return out;
}

/** What a compaction left: the new size and line count, and the new read mark. */
export interface Compacted {
  count: LineCount;
  /** Bytes of the kept lines that had been read (the read mark in the new file). */
  readOffset: number;
}

/**
 * Rewrites `path` with the newest valid lines of its tail window that fit within
 * {@link KEEP_RATIO} of both bounds, and, when `readTo` is given (`keepUnread`), every valid
 * line at or after `readTo` whatever the bounds (a line its reader has not read is never
 * dropped; invalid lines are, as no reader can use them). Called with the exclusive lock held.
 * Returns what was kept, or null when nothing would be dropped (the file is left alone).
 */
export function compact(
  path: string,
  file: Deno.FsFile,
  size: number,
  bounds: Pick<JsonlBounds, "maxBytes" | "maxLines">,
  readTo?: number,
): Compacted | null {
  const tail = readTail(file, size, 2 * bounds.maxBytes);
  if (readTo !== undefined && readTo < tail.start) {
    // More is unread than the window holds: everything from the mark stays.
    const bytes = new Uint8Array(size - readTo);
    if (readAt(file, readTo, bytes) < bytes.length) {
      throw new LisaError("file_changed", "A file shrank while lisa read it; try again");
    }
    const unread = placedLines(bytes, 0).filter((l) => isJsonLine(l.text));
    return rewrite(path, unread, 0);
  }
  const lines = placedLines(tail.bytes, tail.start);
  const keepLines = Math.max(1, Math.floor(bounds.maxLines * KEEP_RATIO));
  const keepBytes = Math.floor(bounds.maxBytes * KEEP_RATIO);
  const kept: PlacedLine[] = [];
  let bytes = 0;
  let dropped = tail.start > 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!isJsonLine(line.text)) {
      dropped = true;
      continue;
    }
    const unread = readTo !== undefined && line.offset >= readTo;
    if (!unread && (kept.length >= keepLines || bytes + line.cost > keepBytes)) {
      // The newest record alone may exceed the keep share; keep it while it fits the bound.
      if (kept.length === 0 && line.cost <= bounds.maxBytes) {
        kept.push(line);
        bytes += line.cost;
        dropped ||= i > 0;
      } else dropped = true;
      break;
    }
    kept.push(line);
    bytes += line.cost;
  }
  if (!dropped) return null;
  kept.reverse();
  const readOffset = readTo === undefined
    ? 0
    : kept.filter((l) => l.offset < readTo).reduce((n, l) => n + l.cost, 0);
  return rewrite(path, kept, readOffset);
}

/** Replaces `path` with `lines` (atomically). */
function rewrite(path: string, lines: readonly PlacedLine[], readOffset: number): Compacted {
  writeFileAtomic(path, lines.length === 0 ? "" : lines.map((l) => l.text).join("\n") + "\n");
  const size = lines.reduce((n, l) => n + l.cost, 0);
  return { count: { size, newlines: lines.length }, readOffset };
}
