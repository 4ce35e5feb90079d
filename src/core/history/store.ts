/**
 * The history store: one SQLite database (`node:sqlite`, loaded only here and only when a verb
 * needs history), the source of truth for every session lisa ran (seed 002): sessions, their
 * turns (the prompt batches), the tools each turn ran, and plans.
 *
 * - Location: `LISA_HISTORY_DB`, else `${XDG_STATE_HOME:-~/.local/state}/lisa/history.db`. Its
 *   directory is created 0700 and the file 0600; a symlink, a foreign owner, a directory
 *   group/other can write to, or a file group/other can read is refused (`history_unsafe`),
 *   never followed or fixed silently.
 * - WAL journal and a busy timeout: readers never block writers, and a writer waits at most
 *   {@link BUSY_TIMEOUT_MS} for another (then `history_busy`, never a hang).
 * - A schema version table and ordered migrations from version 1; a database written by a newer
 *   lisa is refused (`history_schema_newer`) rather than misread.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { dirName } from "../../base/paths.ts";
import { historyPath } from "../../store/history_path.ts";
import { loadSqlite, type SqlDb, type SqliteModule } from "../../store/sqlite.ts";

export type { SqlDb, SqlStatement, SqlValue } from "../../store/sqlite.ts";

/** How long a write waits for another process's write transaction. */
export const BUSY_TIMEOUT_MS = 5000;

/** Ordered migrations: index i takes the schema from version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    run_id TEXT NOT NULL,
    alias TEXT,
    agent TEXT,
    mode TEXT,
    project_root TEXT,
    project_hash TEXT,
    socket_path TEXT,
    parent TEXT,
    agent_session_id TEXT,
    transcript_path TEXT,
    prompt TEXT,
    started_at TEXT,
    ended_at TEXT,
    final_state TEXT,
    exit_code INTEGER,
    end_reason TEXT,
    last_state TEXT,
    last_activity_at TEXT,
    recovered INTEGER NOT NULL DEFAULT 0,
    UNIQUE (name, run_id)
  );
  CREATE INDEX sessions_started ON sessions (started_at);
  CREATE INDEX sessions_open ON sessions (name) WHERE ended_at IS NULL;
  CREATE TABLE turns (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    turn_key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    prompt TEXT,
    reply TEXT,
    error TEXT,
    outcome TEXT NOT NULL,
    waiting_for TEXT,
    started_at TEXT,
    ended_at TEXT,
    last_activity_at TEXT,
    recovered INTEGER NOT NULL DEFAULT 0,
    UNIQUE (session_id, turn_key)
  );
  CREATE INDEX turns_session ON turns (session_id, seq);
  CREATE INDEX turns_running ON turns (session_id) WHERE outcome = 'running';
  CREATE TABLE tools (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    turn_id INTEGER REFERENCES turns (id),
    line_key TEXT NOT NULL,
    tool TEXT NOT NULL,
    input TEXT,
    duration_ms INTEGER,
    at TEXT,
    UNIQUE (session_id, line_key)
  );
  CREATE INDEX tools_turn ON tools (turn_id);
  CREATE INDEX tools_orphan ON tools (session_id) WHERE turn_id IS NULL;
  CREATE TABLE plans (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions (id),
    turn_id INTEGER REFERENCES turns (id),
    path TEXT NOT NULL,
    content TEXT,
    captured_at TEXT,
    UNIQUE (session_id, path)
  );
  CREATE TABLE seen_lines (
    session_id INTEGER NOT NULL,
    line_key TEXT NOT NULL,
    PRIMARY KEY (session_id, line_key)
  ) WITHOUT ROWID;
  CREATE TABLE cursors (
    path TEXT PRIMARY KEY,
    ino INTEGER,
    offset INTEGER NOT NULL,
    fingerprint TEXT
  );
  CREATE VIRTUAL TABLE turns_fts USING fts5 (
    prompt, reply, content = 'turns', content_rowid = 'id'
  );
  CREATE TRIGGER turns_fts_insert AFTER INSERT ON turns BEGIN
    INSERT INTO turns_fts (rowid, prompt, reply) VALUES (new.id, new.prompt, new.reply);
  END;
  CREATE TRIGGER turns_fts_delete AFTER DELETE ON turns BEGIN
    INSERT INTO turns_fts (turns_fts, rowid, prompt, reply)
      VALUES ('delete', old.id, old.prompt, old.reply);
  END;
  CREATE TRIGGER turns_fts_update AFTER UPDATE OF prompt, reply ON turns BEGIN
    INSERT INTO turns_fts (turns_fts, rowid, prompt, reply)
      VALUES ('delete', old.id, old.prompt, old.reply);
    INSERT INTO turns_fts (rowid, prompt, reply) VALUES (new.id, new.prompt, new.reply);
  END;
  `,
  // 2: what started a turn (a person's prompt, or the agent's own report of background work),
  // the agent's id of it, and its tokens (null: not known).
  `
  ALTER TABLE turns ADD COLUMN started_by TEXT NOT NULL DEFAULT 'prompt';
  ALTER TABLE turns ADD COLUMN prompt_id TEXT;
  ALTER TABLE turns ADD COLUMN input_tokens INTEGER;
  ALTER TABLE turns ADD COLUMN output_tokens INTEGER;
  ALTER TABLE turns ADD COLUMN cache_read_tokens INTEGER;
  ALTER TABLE turns ADD COLUMN cache_write_tokens INTEGER;
  `,
];

/** The schema version this lisa writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

// Its own module: resolving a name reads the path without loading the whole store.
export { historyPath } from "../../store/history_path.ts";

function unsafe(path: string, reason: string): LisaError {
  return new LisaError("history_unsafe", `Refusing the history database "${path}": ${reason}`, {
    details: { historyDb: path },
  });
}

/** Creates the database's directory (0700) or checks the existing one. */
function ensureDir(dir: string, uid: number): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(dir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.chmodSync(dir, 0o700);
    info = Deno.lstatSync(dir);
  }
  if (info.isSymlink) throw unsafe(dir, "its directory is a symlink");
  if (!info.isDirectory) throw unsafe(dir, "its directory is not a directory");
  if (info.uid !== null && info.uid !== uid) throw unsafe(dir, "its directory is not yours");
  // A directory lisa creates is 0700; one the user chose may be their own 0755 one, but never
  // one others can write to (they could swap the database or its WAL files).
  if (info.mode !== null && (info.mode & 0o022) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
    throw unsafe(dir, `its directory's mode ${mode} lets group/other write (want 700)`);
  }
}

