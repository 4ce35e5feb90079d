/**
 * The hook record: one compact JSON line per agent hook call, built from whatever the agent sent
 * (claude: a JSON object on stdin; codex `notify`: a JSON object as the last argv word). Pure
 * functions, no I/O, so the lean `lisa hook` path stays cheap and unit tests need no fakes.
 *
 * Junk input never fails: a payload that is not JSON (or was cut at the read cap) still yields a
 * record, with the fields that could be recovered from its text and `event: "unknown"` otherwise.
 */
import type { BackgroundTask } from "../../agents/hooks.ts";

export type { BackgroundTask };

/** One line of the hook sidecar (`…-hooks.jsonl`). */
export interface HookRecord {
  /** ISO time the hook ran. */
  at: string;
  /** `LISA_RUN_ID` of the spawn whose agent fired the hook (null outside a lisa session). */
  runId: string | null;
  /** The agent named on the command line (`lisa hook claude`). */
  agent: string;
  /** claude `hook_event_name` (SessionStart, Stop, …) or codex notify `type`; "unknown" if absent. */
  event: string;
  /** claude Notification `notification_type` (permission_prompt, idle_prompt, …). */
  notificationType: string | null;
  /** claude `session_id` or codex `thread-id`. */
  agentSessionId: string | null;
  /** claude `transcript_path`. */
  transcriptPath: string | null;
  /** At most {@link PREVIEW_CHARS} characters of the message the event carries, one line. */
  preview: string | null;
  /**
   * Set when the event belongs to the agent's own side work, not to the user's turn: codex runs
   * a separate thread to title each prompt, and its notify fires while the real turn still runs.
   */
  aux?: true;
  /** The prompt of the turn (claude UserPromptSubmit; codex: the last input message). */
  prompt?: string;
  /** The agent's final message of the turn (claude Stop; codex agent-turn-complete). */
  reply?: string;
  /** What failed (claude StopFailure). */
  error?: string;
  /** The tool of a PreToolUse/PostToolUse/PermissionRequest. */
  tool?: string;
  /** claude's `tool_use_id` of that tool call. */
  toolUseId?: string;
  /** How long the tool ran, when the agent says (`duration_ms`). */
  durationMs?: number;
  /** A plan the agent wrote: ExitPlanMode's `plan`. */
  plan?: string;
  /** The plan's file: a Write/Edit under a `plans/` directory, or ExitPlanMode's file. */
  planPath?: string;
  /** Names of the long fields above that were cut to fit the line (history says so). */
  cut?: string[];
  /** lisa's own turn-end line (`LISA_TURN_END`): how status decided the turn ended. */
  outcome?: "completed" | "interrupted";
  /** lisa's own turn-end line: when the turn ended (its last sign), ISO time. */
  endedAt?: string;
  /** lisa's own turn-end line: the classification reason that decided it. */
  reason?: string;
  /**
   * The agent's own id of the turn: claude's `prompt_id` (the same on a prompt's
   * UserPromptSubmit, its tools and its Stop), codex's `turn-id`. Ties a turn to its token
   * counts in the agent's transcript, and a send to its receipt.
   */
  promptId?: string;
  /**
   * claude Stop/SubagentStop: the background work the agent reported in flight when the turn
   * ended (`background_tasks`; empty when it reported none). Absent when the agent does not say.
   */
  backgroundTasks?: BackgroundTask[];
  /** claude SubagentStart/SubagentStop: the subagent's `agent_id`. */
  subagentId?: string;
  /** claude SubagentStart/SubagentStop: the subagent's `agent_type`. */
  subagentType?: string;
}

/** Longest preview kept, in characters. */
export const PREVIEW_CHARS = 200;
/** Hard bound of one record line in bytes, newline included (below PIPE_BUF). */
export const MAX_LINE_BYTES = 4096;

/**
 * Prompts codex uses for its own side threads (data, so a new version is a data change): their
 * `agent-turn-complete` notify says nothing about the user's turn.
 */
export const CODEX_AUX_PROMPTS: readonly RegExp[] = [
  /^Generate a concise, single-line task title/,
];

const encoder = new TextEncoder();

type Json = Record<string, unknown>;

