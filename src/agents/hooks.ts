/**
 * Agent hooks as a state signal (DESIGN §4.6): the argv words that make an agent call
 * `lisa hook <agent>` at the moments that matter, and the reader that turns the hook sidecar
 * (`…-hooks.jsonl`, written by `src/core/hook/run_hook.ts`) into the classifier's `hooks` signal.
 *
 * - claude: `--settings <json>` with command hooks for SessionStart, UserPromptSubmit, Stop,
 *   StopFailure, Notification, PermissionRequest, PostToolUse and SessionEnd, plus
 *   `--session-id <uuid>` so lisa knows the agent's session (and transcript). PostToolUse is
 *   there because a permission dialog that was answered fires nothing else until the turn ends:
 *   without it a long tool call after an approval would still read "permission pending".
 * - codex: `-c notify=[…]`, which codex runs with an `agent-turn-complete` JSON argument after
 *   each turn. A `notify` already in the user's `config.toml` is chained: lisa's hook runs it
 *   after recording, so the user's notification still fires.
 */
import type { Config, Env } from "../base/config.ts";
import type { Deps } from "../base/deps.ts";
import type { Agent } from "../base/types.ts";
import { completeLines, readTailOf } from "../store/tail.ts";
import { atLeast, parseVersion, type Version } from "./version.ts";

/**
 * claude hook events lisa subscribes to when it cannot tell the agent's version (the set every
 * earlier lisa gave claude).
 */
export const CLAUDE_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "Stop",
  "StopFailure",
  "Notification",
  "PermissionRequest",
  "PostToolUse",
  "SessionEnd",
] as const;

/**
 * Every claude hook event lisa uses, with the first claude version that knows it (its
 * changelog). An event a claude does not know breaks its `--settings` (`version.ts`), so a
 * claude of a known version gets exactly the events it knows:
 * - SubagentStart/SubagentStop: a subagent still running keeps the session working;
 * - PreCompact/PostCompact: a compaction is work (they come as a pair: without PostCompact a
 *   PreCompact would read as compacting until the next turn);
 * - Elicitation/ElicitationResult: an MCP server asks the person for input, and got it.
 */
export const CLAUDE_EVENT_SINCE: Readonly<Record<string, Version>> = {
  SessionStart: [1, 0, 62],
  UserPromptSubmit: [1, 0, 62],
  Stop: [1, 0, 62],
  Notification: [1, 0, 62],
  PostToolUse: [1, 0, 62],
  SessionEnd: [1, 0, 85],
  SubagentStart: [2, 0, 43],
  SubagentStop: [2, 0, 43],
  PermissionRequest: [2, 0, 45],
  PreCompact: [2, 1, 76],
  PostCompact: [2, 1, 76],
  Elicitation: [2, 1, 76],
  ElicitationResult: [2, 1, 76],
  StopFailure: [2, 1, 78],
};

/**
 * The claude hook events for an agent of `version` (`"2.1.197"`): those it knows (see
 * {@link CLAUDE_EVENT_SINCE}), or {@link CLAUDE_HOOK_EVENTS} when the version is unknown.
 */
export function claudeHookEvents(version: string | null | undefined): string[] {
  const parsed = version ? parseVersion(version) : null;
  if (parsed === null) return [...CLAUDE_HOOK_EVENTS];
  return Object.entries(CLAUDE_EVENT_SINCE)
    .filter(([, since]) => atLeast(parsed, since))
    .map(([event]) => event);
}

/** Events whose hooks take a matcher (tool name, notification type, source); "" matches all. */
const MATCHER_EVENTS = new Set([
  "SessionStart",
  "Notification",
  "PermissionRequest",
  "PostToolUse",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "Elicitation",
  "ElicitationResult",
]);

/**
 * The `event` of the line lisa itself writes to a session's hook log when status decides that a
 * turn the hooks still report running is over (an Esc fires no hook, a Stop can be lost): with
 * `outcome` (`interrupted`, or `completed` with the screen's `reply`), `endedAt` and `reason`.
 * Every reader of the log (status, `send --wait`, history) then ends the turn the same way.
 */
export const LISA_TURN_END = "lisa:turn_end";

/** Seconds claude lets one hook command run before it gives up on it. */
export const CLAUDE_HOOK_TIMEOUT_SECONDS = 10;

/** A word single-quoted for a POSIX shell (claude runs hook commands with a shell). */
function singleQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The shell command line `<self…> hook <agent>`, every word single-quoted. */
export function hookCommandLine(selfCommand: readonly string[], agent: string): string {
  return [...selfCommand, "hook", agent].map(singleQuote).join(" ");
}

