/**
 * Hook records as turn facts, shared by `send --wait` and the history ingester: the fields a
 * record line may carry, a stable key for a line, and what an event means for a turn.
 */
import type { HookRecord } from "../hook/mod.ts";
import { LISA_TURN_END } from "../../agents/hooks.ts";
import { isAgentsOwnPrompt } from "../../agents/prompts.ts";

export { promptMatches } from "../../agents/prompts.ts";

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
    case "Elicitation":
      return "permission";
    case "ElicitationResult":
      // The person answered the MCP server: the turn goes on.
      return "tool";
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

/** The record is an MCP server's request for the person's input (claude's Elicitation). */
export function isElicitation(r: TurnRecord): boolean {
  return r.event === "Elicitation" || r.notificationType === "elicitation_dialog";
}

/** What started a turn: a person's prompt, or the agent's own report of background work. */
export type TurnTrigger = "prompt" | "background";

/** The trigger of the turn a start record (`UserPromptSubmit`) opens. */
export function triggerOf(r: TurnRecord): TurnTrigger {
  return isAgentsOwnPrompt(r.prompt ?? r.preview ?? "") ? "background" : "prompt";
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
