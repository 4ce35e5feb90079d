/**
 * Ingestion: a session's runtime files (meta, hook sidecar, event log, done file) into the
 * history store, incrementally and idempotently.
 *
 * - Incremental: each file is read from a byte cursor stored in the database; a file compacted
 *   or replaced since is read again whole.
 * - Idempotent: every line is applied at most once (its key is recorded in `seen_lines` in the
 *   same transaction that applies it); turns, tools and plans have unique keys too. Running it
 *   twice, or from several processes at once, adds nothing twice: each session is one
 *   `BEGIN IMMEDIATE` transaction, which reads the cursor it then advances.
 * - Crash-safe: a crash before COMMIT leaves the cursor and the lines where they were.
 *
 * Turn model (seed 002's prompt batch), from hook records: `UserPromptSubmit` opens a turn
 * (closing a turn still open as interrupted); `PostToolUse` adds a tool to the open turn;
 * a permission request marks it waiting; `Stop` / `agent-turn-complete` closes it completed
 * with the reply (codex has no start hook: its turn is recorded whole at its end);
 * `StopFailure` closes it failed; a new `SessionStart` or `SessionEnd` closes it interrupted;
 * lisa's own `lisa:turn_end` (status decided a turn ended without its hook) closes it as it says,
 * `recovered`, at the turn's last sign (a late `Stop` then completes it).
 *
 * A turn claude opens itself when background work it started ends (its prompt is a
 * `<task-notification>`), or a claude `Stop` with no turn open, is a turn of its own with
 * `started_by` `background`. A turn that ends gets its tokens from the agent's transcript or
 * session log (`src/agents/usage.ts`; null when they do not tell), each log read once per
 * ingestion.
 */
import type { Deps } from "../../base/deps.ts";
import type { SessionMeta } from "../../base/types.ts";
import { baseName } from "../../base/paths.ts";
import { type FileCursor, MAX_READ_BYTES, readLinesFrom } from "../../store/line_cursor.ts";
import { markRead, readMark } from "../../store/events.ts";
import { type SessionPaths, sessionPaths } from "../../store/runtime_dir.ts";
import { normalizeMeta } from "../../store/session_store.ts";
import { tryReadMeta } from "../session/mod.ts";
import { lastAssistantText } from "../../agents/transcript.ts";
import { LISA_TURN_END } from "../../agents/hooks.ts";
import {
  isElicitation,
  lineKey,
  parseTurnRecord,
  toolUseOf,
  triggerOf,
  turnEventKind,
  type TurnRecord,
} from "../turns/mod.ts";
import type { Env } from "../../base/config.ts";
import { UsageReader } from "../../agents/usage.ts";
import type { History, SqlValue } from "./store.ts";

/** Where a session's files are. */
export interface SessionFiles {
  runtimeDir: string;
  hash: string;
  session: string;
}

/** What one ingestion added. */
export interface IngestCounts {
  sessions: number;
  lines: number;
  turns: number;
  tools: number;
}

/** Longest plan file read, in bytes. */
const PLAN_MAX_BYTES = 256 * 1024;

function row<T>(v: Record<string, unknown> | undefined, key: string): T | undefined {
  return v === undefined ? undefined : v[key] as T;
}

/** The id of session (name, runId), created when new. */
function sessionId(h: History, name: string, runId: string): number {
  h.db.prepare("INSERT OR IGNORE INTO sessions (name, run_id) VALUES (?, ?)").run(name, runId);
  return Number(
    row(
      h.db.prepare("SELECT id FROM sessions WHERE name = ? AND run_id = ?").get(name, runId),
      "id",
    ),
  );
}

/** The newest session row of `name` (for lines without a run id). */
function latestSessionId(h: History, name: string): number | null {
  const r = h.db.prepare("SELECT id FROM sessions WHERE name = ? ORDER BY id DESC LIMIT 1").get(
    name,
  );
  return r === undefined ? null : Number(r.id);
}