/**
 * The `--settings` document that makes claude call `lisa hook claude` on every event a claude of
 * `version` knows (see {@link claudeHookEvents}).
 */
export function claudeHookSettings(
  selfCommand: readonly string[],
  version?: string | null,
): Record<string, unknown> {
  const command = hookCommandLine(selfCommand, "claude");
  const hooks: Record<string, unknown> = {};
  for (const event of claudeHookEvents(version)) {
    const handler = { type: "command", command, timeout: CLAUDE_HOOK_TIMEOUT_SECONDS };
    hooks[event] = [
      MATCHER_EVENTS.has(event) ? { matcher: "", hooks: [handler] } : {
        hooks: [handler],
      },
    ];
  }
  return { hooks };
}

/**
 * argv words for claude: `--settings <json> --session-id <uuid>`. `sessionId` must be a UUID
 * (claude rejects anything else); see {@link newAgentSessionId}. `version`: the claude's.
 */
export function claudeHookArgs(
  selfCommand: readonly string[],
  sessionId: string,
  version?: string | null,
): string[] {
  return [
    "--settings",
    JSON.stringify(claudeHookSettings(selfCommand, version)),
    "--session-id",
    sessionId,
  ];
}

/** A fresh UUID for claude's `--session-id`. */
export function newAgentSessionId(): string {
  return crypto.randomUUID();
}

/** A TOML basic string (JSON escapes are TOML escapes; DEL must be escaped too). */
function tomlString(text: string): string {
  return JSON.stringify(text).replaceAll("\u007f", "\\u007F");
}

/** A TOML array of strings. */
export function tomlStringArray(words: readonly string[]): string {
  return `[${words.map(tomlString).join(", ")}]`;
}

/** True when `argv` already is a `… hook codex …` call (never chain lisa to itself). */
function isLisaHook(argv: readonly string[]): boolean {
  return argv.some((word, i) => word === "hook" && argv[i + 1] === "codex");
}

/**
 * argv words for codex: `-c notify=[<self…>, "hook", "codex"]`. With `userNotify` (the user's
 * own notify argv), lisa's hook chains to it: `… "hook", "codex", "--chain", "<json argv>"`.
 */
export function codexHookArgs(
  selfCommand: readonly string[],
  userNotify?: readonly string[] | null,
): string[] {
  const argv = [...selfCommand, "hook", "codex"];
  if (userNotify && userNotify.length > 0 && !isLisaHook(userNotify)) {
    argv.push("--chain", JSON.stringify(userNotify));
  }
  return ["-c", `notify=${tomlStringArray(argv)}`];
}

/** Path of the user's codex config: `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`. */
export function codexConfigPath(env: Env): string | null {
  if (env.CODEX_HOME) return `${env.CODEX_HOME.replace(/\/+$/, "")}/config.toml`;
  if (env.HOME) return `${env.HOME.replace(/\/+$/, "")}/.codex/config.toml`;
  return null;
}

/**
 * The top-level `notify` array of a codex `config.toml` text, or null when there is none or it
 * is not a plain array of strings. Minimal TOML: only this one key is read, before the first
 * table header; basic and literal single-line strings, comments and trailing commas.
 */
export function parseTomlNotify(text: string): string[] | null {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*\[/.test(line)) return null; // the first table: top-level keys are over
    const m = /^\s*(?:notify|"notify"|'notify')\s*=\s*/.exec(line);
    if (!m) continue;
    const rest = [line.slice(m[0].length), ...lines.slice(i + 1)].join("\n");
    return parseStringArray(rest);
  }
  return null;
}

const TOML_ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};

/** Parses `[ "a", 'b', ]` at the start of `text`; null when it is anything else. */
function parseStringArray(text: string): string[] | null {
  let i = 0;
  const skip = () => {
    while (i < text.length) {
      if (/\s/.test(text[i])) i++;
      else if (text[i] === "#") {
        while (i < text.length && text[i] !== "\n") i++;
      } else break;
    }
  };
  if (text[i] !== "[") return null;
  i++;
  const out: string[] = [];
  while (true) {
    skip();
    if (text[i] === "]") return out;
    const quote = text[i];
    if (quote !== '"' && quote !== "'") return null;
    if (text.startsWith(quote.repeat(3), i)) return null; // multi-line strings: not supported
    i++;
    let value = "";
    while (true) {
      const ch = text[i];
      if (ch === undefined || ch === "\n") return null;
      i++;
      if (ch === quote) break;
      if (quote === '"' && ch === "\\") {
        const esc = text[i++];
        if (esc === "u" || esc === "U") {
          const len = esc === "u" ? 4 : 8;
          const hex = text.slice(i, i + len);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) return null;
          value += String.fromCodePoint(parseInt(hex, 16));
          i += len;
        } else if (esc in TOML_ESCAPES) value += TOML_ESCAPES[esc];
        else return null;
      } else value += ch;
    }
    out.push(value);
    skip();
    if (text[i] === ",") i++;
    else if (text[i] !== "]") return null;
  }
}