/** Parses `text` as a JSON object; undefined when it is not one. */
function parseObject(text: string): Json | undefined {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Recovers top-level-looking string fields from text that is not valid JSON (cut at the read
 * cap, or junk): `"key": "value"` pairs whose value string is complete.
 */
function scrapeStrings(text: string, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) {
    const re = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){0,4096})"`);
    const m = re.exec(text);
    if (!m) continue;
    try {
      out[key] = JSON.parse(`"${m[1]}"`);
    } catch { /* a broken escape: leave the field out */ }
  }
  return out;
}

const CLAUDE_KEYS = [
  "hook_event_name",
  "session_id",
  "transcript_path",
  "notification_type",
  "message",
  "prompt",
  "last_assistant_message",
  "tool_name",
  "source",
  "reason",
  "prompt_id",
] as const;

const CODEX_KEYS = ["type", "thread-id", "turn-id", "last-assistant-message"] as const;

/** Reads the payload as an object, or scrapes what it can from its text. */
export function parsePayload(text: string, agent: string): Json {
  const parsed = parseObject(text);
  if (parsed) return parsed;
  return scrapeStrings(text, agent === "codex" ? CODEX_KEYS : CLAUDE_KEYS);
}

function str(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** First string among `values`. */
function firstString(...values: unknown[]): string | null {
  for (const v of values) {
    const s = str(v);
    if (s !== null) return s;
  }
  return null;
}

/** Cuts `text` to at most `max` characters (code points), never splitting a surrogate pair. */
export function cutChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  let count = 0;
  for (const ch of text) {
    if (count >= max) break;
    out += ch;
    count++;
  }
  return out;
}

/** One line of at most {@link PREVIEW_CHARS} characters: control characters and runs of
 * whitespace become one space. */
export function makePreview(text: string | null): string | null {
  if (text === null) return null;
  // deno-lint-ignore no-control-regex
  const flat = cutChars(text, 4 * PREVIEW_CHARS).replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();
  return flat === "" ? null : cutChars(flat, PREVIEW_CHARS);
}

/** What the tool of a PermissionRequest/PostToolUse is about: its command or file. */
function toolPreview(payload: Json): string | null {
  const tool = str(payload.tool_name);
  if (tool === null) return null;
  const input = payload.tool_input;
  let detail: string | null = null;
  if (typeof input === "object" && input !== null) {
    const i = input as Json;
    detail = firstString(i.command, i.file_path, i.path, i.url, i.pattern);
  }
  return detail === null ? tool : `${tool}: ${detail}`;
}

/** Tools that write a file, and the directory name that marks a plan file (seed 002). */
const WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit"]);
const PLAN_DIR_RE = /\/plans?\/[^/]+\.md$/;

/** The fields of a claude record beyond the classifier's: full texts, tool facts, plans. */
function claudeExtras(event: string, payload: Json): Partial<HookRecord> {
  const out: Partial<HookRecord> = {};
  const set = <K extends keyof HookRecord>(key: K, value: HookRecord[K] | null) => {
    if (value !== null && value !== undefined) out[key] = value;
  };
  if (event === "UserPromptSubmit") set("prompt", str(payload.prompt));
  if (event === "Stop") set("reply", str(payload.last_assistant_message));
  set("promptId", str(payload.prompt_id));
  if (Array.isArray(payload.background_tasks)) {
    out.backgroundTasks = payload.background_tasks.flatMap(backgroundTaskOf);
  }
  if (event === "SubagentStart" || event === "SubagentStop") {
    set("subagentId", str(payload.agent_id));
    set("subagentType", str(payload.agent_type));
  }
  if (event === "StopFailure") {
    set("error", firstString(payload.error_details, payload.error, payload.message));
  }
  const tool = str(payload.tool_name);
  if (tool !== null && (event.endsWith("ToolUse") || event === "PermissionRequest")) {
    set("tool", tool);
    set("toolUseId", str(payload.tool_use_id));
    const ms = payload.duration_ms;
    if (typeof ms === "number" && Number.isFinite(ms) && ms >= 0) out.durationMs = Math.round(ms);
    const input = typeof payload.tool_input === "object" && payload.tool_input !== null
      ? payload.tool_input as Json
      : {};
    if (event === "PostToolUse" && tool === "ExitPlanMode") {
      set("plan", str(input.plan));
      set("planPath", firstString(input.planFilePath, input.plan_file_path));
    }
    const file = str(input.file_path);
    if (
      event === "PostToolUse" && WRITE_TOOLS.has(tool) && file !== null && PLAN_DIR_RE.test(file)
    ) {
      set("planPath", file);
    }
  }
  return out;
}

