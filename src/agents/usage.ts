/**
 * Token counts of a turn, from the agent's own log. Read only when asked (a turn's end in
 * `send --wait`, history ingestion), never by `status` or `hook`; bounded reads; a missing,
 * unreadable or damaged log gives null, never an error.
 *
 * - claude: its transcript (`transcript_path`, `~/.claude/projects/…/<session-id>.jsonl`) has
 *   `message.usage` (`input_tokens`, `output_tokens`, `cache_read_input_tokens`,
 *   `cache_creation_input_tokens`) on each assistant entry. A message streamed as several
 *   entries repeats its usage: counted once per `message.id`. The entries of a turn are those
 *   timed after its prompt's entry (`promptId`, claude's `prompt_id`), up to the next prompt's
 *   (by timestamp: claude may write a reply above the prompt entry it answers).
 * - codex 0.169: its session log (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread-id>.jsonl`)
 *   has `token_usage_record` entries whose `turn_token_usage` sums the turn so far (older logs:
 *   `event_msg` `token_count` entries, whose `last_token_usage` are added up between the turn's
 *   `task_started` and `task_complete`). codex counts cached input inside `input_tokens`; lisa
 *   reports it apart, as claude does: `inputTokens` is the input that was not read from cache.
 */
import type { Env } from "../base/config.ts";
import { readLinesFrom } from "../store/line_cursor.ts";

/** A turn's tokens (`send --wait`, `session turns`, history). */
export interface TokenUsage {
  /** Input tokens not read from the prompt cache. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens: number;
}

/** Most bytes of an agent's log read (its newest part). */
export const USAGE_READ_BYTES = 16 * 1024 * 1024;

type Json = Record<string, unknown>;

/** A count field: a finite number ≥ 0, else 0. */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

function obj(value: unknown): Json | null {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Json
    : null;
}

/** No tokens. */
export function zeroUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** `a + b`; null when both are null (a null side counts as nothing). */
export function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (a === null) return b === null ? null : { ...b };
  if (b === null) return { ...a };
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

/** All four counts summed (the TOKENS column). */
export function totalTokens(u: TokenUsage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** The lines of the newest {@link USAGE_READ_BYTES} of `path`, and whether that is all of it. */
function readLog(path: string): { lines: string[]; whole: boolean } | null {
  try {
    const size = Deno.lstatSync(path).size;
    const read = readLinesFrom(path, null, USAGE_READ_BYTES);
    return read === null ? null : { lines: read.lines, whole: size <= USAGE_READ_BYTES };
  } catch {
    return null;
  }
}

function parse(line: string): Json | null {
  try {
    return obj(JSON.parse(line));
  } catch {
    return null;
  }
}

/** One assistant message of a claude transcript. */
interface ClaudeMessage {
  /** The prompt it answers (null before the first prompt read). */
  promptId: string | null;
  atMs: number | null;
  usage: TokenUsage;
}

/** A claude transcript's usage, indexed once for every turn of it. */
export interface ClaudeUsageIndex {
  messages: ClaudeMessage[];
  /** Prompt ids whose prompt entry was read: their turns are whole in the window. */
  prompts: Set<string>;
  /** True when the whole file was read. */
  whole: boolean;
}

/** True when a user entry's content is a prompt (text), not only tool results. */
function isPrompt(message: Json): boolean {
  const content = message.content;
  if (typeof content === "string") return true;
  return Array.isArray(content) &&
    content.some((b) => obj(b)?.type === "text" && typeof obj(b)?.text === "string");
}

function claudeUsageOf(usage: Json): TokenUsage {
  return {
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWriteTokens: count(usage.cache_creation_input_tokens),
  };
}

/** Reads claude's transcript at `path` (bounded); null when it cannot be read. Never throws. */
export function readClaudeUsage(path: string): ClaudeUsageIndex | null {
  const log = readLog(path);
  if (log === null) return null;
  const byId = new Map<string, ClaudeMessage>();
  const anonymous: ClaudeMessage[] = [];
  const prompts = new Set<string>();
  // The user entries of each prompt by time: claude 2.1.197 may write a turn's first reply above
  // the prompt entry it answers (their timestamps stay in order), so a message belongs to the
  // prompt of the latest user entry before it, and to the one above it in the file only when
  // times are missing.
  const userEntries: { atMs: number; promptId: string }[] = [];
  let current: string | null = null;
  for (const line of log.lines) {
    // Most lines are neither prompts nor usage: skip them without parsing.
    if (!line.includes('"usage"') && !line.includes('"promptId"')) continue;
    const entry = parse(line);
    const message = obj(entry?.message);
    if (entry === null || message === null) continue;
    if (entry.type === "user" && typeof entry.promptId === "string") {
      current = entry.promptId;
      if (isPrompt(message)) prompts.add(current);
      const at = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : NaN;
      if (!Number.isNaN(at)) userEntries.push({ atMs: at, promptId: current });
      continue;
    }
    const usage = obj(message.usage);
    if (entry.type !== "assistant" || usage === null) continue;
    const at = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : NaN;
    const m = {
      promptId: current,
      atMs: Number.isNaN(at) ? null : at,
      usage: claudeUsageOf(usage),
    };
    // A message streamed as several entries carries its usage on each: the last one counts.
    if (typeof message.id === "string") byId.set(message.id, m);
    else anonymous.push(m);
  }
  const messages = [...byId.values(), ...anonymous];
  userEntries.sort((a, b) => a.atMs - b.atMs);
  for (const m of messages) m.promptId = promptAt(userEntries, m.atMs) ?? m.promptId;
  return { messages, prompts, whole: log.whole };
}

/** The prompt of the latest user entry at or before `atMs` (entries sorted by time), or null. */
function promptAt(
  entries: readonly { atMs: number; promptId: string }[],
  atMs: number | null,
): string | null {
  if (atMs === null) return null;
  // Binary search: the first entry after `atMs`, then the one before it.
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].atMs <= atMs) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? null : entries[lo - 1].promptId;
}