/** Creates the database file (0600) or checks the existing one (and its WAL sidecars). */
function ensureFile(path: string, uid: number): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(p);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (p !== path) continue;
      try {
        Deno.openSync(path, { write: true, createNew: true, mode: 0o600 }).close();
        Deno.chmodSync(path, 0o600);
        continue;
      } catch (raced) {
        // Another lisa created it between the two calls: check theirs like any existing file.
        if (!(raced instanceof Deno.errors.AlreadyExists)) throw raced;
        info = Deno.lstatSync(p);
      }
    }
    if (info.isSymlink) throw unsafe(path, `${p} is a symlink`);
    if (!info.isFile) throw unsafe(path, `${p} is not a regular file`);
    if (info.uid !== null && info.uid !== uid) throw unsafe(path, `${p} is not yours`);
    if (info.mode !== null && (info.mode & 0o077) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
      throw unsafe(path, `${p} has mode ${mode} (want 600)`);
    }
  }
}

/** Maps an sqlite error to lisa's codes (busy, or a generic history error). */
export function historyError(error: unknown, path: string): LisaError {
  if (error instanceof LisaError) return error;
  const message = (error as Error)?.message ?? String(error);
  if (isBusy(error)) {
    return new LisaError(
      "history_busy",
      `The history database "${path}" stayed busy past ${BUSY_TIMEOUT_MS} ms: ${message}`,
      { cause: error, details: { historyDb: path } },
    );
  }
  return new LisaError("history_error", `History database "${path}": ${message}`, {
    cause: error,
    details: { historyDb: path },
  });
}