/**
 * The user's own codex `notify` argv from their config file (see {@link codexConfigPath}), or
 * null when there is none or it cannot be read. Never throws.
 */
export function readUserCodexNotify(env: Env): string[] | null {
  const path = codexConfigPath(env);
  if (path === null) return null;
  try {
    const notify = parseTomlNotify(Deno.readTextFileSync(path));
    return notify && notify.length > 0 ? notify : null;
  } catch {
    return null;
  }
}

/** What hook injection adds to a spawn: agent argv words and meta facts. */
export interface HookExtras {
  /** argv words for the agent command (placed before `--agent-args` and the prompt). */
  extraArgs: string[];
  /** claude's `--session-id` (recorded in meta), null otherwise. */
  agentSessionId: string | null;
  /** True when hooks were injected (recorded in meta; status reads the sidecar only then). */
  hooks: boolean;
}

/** `--agent-args` that pick claude's session themselves (a second `--session-id` would clash). */
const CLAUDE_SESSION_FLAGS =
  /(^|\s)(--session-id|--resume|-r|--continue|-c|--fork-session)(=|\s|$)/;

/**
 * The hook words for a spawn: none for `--command` sessions, with `LISA_HOOKS=off`, or when
 * the caller passed `hooks: false` (`--no-hooks`); otherwise claude's `--settings`/`--session-id`
 * (no `--session-id` when `--agent-args` already choose a session) or codex's `-c notify=…`
 * (chained to the user's own notify from their codex config). Never throws.
 */
export function hookExtras(
  deps: Pick<Deps, "config" | "env" | "selfCommand">,
  input: {
    agent: Agent;
    custom: boolean;
    hooks?: boolean;
    agentArgs?: string | null;
    /** The agent's version (`version.ts`), null when unknown. */
    version?: string | null;
  },
): HookExtras {
  const none: HookExtras = { extraArgs: [], agentSessionId: null, hooks: false };
  if (input.custom || input.hooks === false || deps.config.hooks === "off") return none;
  if (input.agent === "claude") {
    if (CLAUDE_SESSION_FLAGS.test(input.agentArgs ?? "")) {
      const settings = claudeHookArgs(deps.selfCommand, "", input.version).slice(0, 2);
      return { extraArgs: settings, agentSessionId: null, hooks: true };
    }
    const sessionId = newAgentSessionId();
    return {
      extraArgs: claudeHookArgs(deps.selfCommand, sessionId, input.version),
      agentSessionId: sessionId,
      hooks: true,
    };
  }
  return {
    extraArgs: codexHookArgs(deps.selfCommand, readUserCodexNotify(deps.env)),
    agentSessionId: null,
    hooks: true,
  };
}

/**
 * The `hooks` signal of the classifier: what the agent's own hooks say about the session.
 * - `active`: a record of this run arrived (SessionStart for claude, the first notify for codex):
 *   hooks work for this session.
 * - `pending`: `permission` (a PermissionRequest, or a Notification of type permission_prompt,
 *   with nothing after it), `elicitation` (an MCP server asks the person for input: claude's
 *   Elicitation, or a Notification of type elicitation_dialog), `turn_running`
 *   (UserPromptSubmit, a tool that ran, an answered elicitation, with no Stop after it),
 *   `compacting` (a PreCompact with no PostCompact yet), `turn_done` (Stop, StopFailure, codex
 *   agent-turn-complete, or claude's idle_prompt Notification), or null (nothing pending or no
 *   turn yet).
 * - `lastEvent`/`lastEventAgeSeconds`: the newest record of this run.
 * - `backgroundTasks` (with `turn_done` from a claude Stop): the work the agent still runs on its
 *   own after the turn, which it reports with a turn of its own when it ends: the Stop's
 *   in-flight `background_tasks` (a Bash run in the background, a background subagent), or,
 *   from a claude that does not report them, the subagents of the turn that started and have
 *   not stopped. Absent when there is none.
 */
