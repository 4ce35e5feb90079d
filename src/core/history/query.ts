/**
 * Reading history: `lisa history list|show|search` and `lisa session turns`. Every read first
 * ingests what the runtime dir holds and runs the sweeps ({@link readHistory}), so what it shows
 * is as fresh as the files.
 */
import type { Deps } from "../../base/deps.ts";
import { warn } from "../../base/io.ts";
import { LisaError, UsageError } from "../../base/errors.ts";
import {
  canonicalProjectRoot,
  isValidSessionName,
  locateSession,
  projectHash,
  resolveProject,
  resolveSession,
} from "../session/mod.ts";
import type { IngestCounts } from "./ingest.ts";
import { loadHistoryModules } from "./modules.ts";
import type { History } from "./store.ts";
import type { SweepReport } from "./sweep.ts";
import type { SqlValue } from "./store.ts";
import type { TokenUsage } from "../../agents/usage.ts";

/** One session of `history list`. */
export interface HistorySession {
  session: string;
  runId: string;
  alias: string | null;
  agent: string | null;
  mode: string | null;
  projectRoot: string | null;
  parentSession: string | null;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  turns: number;
  finalState: string | null;
  exitCode: number | null;
  endReason: string | null;
  recovered: boolean;
  /**
   * The tokens of its turns, summed (a turn whose tokens are not known counts as none); null
   * when no turn's are known.
   */
  usage: TokenUsage | null;
}

/** One tool call of a turn. */
export interface HistoryTool {
  tool: string;
  input: string | null;
  durationMs: number | null;
  at: string | null;
}

/** One turn. */
export interface HistoryTurn {
  turnId: string;
  seq: number;
  prompt: string | null;
  outcome: string;
  waitingFor: string | null;
  reply: string | null;
  error: string | null;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  recovered: boolean;
  /** `prompt` (a person's), or `background` (the agent's own turn reporting background work). */
  trigger: string;
  /** The turn's tokens; null when its agent's log did not tell (yet, or at all). */
  usage: TokenUsage | null;
  tools: HistoryTool[];
}

/** One captured plan. */
export interface HistoryPlan {
  path: string;
  content: string | null;
  capturedAt: string | null;
  turnId: string | null;
}

