/**
 * The one module that names `node:sqlite`: it is loaded on first use (a computed URL, see
 * `base/lazy.ts`), never at start-up, so no hot path (status, hook) pays for it. Its own module,
 * below core, so that what only needs to read history (`core/session/history_aliases.ts`) does
 * not bring the history store along.
 */
import { lazyImport } from "../base/lazy.ts";

/** The part of `node:sqlite` lisa uses. */
export type SqliteModule = { DatabaseSync: new (path: string, options?: unknown) => SqlDb };

/** Loads `node:sqlite`. Throws when this runtime has none. */
export function loadSqlite(): Promise<SqliteModule> {
  return lazyImport<SqliteModule>(new URL("node:sqlite"));
}

/** The subset of `node:sqlite`'s DatabaseSync lisa uses. */
export interface SqlDb {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

/** A prepared statement. */
export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
  all(...params: SqlValue[]): Record<string, unknown>[];
}

/** A value bound to a statement. */
export type SqlValue = string | number | null;
