/**
 * Hook records as turn facts, shared by `send --wait` and the history ingester: the fields a
 * record line may carry, a stable key for a line, and what an event means for a turn.
 */
import type { HookRecord } from "../hook/mod.ts";
import { LISA_TURN_END } from "../../agents/hooks.ts";

/**
 * The fields of a hook line (`src/core/hook/hook_record.ts`), all optional: a line read back may come
 * from an older lisa, or be cut.
 */
export type TurnRecord = Partial<Omit<HookRecord, "aux">> & { aux?: boolean };

/** Parses one hook line; null when it is not a JSON object. */
export function parseTurnRecord(line: string): TurnRecord | null {
  try {
    const value = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * A 64-bit FNV-1a hash of `text` as 16 hex digits: the key of a line (a turn's id is the key
 * of the line that started it), the same in every process.
 */
export function lineKey(text: string): string {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0xcbf29ce4 | 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 13), 0x01000193);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return hex(h2) + hex(h1);
}

/** What an event means for the turn it belongs to. */
export type TurnEventKind =
  | "start"
  | "tool"
  | "permission"
  | "completed"
  | "failed"
  | "interrupted"
  | "session_start"
  | "session_end"
  | "other";

/** The meaning of record `r` for turns (codex's side-thread notifies are `other`). */
export function turnEventKind(r: TurnRecord): TurnEventKind {
  if (r.aux === true) return "other";
  switch (r.event) {
    case "UserPromptSubmit":
      return "start";
    case "PreToolUse":
    case "PostToolUse":
      return "tool";
    case "PermissionRequest":
      return "permission";
    case "Notification":
      return r.notificationType === "permission_prompt" ||
          r.notificationType === "elicitation_dialog"
        ? "permission"
        : "other";
    case "Stop":
    case "agent-turn-complete":
      return "completed";
    case "StopFailure":
      return "failed";
    case "SessionStart":
      return r.preview === "compact" ? "other" : "session_start";
    case "SessionEnd":
      return "session_end";
    case LISA_TURN_END:
      // lisa's own line: status decided the turn ended without its end hook.
      return r.outcome === "completed" ? "completed" : "interrupted";
    default:
      return "other";
  }
}

/** Whitespace runs as one space, trimmed. */
function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * True when the prompt an agent reports (`reported`, maybe cut to fit its hook line) is the
 * text that was sent, whitespace flattened: equal, or (one of them at least 120 characters
 * long, so a cut is possible) equal over all of the shorter one. Two prompts that share a long
 * preamble but end differently never match. A prompt claude shows as a paste placeholder also
 * matches.
 */
export function promptMatches(reported: string | undefined | null, sent: string): boolean {
  if (reported === undefined || reported === null) return true;
  const a = flat(reported);
  const b = flat(sent);
  // Nothing typed (`--wait` with keys only, e.g. answering a dialog): any prompt is the turn's.
  if (b === "") return true;
  if (a.startsWith("[Pasted text")) return true;
  const n = Math.min(a.length, b.length);
  return a.length > 0 && b.length > 0 && a.slice(0, n) === b.slice(0, n) &&
    (a.length >= 120 || b.length >= 120 || a === b);
}

/** One tool call of a turn. */
export interface ToolUse {
  tool: string;
  /** A short summary of its input (command, file, pattern…), null when unknown. */
  input: string | null;
  durationMs: number | null;
  at: string | null;
}

/** The tool call a PostToolUse record reports (null for other records). */
export function toolUseOf(r: TurnRecord): ToolUse | null {
  if (r.event !== "PostToolUse" || typeof r.tool !== "string") return null;
  const preview = typeof r.preview === "string" ? r.preview : null;
  const input = preview !== null && preview.startsWith(`${r.tool}: `)
    ? preview.slice(r.tool.length + 2)
    : null;
  return {
    tool: r.tool,
    input,
    durationMs: typeof r.durationMs === "number" ? r.durationMs : null,
    at: typeof r.at === "string" ? r.at : null,
  };
}
