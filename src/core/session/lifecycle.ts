/**
 * Lifecycle events (spawn, spawn failures, kill) appended to a session's event log. Appending is
 * best effort: a failure to log never fails the command; it is reported on stderr.
 */
import { warn } from "../../base/io.ts";
import type { Deps } from "../../base/deps.ts";
import type { EventRecord } from "../../base/types.ts";
import { appendEvent } from "../../store/events.ts";

/** Fields of one lifecycle event besides `at`, `type` and `session`. */
export interface LifecycleFields {
  runId?: string | null;
  state?: string | null;
  status?: string | null;
  reason: string;
  [extra: string]: unknown;
}

/** Appends a `lifecycle` event for `session` to `eventsPath`; never throws. */
export async function appendLifecycle(
  deps: Deps,
  eventsPath: string,
  session: string,
  fields: LifecycleFields,
): Promise<void> {
  const record: EventRecord = {
    at: deps.now().toISOString(),
    type: "lifecycle",
    session,
    ...fields,
  };
  try {
    await appendEvent(eventsPath, record, deps.config);
  } catch (error) {
    warn(deps.io, `could not log "${fields.reason}" for ${session}: ${(error as Error).message}`);
  }
}
