/**
 * claude's transcript (`transcript_path` of its hooks, one JSON object per line): the agent's
 * last message of a turn, for replies too long for a hook line. Read-only and bounded.
 */
import { readLinesFrom } from "../store/line_cursor.ts";

/** Bytes of the transcript's end that are read. */
const TRANSCRIPT_TAIL_BYTES = 4 * 1024 * 1024;

type Json = Record<string, unknown>;

/** The text blocks of a message content (a string, or an array of blocks). */
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content
    .filter((b): b is Json => typeof b === "object" && b !== null)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string);
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/**
 * The text of the last assistant message in the transcript at `path` that has text, written
 * after the last prompt of a person; null when there is none, or the file is missing,
 * unreadable or a symlink. Never throws.
 */
export function lastAssistantText(path: string): string | null {
  let lines: string[];
  try {
    const read = readLinesFrom(path, null, TRANSCRIPT_TAIL_BYTES);
    if (read === null) return null;
    lines = read.lines;
  } catch {
    return null;
  }
  let reply: string | null = null;
  for (const line of lines) {
    let entry: Json;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof entry !== "object" || entry === null) continue;
    const message = entry.message as Json | undefined;
    if (typeof message !== "object" || message === null) continue;
    if (entry.type === "user") {
      // A person's prompt starts a new turn; tool results (user entries too) do not.
      if (textOf(message.content) !== null) reply = null;
    } else if (entry.type === "assistant") {
      const text = textOf(message.content);
      if (text !== null && text.trim() !== "") reply = text;
    }
  }
  return reply;
}