/**
 * Copies meta facts into the session row. A fact the meta lacks (`readMeta` leaves out fields of
 * another type: an older, foreign or damaged meta) keeps the value already known: SQLite cannot
 * bind `undefined`, so each is bound as null.
 */
function applyMeta(h: History, id: number, meta: SessionMeta): void {
  h.db.prepare(
    `UPDATE sessions SET
      alias = COALESCE(?, alias), agent = COALESCE(?, agent), mode = COALESCE(?, mode),
      project_root = COALESCE(?, project_root), project_hash = COALESCE(?, project_hash),
      socket_path = COALESCE(?, socket_path), parent = COALESCE(?, parent),
      agent_session_id = COALESCE(?, agent_session_id), prompt = COALESCE(?, prompt),
      started_at = COALESCE(started_at, ?)
    WHERE id = ?`,
  ).run(
    meta.alias ?? null,
    meta.commandOnly ? "command" : meta.agent ?? null,
    meta.mode ?? null,
    meta.projectRoot ?? null,
    meta.projectHash ?? null,
    meta.socketPath ?? null,
    meta.parentSession ?? null,
    meta.agentSessionId ?? null,
    meta.prompt ?? null,
    meta.createdAt ?? null,
    id,
  );
}

/** Marks `key` seen for session `id`; false when it already was (the line is skipped). */
function firstSight(h: History, id: number, key: string): boolean {
  const r = h.db.prepare("INSERT OR IGNORE INTO seen_lines (session_id, line_key) VALUES (?, ?)")
    .run(id, key);
  return Number(r.changes) > 0;
}

function readCursor(h: History, path: string): FileCursor | null {
  const r = h.db.prepare("SELECT ino, offset FROM cursors WHERE path = ?").get(path);
  if (r === undefined) return null;
  return { ino: r.ino === null ? null : Number(r.ino), offset: Number(r.offset) };
}

function saveCursor(h: History, path: string, cursor: FileCursor): void {
  h.db.prepare(
    "INSERT INTO cursors (path, ino, offset) VALUES (?, ?, ?) " +
      "ON CONFLICT (path) DO UPDATE SET ino = excluded.ino, offset = excluded.offset",
  ).run(path, cursor.ino, cursor.offset);
}

/** The open (running) turn of session `id`, if any. */
function openTurn(h: History, id: number): { id: number } | null {
  const r = h.db.prepare(
    "SELECT id FROM turns WHERE session_id = ? AND outcome = 'running' ORDER BY seq DESC LIMIT 1",
  ).get(id);
  return r === undefined ? null : { id: Number(r.id) };
}

function nextSeq(h: History, id: number): number {
  return Number(
    row(
      h.db.prepare("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM turns WHERE session_id = ?")
        .get(id),
      "n",
    ),
  );
}

function closeTurn(
  h: History,
  turnId: number,
  outcome: string,
  at: string | null,
  fields: { reply?: string | null; error?: string | null; recovered?: boolean } = {},
): void {
  h.db.prepare(
    `UPDATE turns SET outcome = ?, ended_at = COALESCE(?, last_activity_at), waiting_for = NULL,
      reply = COALESCE(?, reply), error = COALESCE(?, error),
      recovered = CASE WHEN ? THEN 1 ELSE recovered END
    WHERE id = ?`,
  ).run(
    outcome,
    at,
    fields.reply ?? null,
    fields.error ?? null,
    fields.recovered ? 1 : 0,
    turnId,
  );
}

/** The reply of an ending record: its own text, or claude's transcript when it was cut. */
function replyOf(r: TurnRecord): string | null {
  const cut = (r.cut ?? []).includes("reply") || (r.reply === undefined && r.preview != null);
  if (cut && typeof r.transcriptPath === "string") {
    const full = lastAssistantText(r.transcriptPath);
    if (full !== null) return full;
  }
  return r.reply ?? r.preview ?? null;
}

