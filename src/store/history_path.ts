/** Where the history database is (see `core/history/store.ts`). */
import type { Deps } from "../base/deps.ts";
import { joinPath } from "../base/paths.ts";

/**
 * The database path for `deps`: `LISA_HISTORY_DB`, else `${XDG_STATE_HOME}/lisa/history.db`,
 * else `~/.local/state/lisa/history.db`; null when none of them says where it goes.
 */
export function historyPath(deps: Pick<Deps, "config" | "env">): string | null {
  if (deps.config.historyDb !== undefined) return deps.config.historyDb;
  const xdg = deps.env.XDG_STATE_HOME;
  if (xdg !== undefined && xdg.startsWith("/")) return joinPath(xdg, "lisa", "history.db");
  const home = deps.env.HOME;
  if (home === undefined || !home.startsWith("/")) return null;
  return joinPath(home, ".local/state", "lisa", "history.db");
}
