/**
 * `lisa session explain`: a session's status plus its last events, to answer "why is it in this
 * state, and how did it get there".
 */
import type { Deps } from "../../base/deps.ts";
import type { EventRecord } from "../../base/types.ts";
import { sessionStatus, type StatusReport } from "./status.ts";
import { readEvents } from "../../store/events.ts";

/** Default number of events explain shows. */
export const DEFAULT_EXPLAIN_EVENTS = 10;

/** Options of {@link explainSession}. */
export interface ExplainOptions {
  session: string;
  projectRoot?: string;
  /** At most this many events (the newest; default 10). */
  events?: number;
  /** Only events at or after this time (epoch ms). */
  sinceMs?: number;
}

/** The explain payload. */
export interface ExplainResult extends StatusReport {
  events: EventRecord[];
  eventsFile: string;
}

export { parseSince } from "../../base/duration.ts";

/**
 * Status of `options.session` plus its newest events (oldest first). Throws what status throws,
 * `lock_busy` when the event log stays locked, and `events_file_unsafe` when the log is a
 * symlink or not a regular file.
 */
export async function explainSession(deps: Deps, options: ExplainOptions): Promise<ExplainResult> {
  const { report, location } = await sessionStatus(deps, {
    session: options.session,
    projectRoot: options.projectRoot,
  });
  const events = await readEvents(location.paths.events, deps.config, {
    limit: options.events ?? DEFAULT_EXPLAIN_EVENTS,
    sinceMs: options.sinceMs,
  });
  return { ...report, events, eventsFile: location.paths.events };
}