/** Reads a plan file (bounded, no symlinks); null when it cannot be read. */
function readPlan(path: string): string | null {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile || info.size > PLAN_MAX_BYTES) return null;
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** Records a plan of the open turn: seed 002's capture (one row per plan file, updated). */
function capturePlan(h: History, id: number, turnId: number | null, r: TurnRecord): void {
  const path = r.planPath ?? (r.plan !== undefined ? `ExitPlanMode:${r.at ?? ""}` : null);
  if (path === null) return;
  const fromFile = r.planPath !== undefined ? readPlan(r.planPath) : null;
  const content = fromFile ?? r.plan ?? null;
  h.db.prepare(
    `INSERT INTO plans (session_id, turn_id, path, content, captured_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (session_id, path) DO UPDATE SET
       content = COALESCE(excluded.content, content), turn_id = COALESCE(excluded.turn_id, turn_id),
       captured_at = excluded.captured_at`,
  ).run(id, turnId, path, content, r.at ?? null);
}

/**
 * Stores the tokens of turn `turnId` (just ended by record `r`) when its agent's log tells
 * them; the turn's prompt id is the one its lines gave (or, first, the ending record's).
 */
function fillUsage(h: History, usage: UsageReader, turnId: number, r: TurnRecord): void {
  h.db.prepare("UPDATE turns SET prompt_id = COALESCE(prompt_id, ?) WHERE id = ?")
    .run(r.promptId ?? null, turnId);
  const t = h.db.prepare(
    `SELECT t.prompt_id, t.started_at, t.ended_at, s.agent, s.transcript_path,
      s.agent_session_id FROM turns t JOIN sessions s ON s.id = t.session_id WHERE t.id = ?`,
  ).get(turnId);
  if (t === undefined) return;
  const ms = (v: unknown) => {
    const n = typeof v === "string" ? Date.parse(v) : NaN;
    return Number.isNaN(n) ? null : n;
  };
  const agent = typeof t.agent === "string" ? t.agent : r.agent ?? null;
  const u = usage.turnUsage({
    agent,
    promptId: typeof t.prompt_id === "string" ? t.prompt_id : null,
    transcriptPath: r.transcriptPath ??
      (typeof t.transcript_path === "string" ? t.transcript_path : null),
    threadId: r.agentSessionId ??
      (typeof t.agent_session_id === "string" ? t.agent_session_id : null),
    startMs: ms(t.started_at),
    endMs: ms(t.ended_at),
  });
  if (u === null) return;
  h.db.prepare(
    `UPDATE turns SET input_tokens = ?, output_tokens = ?, cache_read_tokens = ?,
      cache_write_tokens = ? WHERE id = ?`,
  ).run(u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens, turnId);
}