/** One `background_tasks` entry as a record keeps it ([] when it is not an object with an id). */
function backgroundTaskOf(value: unknown): BackgroundTask[] {
  if (typeof value !== "object" || value === null) return [];
  const t = value as Json;
  const id = str(t.id);
  if (id === null) return [];
  return [{
    id,
    type: str(t.type) ?? "unknown",
    status: str(t.status) ?? "unknown",
    description: makePreview(str(t.description)) ?? "",
  }];
}

/** Builds the record of one claude hook call from its stdin payload. */
function claudeRecord(payload: Json): Omit<HookRecord, "at" | "runId" | "agent"> {
  const event = str(payload.hook_event_name) ?? "unknown";
  let preview: string | null;
  switch (event) {
    case "UserPromptSubmit":
      preview = str(payload.prompt);
      break;
    case "Stop":
    case "StopFailure":
      preview = firstString(
        payload.last_assistant_message,
        payload.error_details,
        payload.error,
        payload.message,
      );
      break;
    case "PermissionRequest":
    case "PreToolUse":
    case "PostToolUse":
      preview = toolPreview(payload);
      break;
    case "SessionStart":
      preview = str(payload.source);
      break;
    case "SessionEnd":
      preview = str(payload.reason);
      break;
    case "PreCompact":
    case "PostCompact":
      preview = str(payload.trigger);
      break;
    case "SubagentStart":
    case "SubagentStop":
      preview = firstString(payload.last_assistant_message, payload.agent_type);
      break;
    default:
      preview = firstString(payload.message, payload.prompt);
  }
  return {
    event,
    notificationType: str(payload.notification_type),
    agentSessionId: str(payload.session_id),
    transcriptPath: str(payload.transcript_path),
    preview: makePreview(preview),
    ...claudeExtras(event, payload),
  };
}

/** Builds the record of one codex notify call from its JSON argument. */
function codexRecord(payload: Json): Omit<HookRecord, "at" | "runId" | "agent"> {
  const inputs = Array.isArray(payload["input-messages"]) ? payload["input-messages"] : [];
  const first = typeof inputs[0] === "string" ? inputs[0] : "";
  const aux = CODEX_AUX_PROMPTS.some((re) => re.test(first));
  const last = inputs.length > 0 ? str(inputs[inputs.length - 1]) : null;
  const reply = str(payload["last-assistant-message"]);
  return {
    event: str(payload.type) ?? "unknown",
    notificationType: null,
    agentSessionId: str(payload["thread-id"]),
    transcriptPath: null,
    preview: makePreview(reply),
    ...(aux ? { aux: true as const } : {}),
    ...(str(payload["turn-id"]) !== null ? { promptId: str(payload["turn-id"])! } : {}),
    ...(last !== null ? { prompt: last } : {}),
    ...(reply !== null ? { reply } : {}),
  };
}

/** Facts of one hook call besides its payload. */
export interface HookContext {
  at: Date;
  runId: string | null;
  agent: string;
}

/** The record of one hook call (fields not yet bounded: see {@link boundedLine}). */
export function buildRecord(payloadText: string, context: HookContext): HookRecord {
  const agent = cutChars(context.agent, 32);
  const payload = parsePayload(payloadText, agent);
  const fields = agent === "codex" ? codexRecord(payload) : claudeRecord(payload);
  return { at: context.at.toISOString(), runId: context.runId, agent, ...fields };
}

/** The long fields whose cutting the record reports in `cut`. */
const LONG_FIELDS = ["prompt", "reply", "error", "plan"] as const;