export interface HookSignal {
  active: boolean;
  pending: "permission" | "elicitation" | "turn_running" | "compacting" | "turn_done" | null;
  lastEvent: string | null;
  lastEventAgeSeconds: number | null;
  /**
   * The message of the newest record when it reports a failed turn (claude's StopFailure:
   * "API Error: Request rejected (429) · …"), else absent. Blocked-agent rules read it.
   */
  failure?: string;
  /** Work still in flight after the turn ended (see above); absent when none. */
  backgroundTasks?: BackgroundTask[];
}

/** One entry of claude's `background_tasks` (a Bash run in the background, a subagent, …). */
export interface BackgroundTask {
  id: string;
  /** `shell`, `subagent`, `monitor`, `workflow`, … as claude labels it. */
  type: string;
  /** `running`, `pending`, … as claude reports it. */
  status: string;
  description: string;
}

/** The fields of a hook record the reader uses. */
interface HookLine {
  at?: unknown;
  runId?: unknown;
  event?: unknown;
  notificationType?: unknown;
  preview?: unknown;
  aux?: unknown;
  backgroundTasks?: unknown;
  subagentId?: unknown;
  subagentType?: unknown;
}

/** How far back the reader looks (records are at most 4 KiB, so at least 64 of them). */
const READ_WINDOW_BYTES = 256 * 1024;

/**
 * Statuses of a background task that mean it is over; claude lists in-flight work only, so any
 * other status (running, pending, …) counts as still running.
 */
const TASK_OVER = new Set(["completed", "failed", "killed", "stopped", "cancelled", "error"]);

/**
 * What one record says about what is pending: a value when the event decides it, undefined
 * when it does not (the reader then looks at older records).
 */
export function pendingOf(record: HookLine): HookSignal["pending"] | undefined {
  switch (record.event) {
    case "UserPromptSubmit":
    case "PreToolUse":
    case "PostToolUse":
    case "ElicitationResult":
      return "turn_running";
    case "PermissionRequest":
      return "permission";
    case "Elicitation":
      return "elicitation";
    case "Notification":
      if (record.notificationType === "permission_prompt") return "permission";
      if (record.notificationType === "elicitation_dialog") return "elicitation";
      if (record.notificationType === "idle_prompt") return "turn_done";
      return undefined;
    case "Stop":
    case "StopFailure":
    case "agent-turn-complete":
    case LISA_TURN_END:
      return "turn_done";
    case "PreCompact":
      return "compacting";
    case "SessionStart":
      // A compaction restarts the session mid-turn; any other start has no turn yet.
      return record.preview === "compact" ? undefined : null;
    case "SessionEnd":
      return null;
    default:
      return undefined;
  }
}

/** The in-flight tasks of a record's `backgroundTasks`, or null when it carries none. */
export function tasksOf(record: { backgroundTasks?: unknown }): BackgroundTask[] | null {
  if (!Array.isArray(record.backgroundTasks)) return null;
  return record.backgroundTasks.filter((t): t is BackgroundTask =>
    typeof t === "object" && t !== null && typeof t.id === "string" &&
    typeof t.status === "string" && !TASK_OVER.has(t.status)
  ).map((t) => ({
    id: t.id,
    type: typeof t.type === "string" ? t.type : "unknown",
    status: t.status,
    description: typeof t.description === "string" ? t.description : "",
  }));
}