/** Applies one hook record of session `id` (module doc); returns turns and tools added. */
function applyHook(
  h: History,
  id: number,
  r: TurnRecord,
  key: string,
  usage: UsageReader,
): { turns: number; tools: number } {
  const at = typeof r.at === "string" ? r.at : null;
  // lisa's own end of a turn that ended without its hook (status decided it): the turn ends
  // when its last sign came, and stays open to a late Stop (recovered).
  const inferred = r.event === LISA_TURN_END;
  const endAt = inferred && typeof r.endedAt === "string" ? r.endedAt : at;
  h.db.prepare(
    `UPDATE sessions SET last_activity_at = MAX(COALESCE(last_activity_at, ''), COALESCE(?, '')),
      agent_session_id = COALESCE(agent_session_id, ?),
      transcript_path = COALESCE(?, transcript_path)
    WHERE id = ?`,
  ).run(endAt, r.agentSessionId ?? null, r.transcriptPath ?? null, id);
  const c: HookLine = {
    h,
    id,
    r,
    key,
    at,
    endAt,
    inferred,
    open: openTurn(h, id),
    added: { turns: 0, tools: 0 },
    usage,
  };
  const open = c.open;
  switch (turnEventKind(r)) {
    case "start":
      // A turn still open when the next prompt comes ended silently, at its last sign (the next
      // prompt may come much later).
      if (open) endTurn(c, open.id, "interrupted", null);
      insertTurn(c, "running", {
        prompt: r.prompt ?? r.preview ?? null,
        started_at: at,
        started_by: triggerOf(r),
      });
      break;
    case "tool":
      applyTool(c);
      break;
    case "permission":
      // An MCP server's request (Elicitation) waits for the person's input, not an approval.
      if (open) touchTurn(c, open.id, isElicitation(r) ? "input" : "permission");
      break;
    case "completed":
      applyCompleted(c);
      break;
    case "interrupted":
      if (open) endTurn(c, open.id, "interrupted", endAt, { recovered: true });
      break;
    case "failed": {
      const error = r.error ?? r.preview ?? "the turn failed";
      if (open) endTurn(c, open.id, "failed", at, { error });
      else insertTurn(c, "failed", { error, ended_at: at });
      break;
    }
    case "session_start":
      if (open) endTurn(c, open.id, "interrupted", null);
      break;
    case "session_end":
      // The agent ended (an exit, a kill) during the turn: it ran until then.
      if (open) endTurn(c, open.id, "interrupted", at);
      break;
    case "other":
      // Any line of the run while a turn is open is a sign of it (a turn that is later
      // interrupted ends at its last sign, not at its start).
      if (open) markActive(c, open.id);
      break;
  }
  return c.added;
}

/** One hook line being applied to session `id`'s turns, and what it added. */
interface HookLine {
  h: History;
  id: number;
  r: TurnRecord;
  key: string;
  at: string | null;
  /** When the turn the line ends ended (lisa's inferred end: the turn's last sign). */
  endAt: string | null;
  /** The line is lisa's own end of a turn (`LISA_TURN_END`), not the agent's. */
  inferred: boolean;
  open: ReturnType<typeof openTurn>;
  added: { turns: number; tools: number };
  /** Reads the tokens of the turns the line ends from their agents' logs. */
  usage: UsageReader;
}

/** Closes turn `turnId` (see {@link closeTurn}) and stores its tokens when its agent tells them. */
function endTurn(
  c: HookLine,
  turnId: number,
  outcome: string,
  at: string | null,
  fields: Parameters<typeof closeTurn>[4] = {},
): void {
  closeTurn(c.h, turnId, outcome, at, fields);
  fillUsage(c.h, c.usage, turnId, c.r);
}

/** Marks turn `turnId` active at the line's time (what it waits for unchanged). */
function markActive(c: HookLine, turnId: number): void {
  c.h.db.prepare("UPDATE turns SET last_activity_at = COALESCE(?, last_activity_at) WHERE id = ?")
    .run(c.at, turnId);
}

/** Marks turn `turnId` active now, waiting for `waitingFor` (null: for nothing). */
function touchTurn(c: HookLine, turnId: number, waitingFor: string | null): void {
  c.h.db.prepare(
    "UPDATE turns SET last_activity_at = COALESCE(?, last_activity_at), waiting_for = ? " +
      "WHERE id = ?",
  ).run(c.at, waitingFor, turnId);
}

