/**
 * `lisa session send --wait`: sends text (and Enter), then waits for **the turn this send
 * started** to end, and answers with its outcome and the agent's reply.
 *
 * How the turn is told apart from one that was already running:
 * - hooks (claude): the hook file's size is taken before the paste; the turn is the first
 *   `UserPromptSubmit` written after it whose prompt is the sent text. Whatever ends before that
 *   line (the previous turn's `Stop`) is ignored. Tools, a permission request and the end come
 *   after it.
 * - hooks, a send that resumes a turn ({@link resumeOpenTurn}: keys or Enter alone, e.g. the
 *   answer to a permission dialog): the turn open before the send, under its own id.
 * - hooks (codex, whose notify fires only at a turn's end): the first non-side-thread
 *   `agent-turn-complete` written after the paste whose input message is the sent text.
 * - no hooks (`--command` sessions, `LISA_HOOKS=off`, hooks never active): the screen. The pane
 *   is captured before the paste; the turn has begun once the screen changed (or the session
 *   was seen working), and ended once the session is idle again; the reply is the text that
 *   appeared after the paste, cleaned (the echo of the sent text and a bare prompt row dropped).
 *
 * The send itself waits for the agent's receipt (`drive/receipt.ts`): a prompt the agent did not
 * take fails there with `send_unconfirmed`, before any turn is waited for.
 *
 * Outcomes: `completed` (exit 0), `permission` (a dialog waits: nothing is typed into it),
 * `failed` (StopFailure, or the agent crashed), `interrupted` (the session ended, or the agent
 * went idle without ending the turn, e.g. Esc), `timeout`. The hook file is polled every
 * {@link POLL_MS}; the session's status (tmux, /proc) only every {@link STATUS_EVERY} polls.
 */
import type { Deps } from "../../base/deps.ts";
import {
  readTextInput,
  sanitizePasteText,
  type SendOptions,
  type SendResult,
  sendToSession,
} from "../drive/mod.ts";
import { capture, type CaptureOutcome } from "../capture/mod.ts";
import { locateSession, type SessionLocation } from "../session/mod.ts";
import { sessionStatus } from "../status/mod.ts";
import { lastAssistantText } from "../../agents/transcript.ts";
import { type BackgroundTask, tasksOf } from "../../agents/hooks.ts";
import { type TokenUsage, UsageReader } from "../../agents/usage.ts";
import { type FileCursor, readLinesFrom } from "../../store/line_cursor.ts";
import { LisaError, LockBusyError } from "../../base/errors.ts";
import { withLock } from "../../store/lock.ts";
import { beingKilled } from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";
import {
  isElicitation,
  lineKey,
  parseTurnRecord,
  promptMatches,
  type ToolUse,
  toolUseOf,
  triggerOf,
  turnEventKind,
  type TurnRecord,
} from "./records.ts";

/** Interval between reads of the hook file (the most `--wait` adds to a turn's real end). */
export const POLL_MS = 250;
/** The session's status is read every this many polls. */
export const STATUS_EVERY = 4;
/** Consecutive idle status reads (after the turn began) that end it as interrupted/completed. */
const IDLE_READS = 3;
/** Default of `--timeout-seconds` with `--wait`. */
export const DEFAULT_WAIT_TIMEOUT_SECONDS = 1800;

/** How a waited-for turn ended. */
export type TurnOutcome = "completed" | "permission" | "failed" | "interrupted" | "timeout";

/** Options of {@link sendAndWait}. */
export interface WaitOptions extends SendOptions {
  /** Give up after this many seconds (outcome `timeout`). */
  timeoutSeconds?: number;
}