/**
 * The tokens of one turn of an indexed claude transcript: its prompt's (`promptId`), or, for a
 * turn without one (an older claude), the messages between `startMs` and `endMs` of a
 * transcript read whole. Null when the turn is not (wholly) in what was read.
 */
export function claudeTurnUsage(
  index: ClaudeUsageIndex,
  turn: { promptId?: string | null; startMs?: number | null; endMs?: number | null },
): TokenUsage | null {
  let picked: ClaudeMessage[];
  if (turn.promptId) {
    if (!index.prompts.has(turn.promptId)) return null;
    picked = index.messages.filter((m) => m.promptId === turn.promptId);
  } else {
    const { startMs, endMs } = turn;
    if (!index.whole || startMs == null || endMs == null) return null;
    // The Stop comes a moment after the last message is written.
    picked = index.messages.filter((m) =>
      m.atMs !== null && m.atMs >= startMs && m.atMs <= endMs + 1000
    );
    if (picked.length === 0) return null;
  }
  return picked.reduce<TokenUsage>((sum, m) => addUsage(sum, m.usage)!, zeroUsage());
}

function codexUsageOf(u: Json): TokenUsage {
  const input = count(u.input_tokens);
  const cached = Math.min(count(u.cached_input_tokens), input);
  return {
    inputTokens: input - cached,
    outputTokens: count(u.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: count(u.cache_write_input_tokens),
  };
}

/**
 * The tokens of turn `turnId` (codex's `turn-id`) in the codex session log at `path`; null when
 * the log has no count for it or cannot be read. Never throws.
 */
export function codexTurnUsage(path: string, turnId: string): TokenUsage | null {
  const log = readLog(path);
  if (log === null) return null;
  let record: TokenUsage | null = null;
  let summed: TokenUsage | null = null;
  let inTurn = false;
  for (const line of log.lines) {
    if (!line.includes(turnId) && !(inTurn && line.includes('"token_count"'))) continue;
    const entry = parse(line);
    const payload = obj(entry?.payload);
    if (entry === null || payload === null) continue;
    if (entry.type === "token_usage_record" && payload.turn_id === turnId) {
      const turn = obj(payload.turn_token_usage);
      if (turn !== null) record = codexUsageOf(turn);
    } else if (entry.type === "event_msg") {
      if (payload.type === "task_started" && payload.turn_id === turnId) inTurn = true;
      else if (payload.type === "task_complete" && payload.turn_id === turnId) inTurn = false;
      else if (inTurn && payload.type === "token_count") {
        const last = obj(obj(payload.info)?.last_token_usage);
        if (last !== null) summed = addUsage(summed, codexUsageOf(last));
      }
    }
  }
  return record ?? summed;
}

/** `$CODEX_HOME`, else `~/.codex`; null when neither is set. */
function codexHome(env: Env): string | null {
  if (env.CODEX_HOME) return env.CODEX_HOME.replace(/\/+$/, "");
  if (env.HOME) return `${env.HOME.replace(/\/+$/, "")}/.codex`;
  return null;
}

/** `YYYY/MM/DD` of `ms`, local or UTC. */
function dayDir(ms: number, utc: boolean): string {
  const d = new Date(ms);
  const parts = utc
    ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]
    : [d.getFullYear(), d.getMonth() + 1, d.getDate()];
  return parts.map((n, i) => String(n).padStart(i === 0 ? 4 : 2, "0")).join("/");
}