/** Inserts the line's turn (keyed by the line: a line read twice adds nothing). */
function insertTurn(c: HookLine, outcome: string, fields: Record<string, SqlValue>): void {
  const ins = c.h.db.prepare(
    `INSERT OR IGNORE INTO turns (session_id, turn_key, seq, prompt, reply, error, outcome,
      started_at, ended_at, last_activity_at, started_by, prompt_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    c.id,
    c.key,
    nextSeq(c.h, c.id),
    fields.prompt ?? null,
    fields.reply ?? null,
    fields.error ?? null,
    outcome,
    fields.started_at ?? null,
    fields.ended_at ?? null,
    c.at,
    fields.started_by ?? "prompt",
    c.r.promptId ?? null,
  );
  c.added.turns++;
  // A turn known only at its end (codex; claude's own turn without a start) has its tokens now.
  if (outcome !== "running" && Number(ins.changes) > 0) {
    fillUsage(c.h, c.usage, Number(ins.lastInsertRowid), c.r);
  }
}

/** A tool the agent ran: recorded with the open turn (and its plan, when it wrote one). */
function applyTool(c: HookLine): void {
  const use = toolUseOf(c.r);
  if (use === null) return;
  const turnId = c.open?.id ?? null;
  const ins = c.h.db.prepare(
    `INSERT OR IGNORE INTO tools (session_id, turn_id, line_key, tool, input, duration_ms, at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(c.id, turnId, c.key, use.tool, use.input, use.durationMs, use.at);
  c.added.tools += Number(ins.changes);
  if (turnId !== null) touchTurn(c, turnId, null);
  if (c.r.plan !== undefined || c.r.planPath !== undefined) capturePlan(c.h, c.id, turnId, c.r);
}

/** A turn's end: closes the open turn, completes a swept one, or (codex) adds the whole turn. */
function applyCompleted(c: HookLine): void {
  const { h, id, r, at } = c;
  const reply = replyOf(r);
  if (c.open) {
    endTurn(c, c.open.id, "completed", c.endAt, { reply, recovered: c.inferred });
    return;
  }
  if (c.inferred) return; // the turn it ends is closed already
  // A turn closed without its hook (a sweep, or status deciding a long silent tool call was
  // its end): its real end completes it, with the agent's own reply.
  const swept = h.db.prepare(
    `SELECT id FROM turns WHERE session_id = ? AND recovered = 1
      AND outcome IN ('interrupted', 'completed')
      AND seq = (SELECT MAX(seq) FROM turns WHERE session_id = ?)`,
  ).get(id, id);
  if (swept !== undefined && r.event === "Stop") {
    endTurn(c, Number(swept.id), "completed", at, { reply });
    return;
  }
  // codex: the whole turn is known only at its end. A claude Stop with no turn open ends a turn
  // the agent took on its own (it reports background work without a prompt hook).
  insertTurn(c, "completed", {
    prompt: r.prompt ?? null,
    reply,
    ended_at: at,
    started_by: r.event === "Stop" ? "background" : "prompt",
  });
}

/** Applies one event-log record of session `name`. */
function applyEvent(h: History, id: number, e: Record<string, unknown>): void {
  const at = typeof e.at === "string" ? e.at : null;
  const state = typeof e.state === "string" ? e.state : null;
  const reason = typeof e.reason === "string" ? e.reason : null;
  if (e.type === "lifecycle" && reason === "spawn_success") {
    h.db.prepare(
      `UPDATE sessions SET started_at = COALESCE(started_at, ?), agent = COALESCE(agent, ?),
        mode = COALESCE(mode, ?), parent = COALESCE(parent, ?) WHERE id = ?`,
    ).run(
      at,
      typeof e.agent === "string" ? e.agent : null,
      typeof e.mode === "string" ? e.mode : null,
      typeof e.parentSession === "string" ? e.parentSession : null,
      id,
    );
  } else if (e.type === "lifecycle" && (reason === "killed" || reason === "kill_not_found")) {
    // A kill that could not record history kept the files, and wrote the meta's facts here.
    if (typeof e.meta === "object" && e.meta !== null && !Array.isArray(e.meta)) {
      applyMeta(h, id, normalizeMeta(e.meta as Record<string, unknown>));
    }
    h.db.prepare(
      `UPDATE sessions SET ended_at = COALESCE(ended_at, ?),
        final_state = COALESCE(final_state, 'killed'), end_reason = COALESCE(end_reason, ?)
      WHERE id = ?`,
    ).run(at, reason, id);
  } else if (state !== null && (e.type === "transition" || e.type === "snapshot")) {
    h.db.prepare(
      `UPDATE sessions SET last_state = ?,
        last_activity_at = CASE WHEN ? = 'in_progress'
          THEN MAX(COALESCE(last_activity_at, ''), COALESCE(?, '')) ELSE last_activity_at END
      WHERE id = ?`,
    ).run(state, state, at, id);
  }
}

/** The done file's run and exit code, or null. */
function readDone(path: string): { runId: string; exitCode: number; at: string | null } | null {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile) return null;
    const m = /^(.*):(\d+)\s*$/.exec(Deno.readTextFileSync(path).trim());
    return m
      ? { runId: m[1], exitCode: Number(m[2]), at: info.mtime?.toISOString() ?? null }
      : null;
  } catch {
    return null;
  }
}