/** `send --wait --json`. */
export interface WaitResult {
  ok: true;
  session: string;
  /** Id of the turn (the key of the hook line that started it; history uses the same id). */
  turnId: string | null;
  outcome: TurnOutcome;
  /** The agent's final message of the turn ("" when none). */
  reply: string;
  /** Set when `reply` is only the start of the message (cut to fit a hook line, no transcript). */
  replyCut?: true;
  /** From the turn's start (or the send) to its end, or to when waiting stopped. */
  durationMs: number;
  tools: ToolUse[];
  /** Set with `permission`: what the session waits for. */
  waitingFor?: string;
  /** Set with `failed`: what failed. */
  error?: string;
  /** What was sent. */
  sent: Omit<SendResult, "ok" | "session">;
  /** Where the answer came from: the agent's hooks or the screen. */
  source: "hooks" | "screen";
  /**
   * Work the turn started that runs on after it ended (claude's `background_tasks` of its Stop:
   * a Bash run in the background, a subagent), `[]` when none. The agent reports it with a turn
   * of its own (`trigger: "background"` in `session turns`) when it ends.
   */
  backgroundTasks: BackgroundTask[];
  /** The turn's tokens (from the agent's transcript or session log); null when not known. */
  usage: TokenUsage | null;
}

/** What the hook records after a send say so far (pure; fed line by line). */
export interface HookTurn {
  started: boolean;
  /**
   * Set when the followed turn began before the send (see {@link resumeOpenTurn}): a new
   * prompt after the send then starts the turn followed instead of interrupting it.
   */
  resumed: boolean;
  /**
   * Set while a resumed turn has shown no sign of taking the send's answer: permission lines
   * then still belong to the dialog it answered (claude's Notification follows its
   * PermissionRequest), not to a new one.
   */
  answerPending: boolean;
  turnId: string | null;
  startAtMs: number | null;
  tools: ToolUse[];
  permission: boolean;
  /** What the dialog the turn stopped at wants: `permission`, or `input` (an MCP elicitation). */
  waitingFor: "permission" | "input";
  /** The agent's id of the turn (claude `prompt_id`, codex `turn-id`), once a line says it. */
  promptId: string | null;
  end: {
    outcome: "completed" | "failed" | "interrupted";
    atMs: number | null;
    reply: string | null;
    replyCut: boolean;
    error: string | null;
    transcriptPath: string | null;
    /** The work in flight the ending line lists (claude's Stop), `[]` when none. */
    backgroundTasks: BackgroundTask[];
    /** codex's thread id (the notify's `thread-id`), for its session log. */
    threadId: string | null;
  } | null;
}

/** A tracker with nothing seen yet. */
export function newHookTurn(): HookTurn {
  return {
    started: false,
    resumed: false,
    answerPending: false,
    turnId: null,
    startAtMs: null,
    tools: [],
    permission: false,
    waitingFor: "permission",
    promptId: null,
    end: null,
  };
}

function atMs(r: TurnRecord): number | null {
  const t = typeof r.at === "string" ? Date.parse(r.at) : NaN;
  return Number.isNaN(t) ? null : t;
}

/**
 * Feeds one hook line written after the send into `turn` (see the module doc). `runId` is the
 * session's run; lines of other runs are ignored. `sent` is the sent text.
 */