/**
 * The session log of codex thread `threadId` (its `thread-id`), looked for in the day
 * directories around `nearMs` (the thread started that day or the day before); null when none
 * is found. Lists at most six directories. Never throws.
 */
export function codexRolloutPath(env: Env, threadId: string, nearMs: number): string | null {
  const home = codexHome(env);
  if (home === null || !/^[A-Za-z0-9-]+$/.test(threadId)) return null;
  const days = new Set<string>();
  for (const offset of [0, -1, 1]) {
    for (const utc of [false, true]) days.add(dayDir(nearMs + offset * 86_400_000, utc));
  }
  for (const day of days) {
    try {
      for (const entry of Deno.readDirSync(`${home}/sessions/${day}`)) {
        if (
          entry.isFile && entry.name.startsWith("rollout-") &&
          entry.name.endsWith(`-${threadId}.jsonl`)
        ) return `${home}/sessions/${day}/${entry.name}`;
      }
    } catch { /* no such day */ }
  }
  return null;
}

/** What identifies a turn in its agent's log. */
export interface TurnRef {
  agent: string | null;
  /** claude's `prompt_id` or codex's `turn-id`. */
  promptId: string | null;
  /** claude's transcript. */
  transcriptPath: string | null;
  /** codex's thread id. */
  threadId: string | null;
  startMs: number | null;
  endMs: number | null;
}

/**
 * Reads the tokens of turns from their agents' logs, each claude transcript parsed once for
 * all the turns asked of it (history ingests many turns at a time).
 */
export class UsageReader {
  #claude = new Map<string, ClaudeUsageIndex | null>();
  #env: Env;

  constructor(env: Env) {
    this.#env = env;
  }

  /** The tokens of `turn`, or null when its agent's log does not tell. Never throws. */
  turnUsage(turn: TurnRef): TokenUsage | null {
    try {
      if (turn.agent === "codex") {
        if (turn.promptId === null || turn.threadId === null) return null;
        const path = codexRolloutPath(
          this.#env,
          turn.threadId,
          turn.endMs ?? turn.startMs ?? Date.now(),
        );
        return path === null ? null : codexTurnUsage(path, turn.promptId);
      }
      if (turn.transcriptPath === null) return null;
      let index = this.#claude.get(turn.transcriptPath);
      if (index === undefined) {
        index = readClaudeUsage(turn.transcriptPath);
        this.#claude.set(turn.transcriptPath, index);
      }
      return index === null ? null : claudeTurnUsage(index, turn);
    } catch {
      return null;
    }
  }
}