/** True for SQLite's "busy"/"locked" errors. */
function isBusy(error: unknown): boolean {
  return /SQLITE_BUSY|SQLITE_LOCKED|database is locked|busy/i.test(
    (error as Error)?.message ?? String(error),
  );
}

/** Blocks this thread for `ms` (node:sqlite is synchronous, so its retries are too). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `fn`, retrying while SQLite answers busy without waiting (it does so for a journal-mode
 * change or a WAL recovery racing another process, where its busy handler is not called), until
 * {@link BUSY_TIMEOUT_MS} has passed.
 */
function retryBusy<T>(fn: () => T): T {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let wait = 5;; wait = Math.min(wait * 2, 100)) {
    try {
      return fn();
    } catch (error) {
      if (!isBusy(error) || Date.now() + wait > deadline) throw error;
      sleepSync(wait);
    }
  }
}

/** An open history database. */
export interface History {
  db: SqlDb;
  path: string;
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE … COMMIT; ROLLBACK on a throw). */
  write<T>(fn: () => T): T;
  close(): void;
}

/** Brings the schema to {@link SCHEMA_VERSION}, each migration in its own transaction. */
function migrate(history: History): void {
  const { db, path } = history;
  db.exec(
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)",
  );
  const current = () =>
    Number(db.prepare("SELECT MAX(version) AS v FROM schema_version").get()?.v ?? 0);
  if (current() > SCHEMA_VERSION) {
    throw new LisaError(
      "history_schema_newer",
      `The history database "${path}" has schema version ${current()}, newer than this lisa's ` +
        `${SCHEMA_VERSION}; upgrade lisa or point LISA_HISTORY_DB elsewhere`,
      { details: { historyDb: path, version: current(), supported: SCHEMA_VERSION } },
    );
  }
  while (current() < SCHEMA_VERSION) {
    history.write(() => {
      const v = current(); // another process may have migrated meanwhile
      if (v >= SCHEMA_VERSION) return;
      db.exec(MIGRATIONS[v]);
      db.prepare("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)").run(
        v + 1,
        new Date().toISOString(),
      );
    });
  }
}

/**
 * Opens (creating when needed) the history database of `deps`. Throws `history_unavailable`
 * when this Deno has no `node:sqlite`, `history_unsafe`, `history_schema_newer`,
 * `history_busy` and `history_error`.
 */
export async function openHistory(
  deps: Pick<Deps, "config" | "env" | "uid">,
  at?: string,
): Promise<History> {
  const path = at ?? historyPath(deps);
  if (path === null) {
    throw new LisaError(
      "history_unavailable",
      "No place for the history database: set LISA_HISTORY_DB, XDG_STATE_HOME or HOME",
    );
  }
  let sqlite: SqliteModule;
  try {
    sqlite = await loadSqlite();
  } catch (error) {
    throw new LisaError(
      "history_unavailable",
      `History needs node:sqlite, which this runtime cannot load: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    ensureDir(dirName(path), deps.uid);
    ensureFile(path, deps.uid);
  } catch (error) {
    if (error instanceof LisaError) throw error;
    throw unsafe(path, (error as Error).message);
  }
  let db: SqlDb;
  try {
    db = new sqlite.DatabaseSync(path);
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    retryBusy(() => db.exec("PRAGMA journal_mode = WAL"));
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
  } catch (error) {
    throw historyError(error, path);
  }
  const history: History = {
    db,
    path,
    write<T>(fn: () => T): T {
      try {
        retryBusy(() => db.exec("BEGIN IMMEDIATE"));
      } catch (error) {
        throw historyError(error, path);
      }
      try {
        const value = fn();
        db.exec("COMMIT");
        return value;
      } catch (error) {
        try {
          db.exec("ROLLBACK");
        } catch { /* no transaction left to roll back */ }
        throw historyError(error, path);
      }
    },
    close() {
      try {
        db.close();
      } catch { /* closed already */ }
    },
  };
  try {
    retryBusy(() => migrate(history));
  } catch (error) {
    history.close();
    throw historyError(error, path);
  }
  return history;
}