export function feedHookLine(turn: HookTurn, line: string, runId: string, sent: string): void {
  if (turn.end !== null) return;
  const r = parseTurnRecord(line);
  if (r === null || r.runId !== runId) return;
  const kind = turnEventKind(r);
  if (!turn.started) {
    // The agent's own turn (it reports background work that ended) is never the send's.
    const own = kind === "start" && triggerOf(r) === "background";
    if (kind === "start" && !own && promptMatches(r.prompt ?? r.preview, sent)) {
      turn.started = true;
      turn.turnId = lineKey(line);
      turn.startAtMs = atMs(r);
      turn.promptId = r.promptId ?? null;
    } else if (r.event === "agent-turn-complete" && kind === "completed") {
      if (!promptMatches(r.prompt, sent)) return; // a turn that was running before the send
      turn.started = true;
      turn.turnId = lineKey(line);
      turn.promptId = r.promptId ?? null;
      turn.end = endOf(r, "completed");
    }
    return;
  }
  turn.promptId ??= r.promptId ?? null;
  if (kind === "start" && turn.resumed) {
    // Keys that resumed nothing typed a prompt of their own: that is the turn of this send.
    Object.assign(turn, newHookTurn());
    feedHookLine(turn, line, runId, sent);
    return;
  }
  if (turn.answerPending) {
    if (kind === "permission") return;
    turn.answerPending = false;
  }
  switch (kind) {
    case "tool": {
      turn.permission = false;
      const use = toolUseOf(r);
      if (use !== null) turn.tools.push(use);
      return;
    }
    case "permission":
      turn.permission = true;
      turn.waitingFor = isElicitation(r) ? "input" : "permission";
      return;
    case "completed":
      turn.end = endOf(r, "completed");
      return;
    case "failed":
      turn.end = endOf(r, "failed");
      return;
    case "interrupted":
    case "start":
    case "session_start":
    case "session_end":
      turn.end = endOf(r, "interrupted");
      return;
  }
}

/**
 * Takes up the turn that is open in `before` (the hook lines written before the send, oldest
 * first) when this send resumes it instead of starting one: when nothing is typed (`--keys` or
 * Enter alone: an answer to a dialog, an interrupt) or the open turn waits on a permission (an
 * answer typed with `--force`). Such a turn has no new `UserPromptSubmit` after the send; its
 * tools, its end and its reply come after it, under the id it had (the key of its start line).
 * The permission it waited on is answered by the send, so it no longer counts. Returns true
 * when a turn was taken up.
 */
export function resumeOpenTurn(
  turn: HookTurn,
  before: readonly string[],
  runId: string,
  sent: string,
): boolean {
  let open = -1;
  let waitsOnPermission = false;
  for (let i = 0; i < before.length; i++) {
    const r = parseTurnRecord(before[i]);
    if (r === null || r.runId !== runId) continue;
    switch (turnEventKind(r)) {
      case "start":
        open = i;
        waitsOnPermission = false;
        break;
      case "permission":
        waitsOnPermission = open >= 0;
        break;
      case "tool":
        waitsOnPermission = false;
        break;
      case "completed":
      case "failed":
      case "interrupted":
      case "session_start":
      case "session_end":
        open = -1;
        waitsOnPermission = false;
        break;
    }
  }
  if (open < 0 || (sent.trim() !== "" && !waitsOnPermission)) return false;
  // Fed as the start of the turn: "" matches any prompt.
  for (const line of before.slice(open)) feedHookLine(turn, line, runId, "");
  if (!turn.started || turn.end !== null) return false;
  turn.permission = false;
  turn.resumed = true;
  turn.answerPending = waitsOnPermission;
  return true;
}

function endOf(r: TurnRecord, outcome: "completed" | "failed" | "interrupted"): HookTurn["end"] {
  // lisa's own turn-end line says when the turn ended (its last sign), not when it was written.
  const ended = typeof r.endedAt === "string" ? Date.parse(r.endedAt) : NaN;
  return {
    outcome,
    atMs: Number.isNaN(ended) ? atMs(r) : ended,
    reply: outcome === "completed" ? r.reply ?? r.preview ?? null : null,
    replyCut: (r.cut ?? []).includes("reply") || (r.reply === undefined && r.preview != null),
    error: outcome === "failed" ? r.error ?? r.preview ?? "the turn failed" : null,
    transcriptPath: r.transcriptPath ?? null,
    backgroundTasks: r.event === "Stop" ? tasksOf(r) ?? [] : [],
    threadId: r.agent === "codex" ? r.agentSessionId ?? null : null,
  };
}

/** The tokens of the ended hook turn, from its agent's log (null when it does not tell). */
function usageOf(
  deps: Deps,
  turn: HookTurn,
  end: NonNullable<HookTurn["end"]>,
  agent: string | null,
): TokenUsage | null {
  return new UsageReader(deps.env).turnUsage({
    agent,
    promptId: turn.promptId,
    transcriptPath: end.transcriptPath,
    threadId: end.threadId,
    startMs: turn.startAtMs,
    endMs: end.atMs,
  });
}

