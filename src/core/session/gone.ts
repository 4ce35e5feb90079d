/**
 * What a session's event log says of its alias once its meta is gone. Spawn writes the alias
 * into the log's first event (`spawn_success`) and kill into its last (`killed`), so one of the
 * two ends holds it even after the log was compacted from its tail. Read without the event lock:
 * appends are whole lines, and a line still being written is skipped like any unreadable one.
 */
import { completeLines, readAt, readTail } from "../../store/tail.ts";

/** Bytes read from each end of a log: the first event is well under this. */
const END_BYTES = 8 * 1024;

const decoder = new TextDecoder();

/** The alias a parsed event line carries, or null. */
function aliasOf(line: string): string | null {
  try {
    const record = JSON.parse(line);
    const alias = typeof record === "object" && record !== null ? record.alias : undefined;
    return typeof alias === "string" && alias !== "" ? alias : null;
  } catch {
    return null;
  }
}

/**
 * The alias recorded in the event log at `path` (its first event, else the newest event that
 * names one), or null when it has none or cannot be read. Never follows a symlink or opens
 * anything but a regular file. Never throws.
 */
export function aliasInEventLog(path: string): string | null {
  try {
    if (!Deno.lstatSync(path).isFile) return null;
    const file = Deno.openSync(path, { read: true });
    try {
      const size = file.statSync().size;
      const head = new Uint8Array(Math.min(END_BYTES, size));
      const n = readAt(file, 0, head);
      const nl = head.subarray(0, n).indexOf(0x0a);
      if (nl > 0) {
        const first = aliasOf(decoder.decode(head.subarray(0, nl)));
        if (first !== null) return first;
      }
      // A small log is all in `head` already; a larger one's newest events are at its end.
      const lines = completeLines(
        size <= END_BYTES
          ? { bytes: head.subarray(0, n), start: 0, newlines: 0 }
          : readTail(file, size, END_BYTES),
      );
      for (let i = lines.length - 1; i >= 0; i--) {
        const alias = aliasOf(lines[i]);
        if (alias !== null) return alias;
      }
      return null;
    } finally {
      file.close();
    }
  } catch {
    return null;
  }
}