/** Parses one hook line of run `runId`; null for junk and for other runs' lines. */
function lineOf(text: string, runId: string): HookLine | null {
  let record: HookLine;
  try {
    record = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof record === "object" && record !== null && record.runId === runId ? record : null;
}

/**
 * The background work of the turn a claude `Stop` at `lines[at]` ended (see
 * {@link HookSignal.backgroundTasks}): its in-flight tasks minus those whose subagent stopped
 * since (`stopped`, ids of SubagentStop records newer than it), or, when the Stop lists none
 * (an older claude), its turn's subagents that never stopped. Pure.
 */
function backgroundAfter(
  lines: readonly string[],
  at: number,
  runId: string,
  stopped: ReadonlySet<string>,
): BackgroundTask[] {
  const stop = lineOf(lines[at], runId);
  const listed = stop === null ? null : tasksOf(stop);
  if (listed !== null) return listed.filter((t) => !stopped.has(t.id));
  const open: BackgroundTask[] = [];
  const seen = new Set(stopped);
  for (let i = at - 1; i >= 0; i--) {
    const r = lineOf(lines[i], runId);
    if (r === null || r.aux === true) continue;
    if (r.event === "SubagentStop" && typeof r.subagentId === "string") seen.add(r.subagentId);
    if (r.event === "SubagentStart" && typeof r.subagentId === "string") {
      if (!seen.has(r.subagentId)) {
        open.push({
          id: r.subagentId,
          type: "subagent",
          status: "running",
          description: typeof r.subagentType === "string" ? r.subagentType : "",
        });
      }
      continue;
    }
    const p = pendingOf(r);
    // The turn's start (or the end of the turn before it) bounds what belongs to this turn.
    if (r.event === "UserPromptSubmit" || p === "turn_done" || p === null) break;
  }
  return open;
}

/**
 * Reads the hook sidecar at `hooksPath` and summarises the records of run `runId` (records of
 * other runs never count). Returns null when the file is missing or holds no record of this run
 * (hooks not active yet, or not injected). Reads at most a bounded tail window, without the
 * lock: appends are single whole-line writes and compaction replaces the file atomically, and a
 * line still being written is dropped. Never throws.
 */
export function readHookSignal(
  hooksPath: string,
  runId: string | null,
  nowMs: number,
  config?: Pick<Config, "eventsMaxBytes">,
): HookSignal | null {
  // No run id (a meta without one): no hook line can be told to be this run's.
  if (typeof runId !== "string" || runId === "") return null;
  let lines: string[];
  try {
    const window = Math.min(READ_WINDOW_BYTES, 2 * (config?.eventsMaxBytes ?? READ_WINDOW_BYTES));
    lines = completeLines(readTailOf(hooksPath, window));
  } catch {
    return null;
  }
  let active = false;
  let lastEvent: string | null = null;
  let lastAt: number | null = null;
  let failure: string | undefined;
  let pending: HookSignal["pending"] | undefined;
  let decidedAt = -1;
  // A PostCompact hides the records back to its PreCompact: the compaction is over.
  let compactionOver = false;
  const stoppedSubagents = new Set<string>();
  for (let i = lines.length - 1; i >= 0 && pending === undefined; i--) {
    const record = lineOf(lines[i], runId);
    if (record === null) continue;
    active = true;
    if (record.aux === true) continue;
    if (lastEvent === null && typeof record.event === "string") {
      lastEvent = record.event;
      const at = typeof record.at === "string" ? Date.parse(record.at) : NaN;
      lastAt = Number.isNaN(at) ? null : at;
      if (record.event === "StopFailure" && typeof record.preview === "string") {
        failure = record.preview;
      }
    }
    if (record.event === "SubagentStop" && typeof record.subagentId === "string") {
      stoppedSubagents.add(record.subagentId);
    }
    if (record.event === "PostCompact") compactionOver = true;
    if (record.event === "PreCompact" && compactionOver) {
      compactionOver = false;
      continue;
    }
    pending = pendingOf(record);
    if (pending !== undefined) decidedAt = i;
  }
  if (!active) return null;
  const background = pending === "turn_done" && lineOf(lines[decidedAt], runId)?.event === "Stop"
    ? backgroundAfter(lines, decidedAt, runId, stoppedSubagents)
    : [];
  return {
    active,
    pending: pending ?? null,
    lastEvent,
    lastEventAgeSeconds: lastAt === null
      ? null
      : Math.max(0, Math.round((nowMs - lastAt) / 100) / 10),
    ...(failure !== undefined ? { failure } : {}),
    ...(background.length > 0 ? { backgroundTasks: background } : {}),
  };
}

/**
 * The start of the turn run `runId` has open in the hook log at `hooksPath` (its newest
 * `UserPromptSubmit` with no end after it): the prompt it reported and when. Null when no turn
 * is open in the bounded tail window read, or the file cannot be read. Never throws.
 */
export function openTurnStart(
  hooksPath: string,
  runId: string,
  config?: Pick<Config, "eventsMaxBytes">,
): { prompt: string | null; atMs: number | null } | null {
  let lines: string[];
  try {
    const window = Math.min(READ_WINDOW_BYTES, 2 * (config?.eventsMaxBytes ?? READ_WINDOW_BYTES));
    lines = completeLines(readTailOf(hooksPath, window));
  } catch {
    return null;
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    let record: HookLine & { prompt?: unknown };
    try {
      record = JSON.parse(lines[i]);
    } catch {
      continue;
    }
    if (typeof record !== "object" || record === null || record.runId !== runId) continue;
    if (record.aux === true) continue;
    if (record.event === "UserPromptSubmit") {
      const prompt = typeof record.prompt === "string"
        ? record.prompt
        : typeof record.preview === "string"
        ? record.preview
        : null;
      const at = typeof record.at === "string" ? Date.parse(record.at) : NaN;
      return { prompt, atMs: Number.isNaN(at) ? null : at };
    }
    if (pendingOf(record) === "turn_done" || pendingOf(record) === null) return null;
  }
  return null;
}