/**
 * Reads every line of `path` after the stored cursor, oldest first, in bounded chunks (none
 * when it is missing or unsafe): a log that kept its unread lines may be larger than one read.
 */
function newLines(
  h: History,
  path: string,
  mark: FileCursor | null = null,
): { lines: string[]; next: FileCursor } | null {
  const lines: string[] = [];
  let cursor = readCursor(h, path);
  // A compaction replaces the log by a new file, and the file system may give the new file the
  // old one's inode number: the stored cursor then looks valid for a file it was never taken on,
  // and reading from its offset skipped unread lines (turns vanished). The log's read mark
  // follows each compaction: never start past it on that inode (lines read twice are skipped by
  // their keys).
  if (mark !== null && cursor !== null && mark.ino === cursor.ino && mark.offset < cursor.offset) {
    cursor = mark;
  }
  try {
    while (true) {
      const read = readLinesFrom(path, cursor, MAX_READ_BYTES, true);
      if (read === null) {
        return cursor === null || lines.length === 0 ? null : { lines, next: cursor };
      }
      lines.push(...read.lines);
      const stuck = cursor !== null && read.next.ino === cursor.ino &&
        read.next.offset === cursor.offset;
      cursor = read.next;
      if (!read.more || stuck) return { lines, next: cursor };
    }
  } catch {
    return lines.length === 0 || cursor === null ? null : { lines, next: cursor };
  }
}

/**
 * Forgets the read cursors of a session's files that are about to be removed (after a last
 * {@link ingestSession}): a new run spawned under the same name writes files at the same paths,
 * often on the same inode, and must be read from their start, not from the old run's offset.
 * Lines read again (the event log outlives a kill) are skipped by their keys.
 */
export function forgetCursors(h: History, files: SessionFiles): void {
  const paths = sessionPaths(files.runtimeDir, files.hash, files.session);
  h.write(() => {
    const forget = h.db.prepare("DELETE FROM cursors WHERE path = ?");
    for (const path of [paths.hooks, paths.events, `fingerprint:${paths.meta}`]) forget.run(path);
  });
}

/**
 * Ingests one session's files (module doc), in one write transaction. Returns what it added.
 * Throws the store's errors (`history_busy`, `history_error`).
 */
