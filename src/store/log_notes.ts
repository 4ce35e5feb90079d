/**
 * What a bounded JSONL log's lock file (`lockPathFor(log)`) remembers about the log, written only
 * under the log's exclusive lock, one fact per line:
 *
 * - `{ino} {size} {newlines}`: the line count as of the last append, so an append does not
 *   recount a large file. Trusted only while the log's inode and size are the recorded ones.
 * - `read {ino} {offset}`: how far the log's reader (history ingestion) has read it. Compaction
 *   of a log appended with `keepUnread` never drops a line at or after this offset, and moves
 *   the mark along when it rewrites the file. Trusted only while the inode is the recorded one;
 *   without a trusted mark nothing counts as read.
 *
 * Both are caches of facts that can be recomputed or are safe to lose: a missing or damaged
 * note only costs a recount, or keeps lines longer.
 */

/** Size and newline count of a log. */
export interface LineCount {
  size: number;
  newlines: number;
}

/** The notes of one log (see the module doc). */
export interface LogNotes {
  count?: { ino: number; size: number; newlines: number };
  read?: { ino: number; offset: number };
}

/** Reads the notes in `lockPath`; a missing, unreadable or foreign content gives `{}`. */
export function readNotes(lockPath: string): LogNotes {
  let text: string;
  try {
    text = Deno.readTextFileSync(lockPath);
  } catch {
    return {};
  }
  const notes: LogNotes = {};
  for (const line of text.split("\n")) {
    const count = /^(\d+) (\d+) (\d+)$/.exec(line);
    if (count !== null) {
      notes.count = { ino: Number(count[1]), size: Number(count[2]), newlines: Number(count[3]) };
      continue;
    }
    const read = /^read (\d+) (\d+)$/.exec(line);
    if (read !== null) notes.read = { ino: Number(read[1]), offset: Number(read[2]) };
  }
  return notes;
}

/** Writes `notes` to `lockPath` (call with the log's exclusive lock held). Best effort. */
export function writeNotes(lockPath: string, notes: LogNotes): void {
  let text = "";
  if (notes.count !== undefined) {
    text += `${notes.count.ino} ${notes.count.size} ${notes.count.newlines}\n`;
  }
  if (notes.read !== undefined) text += `read ${notes.read.ino} ${notes.read.offset}\n`;
  try {
    Deno.writeTextFileSync(lockPath, text);
  } catch { /* only notes: the next append recounts, compaction keeps more */ }
}

/**
 * The offset before which the log (inode `ino`, `size` bytes) has been read, per `notes`: 0 when
 * no mark is trusted (another inode, or past the end).
 */
export function readUpTo(notes: LogNotes, ino: number | null, size: number): number {
  const read = notes.read;
  if (read === undefined || ino === null || read.ino !== ino || read.offset > size) return 0;
  return read.offset;
}