/** What a read did before answering. */
export interface ReadInfo {
  ingested: IngestCounts;
  sweep: SweepReport;
  historyDb: string;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function num(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

function span(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** The usage of the `in`, `out`, `cr`, `cw` columns of `r`; null when `in` is null. */
function usageOf(r: Record<string, unknown>, prefix = ""): TokenUsage | null {
  if (r[`${prefix}input_tokens`] === null || r[`${prefix}input_tokens`] === undefined) return null;
  return {
    inputTokens: Number(r[`${prefix}input_tokens`]),
    outputTokens: Number(r[`${prefix}output_tokens`] ?? 0),
    cacheReadTokens: Number(r[`${prefix}cache_read_tokens`] ?? 0),
    cacheWriteTokens: Number(r[`${prefix}cache_write_tokens`] ?? 0),
  };
}

function sessionOf(r: Record<string, unknown>): HistorySession {
  const startedAt = str(r.started_at);
  const endedAt = str(r.ended_at);
  const duration = num(r.duration_ms);
  return {
    session: String(r.name),
    runId: String(r.run_id),
    alias: str(r.alias),
    agent: str(r.agent),
    mode: str(r.mode),
    projectRoot: str(r.project_root),
    parentSession: str(r.parent),
    startedAt,
    endedAt,
    durationMs: duration !== null && duration >= 0 ? duration : null,
    turns: Number(r.turns ?? 0),
    finalState: str(r.final_state),
    exitCode: num(r.exit_code),
    endReason: str(r.end_reason),
    recovered: Number(r.recovered) === 1,
    usage: usageOf(r, "sum_"),
  };
}

/**
 * Opens history, ingests the runtime dir, sweeps, runs `fn`, closes. Throws the store's errors.
 */
export async function readHistory<T>(
  deps: Deps,
  fn: (h: History) => T,
): Promise<{ value: T; info: ReadInfo }> {
  const { store, ingest, sweep: sweeps } = await loadHistoryModules();
  const h = await store.openHistory(deps);
  try {
    const ingested = ingest.ingestAll(h, deps);
    const sweep = await sweeps.sweepHistory(h, deps);
    return { value: fn(h), info: { ingested, sweep, historyDb: h.path } };
  } finally {
    h.close();
  }
}

/** Filters of {@link listSessions}. */
export interface ListFilters {
  /** Only sessions of this project root (absolute); all projects when undefined. */
  projectRoot?: string;
  /** Only sessions started at or after this time (epoch ms). */
  sinceMs?: number;
  agent?: string;
}

/** A session's summed turn tokens, as `sum_*` columns (null when no turn's are known). */
const USAGE_SUMS = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"]
  .map((c) => `(SELECT SUM(t.${c}) FROM turns t WHERE t.session_id = s.id) AS sum_${c}`)
  .join(",\n  ");

const SESSION_COLUMNS = `s.name, s.run_id, s.alias, s.agent, s.mode, s.project_root, s.parent,
  s.started_at, s.ended_at, s.final_state, s.exit_code, s.end_reason, s.recovered,
  CAST(ROUND((julianday(s.ended_at) - julianday(s.started_at)) * 86400000) AS INTEGER)
    AS duration_ms,
  ${USAGE_SUMS}`;

/** The WHERE clause and parameters of `filters`. */
function listWhere(filters: ListFilters): { sql: string; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (filters.projectRoot !== undefined) {
    // Sessions known only from their event log have no root, only the project hash.
    where.push("(s.project_root = ? OR (s.project_root IS NULL AND s.project_hash = ?))");
    params.push(filters.projectRoot, projectHash(filters.projectRoot));
  }
  if (filters.sinceMs !== undefined) {
    where.push("s.started_at >= ?");
    params.push(new Date(filters.sinceMs).toISOString());
  }
  if (filters.agent !== undefined) {
    where.push("s.agent = ?");
    params.push(filters.agent);
  }
  return { sql: where.length > 0 ? `WHERE ${where.join(" AND ")}` : "", params };
}

const LIST_ORDER = "ORDER BY COALESCE(s.started_at, '') DESC, s.id DESC";

/** Sessions, newest first, with their turn counts. */
export function listSessions(h: History, filters: ListFilters): HistorySession[] {
  const where = listWhere(filters);
  const sql = `SELECT ${SESSION_COLUMNS},
      (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS turns
    FROM sessions s ${where.sql} ${LIST_ORDER}`;
  return h.db.prepare(sql).all(...where.params).map(sessionOf);
}

/**
 * {@link listSessions} as a JSON array text built by SQLite itself (same fields, same order):
 * with a thousand sessions, building and serialising JS objects costs more than the query.
 */
export function listSessionsJson(
  h: History,
  filters: ListFilters,
): { json: string; count: number } {
  const where = listWhere(filters);
  const duration =
    "CAST(ROUND((julianday(s.ended_at) - julianday(s.started_at)) * 86400000) AS INTEGER)";
  const sql = `SELECT COUNT(*) AS n, COALESCE(json_group_array(json(j)), '[]') AS json FROM (
    SELECT json_object(
      'session', s.name, 'runId', s.run_id, 'alias', s.alias, 'agent', s.agent, 'mode', s.mode,
      'projectRoot', s.project_root, 'parentSession', s.parent, 'startedAt', s.started_at,
      'endedAt', s.ended_at,
      'durationMs', CASE WHEN ${duration} >= 0 THEN ${duration} END,
      'turns', (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id),
      'finalState', s.final_state, 'exitCode', s.exit_code, 'endReason', s.end_reason,
      'recovered', json(CASE WHEN s.recovered = 1 THEN 'true' ELSE 'false' END),
      'usage', json((SELECT CASE WHEN COUNT(t.input_tokens) = 0 THEN NULL ELSE json_object(
        'inputTokens', SUM(t.input_tokens), 'outputTokens', SUM(t.output_tokens),
        'cacheReadTokens', SUM(t.cache_read_tokens), 'cacheWriteTokens', SUM(t.cache_write_tokens)
      ) END FROM turns t WHERE t.session_id = s.id))
    ) AS j FROM sessions s ${where.sql} ${LIST_ORDER})`;
  const r = h.db.prepare(sql).get(...where.params);
  return { json: String(r?.json ?? "[]"), count: Number(r?.n ?? 0) };
}

function toolsOf(h: History, turnId: number): HistoryTool[] {
  return h.db.prepare(
    "SELECT tool, input, duration_ms, at FROM tools WHERE turn_id = ? ORDER BY at, id",
  ).all(turnId).map((r) => ({
    tool: String(r.tool),
    input: str(r.input),
    durationMs: num(r.duration_ms),
    at: str(r.at),
  }));
}

function turnsOf(h: History, sessionId: number): HistoryTurn[] {
  return h.db.prepare("SELECT * FROM turns WHERE session_id = ? ORDER BY seq").all(sessionId).map(
    (r) => {
      const startedAt = str(r.started_at);
      const endedAt = str(r.ended_at);
      return {
        turnId: String(r.turn_key),
        seq: Number(r.seq),
        prompt: str(r.prompt),
        outcome: String(r.outcome),
        waitingFor: str(r.waiting_for),
        reply: str(r.reply),
        error: str(r.error),
        startedAt,
        endedAt,
        durationMs: span(startedAt, endedAt),
        recovered: Number(r.recovered) === 1,
        trigger: str(r.started_by) ?? "prompt",
        usage: usageOf(r),
        tools: toolsOf(h, Number(r.id)),
      };
    },
  );
}

/** `history show`: a session, its turns (with tools) and plans. */
export interface SessionHistory extends HistorySession {
  turnList: HistoryTurn[];
  plans: HistoryPlan[];
}

/** Which run of a name {@link showSession} takes first (see {@link historySubject}). */
export interface RunPreference {
  /** The run of the session the name means now (its meta's run id). */
  runId?: string | null;
  /** The project of the session the name means (its files' hash). */
  projectHash?: string | null;
}

/**
 * The run of the session named `nameOrAlias` (a session name, an alias, or a run id: one run of a
 * name spawned several times), turn by turn: the run `prefer` names (or the run id given), else
 * the newest run of `prefer`'s project, else the newest run of any project.
 * Throws `session_not_found` when history has no such session.
 */
export function showSession(
  h: History,
  nameOrAlias: string,
  prefer: RunPreference = {},
): SessionHistory {
  const r = h.db.prepare(
    `SELECT s.id, ${SESSION_COLUMNS},
      (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS turns
    FROM sessions s WHERE s.name = ? OR s.alias = ? OR s.run_id = ?
    ORDER BY (s.run_id = ?) DESC, (s.project_hash = ?) DESC,
      COALESCE(s.started_at, '') DESC, s.id DESC LIMIT 1`,
  ).get(
    nameOrAlias,
    nameOrAlias,
    nameOrAlias,
    prefer.runId ?? nameOrAlias,
    prefer.projectHash ?? null,
  );
  if (r === undefined) {
    throw new LisaError(
      "session_not_found",
      `History has no session "${nameOrAlias}" (name, alias or run id)`,
      { details: { session: nameOrAlias } },
    );
  }
  const id = Number(r.id);
  const plans = h.db.prepare(
    `SELECT p.path, p.content, p.captured_at, t.turn_key FROM plans p
      LEFT JOIN turns t ON t.id = p.turn_id WHERE p.session_id = ? ORDER BY p.id`,
  ).all(id).map((p) => ({
    path: String(p.path),
    content: str(p.content),
    capturedAt: str(p.captured_at),
    turnId: str(p.turn_key),
  }));
  return { ...sessionOf(r), turnList: turnsOf(h, id), plans };
}

/** Which session's tokens {@link usageOfSessions} is asked for. */
export interface UsageKey {
  session: string;
  projectHash: string | null;
}

/**
 * The summed tokens of the newest run history has of each session (of its project when the key
 * names one); null for a session history does not know or whose turns' tokens are unknown.
 */
export function usageOfSessions(h: History, keys: readonly UsageKey[]): (TokenUsage | null)[] {
  const get = h.db.prepare(
    `SELECT ${USAGE_SUMS} FROM sessions s WHERE s.name = ?
      ORDER BY (s.project_hash = ?) DESC, COALESCE(s.started_at, '') DESC, s.id DESC LIMIT 1`,
  );
  return keys.map((k) => {
    const r = get.get(k.session, k.projectHash);
    return r === undefined ? null : usageOf(r, "sum_");
  });
}

/**
 * The summed tokens of each session (see {@link usageOfSessions}), history ingested first: what
 * `list --wide` shows. Never throws: history that cannot be read gives nulls, and a line on
 * stderr saying why.
 */
export async function sessionsUsage(
  deps: Deps,
  keys: readonly UsageKey[],
): Promise<(TokenUsage | null)[]> {
  if (keys.length === 0) return [];
  try {
    return (await readHistory(deps, (h) => usageOfSessions(h, keys))).value;
  } catch (error) {
    warn(deps.io, `no token counts: ${(error as Error).message}`);
    return keys.map(() => null);
  }
}

/** One `history search` hit. */
export interface SearchHit {
  session: string;
  alias: string | null;
  agent: string | null;
  turnId: string;
  seq: number;
  startedAt: string | null;
  outcome: string;
  prompt: string | null;
  reply: string | null;
}

/** Most hits returned. */
export const SEARCH_LIMIT = 50;

/** An FTS5 query that matches every word of `words` (each quoted: no FTS syntax gets through). */
export function ftsQuery(words: string): string {
  const terms = words.split(/\s+/).filter((w) => w !== "").map((w) =>
    `"${w.replaceAll('"', '""')}"`
  );
  if (terms.length === 0) throw new UsageError("history search needs at least one word");
  return terms.join(" ");
}

/** Turns whose prompt or reply holds every word (full-text, best match first). */
export function searchTurns(h: History, words: string): SearchHit[] {
  return h.db.prepare(
    `SELECT s.name, s.alias, s.agent, t.turn_key, t.seq, t.started_at, t.outcome, t.prompt, t.reply
    FROM turns_fts f JOIN turns t ON t.id = f.rowid JOIN sessions s ON s.id = t.session_id
    WHERE turns_fts MATCH ? ORDER BY rank LIMIT ${SEARCH_LIMIT}`,
  ).all(ftsQuery(words)).map((r) => ({
    session: String(r.name),
    alias: str(r.alias),
    agent: str(r.agent),
    turnId: String(r.turn_key),
    seq: Number(r.seq),
    startedAt: str(r.started_at),
    outcome: String(r.outcome),
    prompt: str(r.prompt),
    reply: str(r.reply),
  }));
}

/**
 * The session `value` names for a history read (`history show`, `session turns`), resolved as
 * every `--session` verb resolves it (a full name, an alias or a unique prefix of one; the
 * current project's session of a name first), and the run to take: the run of the session a
 * verb would act on, never another project's session of the same name because it ran later.
 * A value nothing resolves is returned as given (history may still know it by name or alias).
 * Throws `session_ambiguous` and the project errors.
 */
export async function historySubject(
  deps: Deps,
  value: string,
  projectRoot?: string,
): Promise<{ name: string; prefer: RunPreference }> {
  const project = resolveProject(deps, projectRoot);
  const name = (await resolveSession(deps, project.runtimeDir, value))?.session ?? value;
  if (!isValidSessionName(name)) return { name, prefer: {} };
  const loc = await locateSession(deps, name, projectRoot);
  return { name, prefer: { runId: loc.meta?.runId ?? null, projectHash: loc.hash } };
}

/** The project root filter of `history list` (undefined: every project). */
export function projectFilter(
  deps: Deps,
  options: { projectRoot?: string; allProjects?: boolean },
): string | undefined {
  if (options.allProjects) return undefined;
  return canonicalProjectRoot(options.projectRoot ?? deps.config.projectRoot, deps.cwd);
}