export function ingestSession(
  h: History,
  files: SessionFiles,
  seen?: IngestScan,
  env: Env = {},
): IngestCounts {
  const paths = sessionPaths(files.runtimeDir, files.hash, files.session);
  const counts: IngestCounts = { sessions: 0, lines: 0, turns: 0, tools: 0 };
  // Nothing changed since the last ingestion (same inode, size and mtime of every file): no
  // write transaction at all, so a read of a large history stays cheap.
  const fingerprint = [paths.meta, paths.events, paths.hooks, paths.done]
    .map((p) => statKey(p, seen?.present)).join("|");
  const fpKey = `fingerprint:${paths.meta}`;
  const known = seen !== undefined
    ? seen.fingerprints.get(fpKey)
    : h.db.prepare("SELECT fingerprint FROM cursors WHERE path = ?").get(fpKey)?.fingerprint;
  if (known === fingerprint) return counts;
  let hooksRead: FileCursor | null = null;
  h.write(() => {
    h.db.prepare(
      "INSERT INTO cursors (path, offset, fingerprint) VALUES (?, 0, ?) " +
        "ON CONFLICT (path) DO UPDATE SET fingerprint = excluded.fingerprint",
    ).run(fpKey, fingerprint);
    const meta = tryReadMeta(paths.meta);
    const before = Number(row(h.db.prepare("SELECT COUNT(*) AS n FROM sessions").get(), "n"));
    // A meta without a run id names no run: its session's lines still arrive with theirs.
    if (meta?.runId) {
      applyMeta(h, sessionId(h, files.session, meta.runId), meta);
    }
    ingestEvents(h, files, paths, counts);
    // Each agent log is read once for all the turns this ingestion ends.
    const usage = seen?.usage ?? new UsageReader(env);
    hooksRead = ingestHooks(h, files, paths, counts, usage);
    applyDone(h, files.session, paths);
    const after = Number(row(h.db.prepare("SELECT COUNT(*) AS n FROM sessions").get(), "n"));
    counts.sessions = after - before;
  });
  // Stored for good: the hook log may now drop what was read (it keeps every unread line).
  if (hooksRead !== null) markRead(paths.hooks, hooksRead);
  return counts;
}

/** `id` once its session row carries the project hash (rows made from a line lack it). */
function withHash<T extends number | null>(h: History, files: SessionFiles, id: T): T {
  if (id !== null) {
    h.db.prepare("UPDATE sessions SET project_hash = COALESCE(project_hash, ?) WHERE id = ?")
      .run(files.hash, id);
  }
  return id;
}

/** The event log's new lines, each applied once to the run it names (else the latest run). */
function ingestEvents(
  h: History,
  files: SessionFiles,
  paths: SessionPaths,
  counts: IngestCounts,
): void {
  const events = newLines(h, paths.events);
  if (events === null) return;
  for (const line of events.lines) {
    const e = parseTurnRecord(line) as Record<string, unknown> | null;
    if (e === null) continue;
    const runId = e.runId;
    const id = withHash(
      h,
      files,
      typeof runId === "string" && runId !== ""
        ? sessionId(h, files.session, runId)
        : latestSessionId(h, files.session),
    );
    if (id === null || !firstSight(h, id, lineKey(line))) continue;
    counts.lines++;
    applyEvent(h, id, e);
  }
  saveCursor(h, paths.events, events.next);
}

/** The hook log's new lines, each applied once to its run; where the read ended (null: none). */
function ingestHooks(
  h: History,
  files: SessionFiles,
  paths: SessionPaths,
  counts: IngestCounts,
  usage: UsageReader,
): FileCursor | null {
  const hooks = newLines(h, paths.hooks, readMark(paths.hooks));
  if (hooks === null) return null;
  for (const line of hooks.lines) {
    const r = parseTurnRecord(line);
    if (r === null || typeof r.runId !== "string" || r.runId === "") continue;
    const id = withHash(h, files, sessionId(h, files.session, r.runId));
    const key = lineKey(line);
    if (!firstSight(h, id, key)) continue;
    counts.lines++;
    const added = applyHook(h, id, r, key, usage);
    counts.turns += added.turns;
    counts.tools += added.tools;
  }
  saveCursor(h, paths.hooks, hooks.next);
  return hooks.next;
}

/** The done file's exit ends its run (unless something ended it first). */
function applyDone(h: History, session: string, paths: SessionPaths): void {
  const done = readDone(paths.done);
  if (done === null) return;
  h.db.prepare(
    `UPDATE sessions SET exit_code = ?, ended_at = COALESCE(ended_at, ?),
      final_state = COALESCE(final_state, ?), end_reason = COALESCE(end_reason, 'exited')
    WHERE name = ? AND run_id = ?`,
  ).run(
    done.exitCode,
    done.at,
    done.exitCode === 0 ? "completed" : "crashed",
    session,
    done.runId,
  );
}