/**
 * The reply of a completed hook turn, from claude's transcript when the line's was cut; `cut`
 * when what is returned is still only the start of the agent's message (codex has no
 * transcript to read it from).
 */
function replyOf(end: NonNullable<HookTurn["end"]>): { text: string; cut: boolean } {
  if ((end.replyCut || end.reply === null) && end.transcriptPath !== null) {
    const full = lastAssistantText(end.transcriptPath);
    if (full !== null) return { text: full, cut: false };
  }
  return { text: end.reply ?? "", cut: end.replyCut };
}

/** Most bytes of the hook file read back before a send, to find a turn it resumes. */
const RESUME_WINDOW_BYTES = 1_000_000;

/**
 * The hook file's newest lines now and the cursor after them (no lines and a null cursor when
 * it does not exist yet or cannot be read).
 */
function hookLinesNow(path: string): { lines: string[]; cursor: FileCursor | null } {
  try {
    const read = readLinesFrom(path, null, RESUME_WINDOW_BYTES);
    return read === null ? { lines: [], cursor: null } : { lines: read.lines, cursor: read.next };
  } catch {
    return { lines: [], cursor: null };
  }
}

/**
 * True when the turn is followed through hooks: they were injected at spawn (an agent session
 * whose hooks may not have fired yet still gets them before it reads the paste).
 */
function hooksInjected(loc: SessionLocation): boolean {
  return loc.meta !== undefined && loc.meta.hooks && loc.meta.commandOnly !== true;
}

