/**
 * The one module that names `node:sqlite`: it is loaded on first use (a computed URL, see
 * `base/lazy.ts`), never at start-up, so no hot path (status, hook) pays for it. Its own module
 * so that what only needs to read history (`lookup.ts`) does not bring the whole store along.
 */
import { lazyImport } from "../../base/lazy.ts";
import type { SqlDb } from "./store.ts";

/** The part of `node:sqlite` lisa uses. */
export type SqliteModule = { DatabaseSync: new (path: string, options?: unknown) => SqlDb };

/** Loads `node:sqlite`. Throws when this runtime has none. */
export function loadSqlite(): Promise<SqliteModule> {
  return lazyImport<SqliteModule>(new URL("node:sqlite"));
}