/**
 * "ino:size:mtime" of `path`, "-" when it does not exist. `present`: the names a listing of its
 * directory found just before; a name missing there is taken as absent without a stat (which
 * would throw). A file that appears after the listing is seen by the next ingestion.
 */
function statKey(path: string, present?: ReadonlySet<string>): string {
  if (present !== undefined && !present.has(baseName(path))) return "-";
  try {
    const i = Deno.lstatSync(path);
    return `${i.ino ?? ""}:${i.size}:${i.mtime?.getTime() ?? ""}`;
  } catch {
    return "-";
  }
}

/**
 * What {@link ingestAll} reads once for all its sessions: the runtime dir's names (one listing)
 * and the stored fingerprints (one query).
 */
export interface IngestScan {
  present: ReadonlySet<string>;
  fingerprints: ReadonlyMap<string, unknown>;
  /** Reads turns' tokens from their agents' logs (codex's are found under `$CODEX_HOME`). */
  usage?: UsageReader;
}

/** Every session whose files are in `runtimeDir` (meta, hooks or event log). */
export function sessionFilesIn(runtimeDir: string, names?: Set<string>): SessionFiles[] {
  const re =
    /^\.lisa-([0-9a-f]{8})-session-(lisa-[A-Za-z0-9._-]+)-(meta\.json|hooks\.jsonl|events\.jsonl)$/;
  const seen = new Map<string, SessionFiles>();
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(runtimeDir)];
  } catch {
    return [];
  }
  for (const entry of entries) {
    names?.add(entry.name);
    const m = re.exec(entry.name);
    if (m === null) continue;
    seen.set(`${m[1]}/${m[2]}`, { runtimeDir, hash: m[1], session: m[2] });
  }
  // Plain code-unit order: localeCompare would load ICU's collator (milliseconds) for nothing.
  return [...seen.values()].sort((
    a,
    b,
  ) => (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
}

/**
 * Ingests every session of the runtime dir of `deps`; returns the summed counts. `deps.env`
 * (when given) says where codex keeps its session logs.
 */
export function ingestAll(
  h: History,
  deps: Pick<Deps, "config"> & Partial<Pick<Deps, "env">>,
): IngestCounts {
  const total: IngestCounts = { sessions: 0, lines: 0, turns: 0, tools: 0 };
  const present = new Set<string>();
  const sessions = sessionFilesIn(deps.config.runtimeDir, present);
  if (sessions.length === 0) return total;
  const fingerprints = new Map<string, unknown>();
  const usage = new UsageReader(deps.env ?? {});
  for (
    const r of h.db.prepare(
      "SELECT path, fingerprint FROM cursors WHERE path >= 'fingerprint:' AND path < 'fingerprint;'",
    ).all()
  ) fingerprints.set(String(r.path), r.fingerprint);
  for (const files of sessions) {
    const c = ingestSession(h, files, { present, fingerprints, usage });
    total.sessions += c.sessions;
    total.lines += c.lines;
    total.turns += c.turns;
    total.tools += c.tools;
  }
  return total;
}

/**
 * Marks session (name, runId; every open run of `name` when null) as ended at `at` by `reason`,
 * unless it already is: `killed` is its final state; other removals keep its last known state
 * and count as recovered.
 */
export function markEnded(
  h: History,
  name: string,
  runId: string | null,
  reason: string,
  at: string,
): void {
  h.write(() => {
    h.db.prepare(
      `UPDATE sessions SET ended_at = ?, end_reason = ?,
        final_state = COALESCE(final_state, CASE WHEN ? = 'killed' THEN 'killed'
          ELSE COALESCE(last_state, 'unknown') END),
        recovered = CASE WHEN ? = 'killed' THEN recovered ELSE 1 END
      WHERE name = ? AND (? IS NULL OR run_id = ?) AND ended_at IS NULL`,
    ).run(at, reason, reason, reason, name, runId, runId);
  });
}
