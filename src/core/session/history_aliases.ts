/**
 * Names from history for `--session` resolution (`locate.ts`): the sessions whose
 * alias is a value, once nothing in the runtime dir or the worktree records knows it any more.
 * A read-only look at the `sessions` table: no ingestion, no sweep, no migration, and nothing
 * created when there is no database. History is a fallback here, so an absent, unsafe or
 * unreadable database answers nothing rather than failing the verb.
 */
import type { Deps } from "../../base/deps.ts";
import type { KnownSession } from "./locate.ts";
import { historyPath } from "../../store/history_path.ts";
import { loadSqlite, type SqlDb } from "../../store/sqlite.ts";

/** A database lisa would open: a regular file of this user, not readable by others. */
function safeFile(path: string, uid: number): boolean {
  try {
    const info = Deno.lstatSync(path);
    if (!info.isFile) return false;
    if (info.uid !== null && info.uid !== uid) return false;
    return info.mode === null || (info.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The sessions in history whose alias is `value` or, with `prefix`, starts with it, newest run
 * first; [] without a (safe, readable) database. Never throws.
 */
export async function historyAliases(
  deps: Pick<Deps, "config" | "env" | "uid">,
  value: string,
  prefix: boolean,
): Promise<KnownSession[]> {
  const path = historyPath(deps);
  if (path === null || !safeFile(path, deps.uid)) return [];
  let db: SqlDb | undefined;
  try {
    const sqlite = await loadSqlite();
    db = new sqlite.DatabaseSync(path, { readOnly: true });
    // LIKE would read `_` and `%` in the value as wildcards: a plain prefix comparison instead.
    const rows = db.prepare(
      `SELECT name, alias, project_hash, project_root, socket_path FROM sessions
        WHERE alias = ? OR (? = 1 AND substr(alias, 1, length(?)) = ?)
        ORDER BY COALESCE(started_at, '') DESC, id DESC`,
    ).all(value, prefix ? 1 : 0, value, value);
    return rows.map((r) => ({
      session: String(r.name),
      alias: typeof r.alias === "string" ? r.alias : null,
      hash: typeof r.project_hash === "string" ? r.project_hash : null,
      path,
      projectRoot: typeof r.project_root === "string" ? r.project_root : null,
      socketPath: typeof r.socket_path === "string" ? r.socket_path : null,
    }));
  } catch {
    return [];
  } finally {
    try {
      db?.close();
    } catch { /* closed already */ }
  }
}