/** Rows of a screen reply that are not the agent's: the echo of the sent text, a bare prompt. */
export function cleanScreenReply(text: string, sent: string): string {
  const sentRows = new Set(sent.split("\n").map((l) => l.trim()).filter((l) => l !== ""));
  const rows = text.split("\n").filter((row) => {
    const t = row.trim().replace(/^[>›❯$%#]\s*/, "");
    return !sentRows.has(t);
  });
  while (rows.length > 0 && /^\s*[>›❯$%#]?\s*$/.test(rows[rows.length - 1])) rows.pop();
  while (rows.length > 0 && rows[0].trim() === "") rows.shift();
  return rows.join("\n");
}

/** A status read reduced to what the waiter needs. */
interface StatusRead {
  state: string;
  waitingFor: string | null;
  exitCode: number | null;
}

async function readStatus(deps: Deps, options: WaitOptions): Promise<StatusRead> {
  const { report } = await sessionStatus(deps, {
    session: options.session,
    projectRoot: options.projectRoot,
  });
  return {
    state: report.sessionState,
    waitingFor: (report.waitingFor as string | null) ?? null,
    exitCode: report.exitCode,
  };
}

/** The outcome a gone or finished session gives the turn, or null while it lives. */
function endedBy(s: StatusRead): { outcome: TurnOutcome; error?: string } | null {
  if (s.state === "crashed") {
    return { outcome: "failed", error: `the agent exited with ${s.exitCode ?? "an error"}` };
  }
  if (s.state === "completed" || s.state === "not_found") return { outcome: "interrupted" };
  return null;
}

/**
 * True when the session is being killed ({@link beingKilled}) or already gone: kill's SIGTERM
 * lands before its `kill-session`, so for a moment the pane reads crashed by signal 15.
 */
async function killUnderway(w: TurnWait): Promise<boolean> {
  try {
    return await beingKilled(new Tmux(w.deps.runner, w.loc.socketPath), w.loc.session) !== false;
  } catch {
    return false;
  }
}

/**
 * Sends per `options` (Enter always pressed) and waits for the turn it started (module doc).
 * Throws what {@link sendToSession} throws; once the text is sent, it never throws for the
 * turn's sake: a gone session is the outcome `interrupted`.
 */
export async function sendAndWait(deps: Deps, options: WaitOptions): Promise<WaitResult> {
  const loc = await locateSession(deps, options.session, options.projectRoot);
  // Read the text once (stdin can be read only once) and pass it on as a value.
  const input = await readTextInput(deps, {
    value: options.text,
    file: options.textFile,
    valueFlag: "--text",
    fileFlag: "--text-file",
  });
  // One waiter per session: two waits started together would both take the first matching
  // turn as theirs (same text, same reply). The second is refused before it sends anything.
  // The lock is the wait's own: held for the whole turn, it must never be the hooks log's,
  // whose appends the agent's hooks (and so the agent) wait for.
  const lockPath = loc.paths.waitLock;
  try {
    return await withLock(lockPath, { timeoutMs: 0 }, () => waitTurn(deps, options, loc, input));
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    throw new LisaError(
      "turn_busy",
      `Another send --wait is waiting for a turn of session "${loc.session}"; nothing was sent`,
      { details: { session: loc.session } },
    );
  } finally {
    // No session, no lock file left behind for it (waits on a wrong name must not litter).
    if (loc.meta === undefined) {
      try {
        Deno.removeSync(lockPath);
      } catch { /* already gone */ }
    }
  }
}

/** One wait in progress: what it follows, and what it has seen so far. */
interface TurnWait {
  deps: Deps;
  options: WaitOptions;
  loc: SessionLocation;
  sentText: string;
  useHooks: boolean;
  runId: string;
  turn: HookTurn;
  cursor: FileCursor | null;
  /** The screen before the send (no hooks: the reply is what appeared since). */
  before: CaptureOutcome | null;
  sentAt: number;
  deadline: number;
  base: Pick<WaitResult, "ok" | "session" | "sent">;
  polls: number;
  idle: number;
  permissionReads: number;
  sawWork: boolean;
}

/** Reads what precedes the send (the hook file's end, or the screen), then sends. */
async function startWait(
  deps: Deps,
  options: WaitOptions,
  loc: SessionLocation,
  input: string | undefined,
): Promise<TurnWait> {
  const timeoutMs = (options.timeoutSeconds ?? DEFAULT_WAIT_TIMEOUT_SECONDS) * 1000;
  const sentText = sanitizePasteText(input ?? "").text;
  const useHooks = hooksInjected(loc);
  const runId = loc.meta?.runId ?? "";
  const turn = newHookTurn();
  let cursor: FileCursor | null = null;
  if (useHooks) {
    const before = hookLinesNow(loc.paths.hooks);
    cursor = before.cursor;
    resumeOpenTurn(turn, before.lines, runId, sentText);
  }
  // The full name from here on: an alias prefix another spawn makes ambiguous stays this one.
  const before = useHooks ? null : await capture(deps, {
    session: loc.session,
    projectRoot: options.projectRoot,
    raw: true,
  });
  const sentResult = await sendToSession(deps, {
    ...options,
    text: input ?? undefined,
    textFile: undefined,
    enter: true,
  });
  const sentAt = deps.now().getTime();
  const { ok: _ok, session: _s, ...sent } = sentResult;
  return {
    deps,
    options,
    loc,
    sentText,
    useHooks,
    runId,
    turn,
    cursor,
    before,
    sentAt,
    deadline: sentAt + timeoutMs,
    base: { ok: true as const, session: loc.session, sent },
    polls: 0,
    idle: 0,
    permissionReads: 0,
    sawWork: false,
  };
}

/** Milliseconds since the send. */
function elapsed(w: TurnWait): number {
  return w.deps.now().getTime() - w.sentAt;
}

/** The answer that ends the wait without a reply (`outcome`, from `source`). */
function noReply(
  w: TurnWait,
  outcome: TurnOutcome,
  source: "hooks" | "screen",
  extra: { error?: string; waitingFor?: string } = {},
): WaitResult {
  return {
    ...w.base,
    turnId: w.turn.turnId,
    outcome,
    reply: "",
    durationMs: elapsed(w),
    tools: w.turn.tools,
    ...extra,
    source,
    backgroundTasks: [],
    usage: null,
  };
}

/**
 * A dialog waits: nothing is typed into it, the caller (or a person) answers it. `waitingFor`:
 * `input` for an MCP elicitation the hooks reported, else `permission`.
 */
function atPermission(
  w: TurnWait,
  source: "hooks" | "screen",
  waitingFor: "permission" | "input" = "permission",
): WaitResult {
  return noReply(w, "permission", source, { waitingFor });
}

/** Feeds the hook lines written since the last read; the answer once they end the turn. */
function readHooks(w: TurnWait): WaitResult | null {
  const read = (() => {
    try {
      return readLinesFrom(w.loc.paths.hooks, w.cursor);
    } catch {
      return null;
    }
  })();
  if (read !== null) {
    // A compacted file is read again: keep only lines written after the send.
    const lines = read.reset
      ? read.lines.filter((l) => (atMs(parseTurnRecord(l) ?? {}) ?? 0) >= w.sentAt - 1000)
      : read.lines;
    w.cursor = read.next;
    for (const line of lines) feedHookLine(w.turn, line, w.runId, w.sentText);
    // The agent did something since the send: should it then sit idle without a line of the
    // sent turn (its prompt never matched), the wait ends as interrupted, not at the timeout.
    if (lines.length > 0) w.sawWork = true;
  }
  const end = w.turn.end;
  if (end !== null) {
    const startMs = w.turn.startAtMs ?? w.sentAt;
    const reply = end.outcome === "completed" ? replyOf(end) : { text: "", cut: false };
    return {
      ...w.base,
      turnId: w.turn.turnId,
      outcome: end.outcome,
      reply: reply.text,
      ...(reply.cut ? { replyCut: true as const } : {}),
      durationMs: Math.max(0, (end.atMs ?? w.deps.now().getTime()) - startMs),
      tools: w.turn.tools,
      ...(end.error !== null ? { error: end.error } : {}),
      source: "hooks",
      backgroundTasks: end.backgroundTasks,
      usage: usageOf(w.deps, w.turn, end, w.loc.meta?.agent ?? null),
    };
  }
  return w.turn.permission ? atPermission(w, "hooks", w.turn.waitingFor) : null;
}

/**
 * What the session's status says of the turn: the answer when the session ended or shows a
 * dialog of this turn, then what the screen (no hooks) or idleness (hooks) says; else null.
 */
async function readTurnStatus(w: TurnWait): Promise<WaitResult | null> {
  let status: StatusRead | null = null;
  try {
    status = await readStatus(w.deps, { ...w.options, session: w.loc.session });
  } catch {
    status = null;
  }
  if (status === null) return null;
  const source = w.useHooks ? "hooks" : "screen";
  const ended = status.state === "crashed" && await killUnderway(w)
    ? { outcome: "interrupted" as const }
    : endedBy(status);
  const waiting = status.state === "waiting_input";
  if (status.state === "in_progress") w.sawWork = true;
  if (ended !== null && (w.useHooks || status.state !== "completed")) {
    return noReply(w, ended.outcome, source, ended.error ? { error: ended.error } : {});
  }
  const asks = waiting && status.waitingFor === "permission" && (w.turn.started || w.sawWork);
  // A resumed turn was waiting on the dialog this send answers: until the agent has taken
  // the answer, status may still see that dialog (or its hook). Only a dialog that stays
  // for IDLE_READS reads without a sign of the answer is one it waits on now.
  w.permissionReads = asks ? w.permissionReads + 1 : 0;
  if (asks && (!w.turn.answerPending || w.permissionReads >= IDLE_READS)) {
    return atPermission(w, source);
  }
  if (!w.useHooks && w.before !== null) return await screenTurnEnd(w, status, w.before);
  // Hooks: the agent went idle after working, without a line ending the turn (an Esc
  // interrupt fires no hook).
  if (status.state === "in_progress") w.sawWork = true;
  w.idle = waiting && status.waitingFor !== "permission" && (w.turn.started || w.sawWork)
    ? w.idle + 1
    : 0;
  return w.idle >= IDLE_READS ? noReply(w, "interrupted", "hooks") : null;
}

/** Without hooks: the turn ends once the screen changed and then stayed quiet. */
async function screenTurnEnd(
  w: TurnWait,
  status: StatusRead,
  before: CaptureOutcome,
): Promise<WaitResult | null> {
  const after = await capture(w.deps, {
    session: w.loc.session,
    projectRoot: w.options.projectRoot,
    deltaFrom: before.nextOffset,
    raw: true,
  }).catch(() => null);
  const text = after === null
    ? ""
    : [after.capture, after.live ?? ""].filter((t) => t !== "").join("\n");
  const changed = cleanScreenReply(text, w.sentText) !== "";
  if (changed) w.sawWork = true;
  // A command without an agent process reads as stuck once quiet: idle as well.
  const quiet = status.state === "waiting_input" || status.state === "stuck" ||
    status.state === "completed";
  w.idle = quiet && w.sawWork ? w.idle + 1 : 0;
  // A command that exited has ended the turn, whether or not it printed anything.
  if (w.idle < 2 && status.state !== "completed") return null;
  return {
    ...w.base,
    turnId: lineKey(`${w.loc.session}:${w.sentAt}`),
    outcome: "completed",
    reply: cleanScreenReply(text, w.sentText),
    durationMs: elapsed(w),
    tools: [],
    source: "screen",
    backgroundTasks: [],
    usage: null,
  };
}

/** How long a claude turn's end waits for its transcript to hold its last message. */
const USAGE_SETTLE_MS = 1000;

/**
 * claude at times writes its transcript a moment after its Stop hook: the turn's last message,
 * and its tokens, were not there yet (the real-agent tier counted one request of two). When the
 * transcript's last reply is not yet the Stop's, waits for it (1 s at most); then reads the
 * tokens again.
 */
async function settledUsage(w: TurnWait, result: WaitResult): Promise<WaitResult> {
  const end = w.turn.end;
  const want = end?.reply?.trim() ?? "";
  if (
    end === null || end.outcome !== "completed" || end.transcriptPath === null || want === "" ||
    w.loc.meta?.agent !== "claude"
  ) return result;
  const path = end.transcriptPath;
  const written = () => (lastAssistantText(path)?.trim() ?? "").startsWith(want);
  const deadline = w.deps.now().getTime() + USAGE_SETTLE_MS;
  while (!written() && w.deps.now().getTime() < deadline) await w.deps.sleep(50);
  // Read again in any case: the first reading may have come before the message it now shows.
  return { ...result, usage: usageOf(w.deps, w.turn, end, "claude") };
}

/** Sends, then polls the hooks (every poll) and the status (every few) until the turn ends. */
async function waitTurn(
  deps: Deps,
  options: WaitOptions,
  loc: SessionLocation,
  input: string | undefined,
): Promise<WaitResult> {
  const w = await startWait(deps, options, loc, input);
  while (true) {
    const fromHooks = w.useHooks ? readHooks(w) : null;
    if (fromHooks !== null) return await settledUsage(w, fromHooks);
    if (deps.now().getTime() >= w.deadline) {
      return noReply(w, "timeout", w.useHooks ? "hooks" : "screen");
    }
    if (w.polls % STATUS_EVERY === STATUS_EVERY - 1 || (!w.useHooks && w.polls % 2 === 1)) {
      const fromStatus = await readTurnStatus(w);
      if (fromStatus !== null) return fromStatus;
    }
    w.polls++;
    await deps.sleep(Math.max(0, Math.min(POLL_MS, w.deadline - deps.now().getTime())));
  }
}
