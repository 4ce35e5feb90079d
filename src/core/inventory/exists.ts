/** `lisa session exists`: whether tmux has the session (found from any directory). */
import type { Deps } from "../../base/deps.ts";
import { locateSession } from "../session/mod.ts";
import { hasSession } from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";

/** `session exists --json`. */
export interface ExistsResult {
  session: string;
  exists: boolean;
  projectRoot: string;
  socketPath: string;
}

/** One `has-session` on the session's server. Throws `invalid_session_name`. */
export async function sessionExists(
  deps: Deps,
  session: string,
  projectRoot?: string,
): Promise<ExistsResult> {
  const loc = await locateSession(deps, session, projectRoot);
  const exists = await hasSession(new Tmux(deps.runner, loc.socketPath), loc.session);
  return { session: loc.session, exists, projectRoot: loc.projectRoot, socketPath: loc.socketPath };
}