/** Character caps per field, tightened step by step until the line fits. */
const CAPS: ReadonlyArray<Readonly<Record<string, number>>> = [
  {
    runId: 128,
    event: 64,
    notificationType: 64,
    agentSessionId: 128,
    transcriptPath: 1024,
    preview: PREVIEW_CHARS,
    prompt: 600,
    reply: 1600,
    error: 400,
    plan: 1600,
    planPath: 512,
    tool: 128,
    toolUseId: 128,
    promptId: 128,
    subagentId: 128,
    subagentType: 64,
  },
  {
    runId: 64,
    event: 64,
    notificationType: 32,
    agentSessionId: 64,
    transcriptPath: 256,
    preview: 80,
    prompt: 200,
    reply: 400,
    error: 200,
    plan: 400,
    planPath: 256,
    tool: 64,
    toolUseId: 64,
    promptId: 64,
    subagentId: 64,
    subagentType: 32,
  },
  {
    runId: 64,
    event: 32,
    notificationType: 32,
    agentSessionId: 40,
    transcriptPath: 0,
    preview: 0,
    prompt: 0,
    reply: 0,
    error: 0,
    plan: 0,
    planPath: 0,
    tool: 32,
    toolUseId: 0,
    promptId: 64,
    subagentId: 40,
    subagentType: 0,
  },
];

/** Per tier of {@link CAPS}: most background tasks kept, and the caps of their fields. */
const TASK_CAPS: ReadonlyArray<{ count: number; id: number; type: number; description: number }> = [
  { count: 8, id: 64, type: 32, description: 120 },
  { count: 4, id: 32, type: 16, description: 40 },
  { count: 2, id: 24, type: 16, description: 0 },
];

/** The tasks cut to `caps` (a status is a short word: 16 characters). */
function boundTasks(
  tasks: readonly BackgroundTask[],
  caps: (typeof TASK_CAPS)[number],
): BackgroundTask[] {
  return tasks.slice(0, caps.count).map((t) => ({
    id: cutChars(t.id, caps.id),
    type: cutChars(t.type, caps.type),
    status: cutChars(t.status, 16),
    description: cutChars(t.description, caps.description),
  }));
}

/**
 * The record with its fields cut to their caps (tighter ones when escaping makes the line too
 * long), so that its JSON line, newline included, is at most {@link MAX_LINE_BYTES} bytes.
 */
export function boundRecord(record: HookRecord): HookRecord {
  for (const [tier, caps] of CAPS.entries()) {
    const bounded: HookRecord = { ...record };
    if (record.backgroundTasks !== undefined) {
      bounded.backgroundTasks = boundTasks(record.backgroundTasks, TASK_CAPS[tier]);
    }
    for (const [key, cap] of Object.entries(caps)) {
      const value = bounded[key as keyof HookRecord];
      if (typeof value !== "string") continue;
      const cut = cap === 0 ? null : cutChars(value, cap);
      (bounded as unknown as Record<string, unknown>)[key] = cut === "" ? null : cut;
    }
    const cutFields = LONG_FIELDS.filter((k) =>
      typeof record[k] === "string" && bounded[k] !== record[k]
    );
    for (const k of LONG_FIELDS) if (bounded[k] === null) delete bounded[k];
    if (bounded.planPath === null) delete bounded.planPath;
    if (bounded.toolUseId === null) delete bounded.toolUseId;
    if (bounded.tool === null) delete bounded.tool;
    for (const k of ["promptId", "subagentId", "subagentType"] as const) {
      if (bounded[k] === null) delete bounded[k];
    }
    if (cutFields.length > 0) bounded.cut = cutFields;
    if (encoder.encode(JSON.stringify(bounded) + "\n").length <= MAX_LINE_BYTES) return bounded;
  }
  // Unreachable with the caps above (every field is then tiny); kept as a hard guarantee.
  return {
    at: record.at,
    runId: null,
    agent: "?",
    event: "unknown",
    notificationType: null,
    agentSessionId: null,
    transcriptPath: null,
    preview: null,
  };
}

/** The bounded record as one JSON line, newline included (at most {@link MAX_LINE_BYTES}). */
export function recordLine(record: HookRecord): string {
  return JSON.stringify(boundRecord(record)) + "\n";
}
