/**
 * Recovery sweeps (seed 002's background jobs, without a daemon): run when history is read and
 * when a session is killed or cleaned up. Each says what it changed.
 *
 * 1. A session still open whose tmux session is gone (its server answers without it, or no
 *    server answers on its socket) is closed with its last known state, `recovered`.
 * 2. A turn still running in a closed session is closed `interrupted` (`recovered`), ending at
 *    the last sign of it: the kill that ended its session, else its last hook line.
 * 3. A turn running with no activity for `LISA_TURN_STALE_SECONDS` while its session's last
 *    known state is not working (`in_progress`/`just_started`) is closed `interrupted`. Should
 *    its `Stop` arrive after all, ingestion reopens it as completed.
 * 4. Tool activities without a turn join the nearest turn of their session (the last one that
 *    started before them, else the first one).
 */
import type { Deps } from "../../base/deps.ts";
import { probeSocket } from "../../tmux/sessions.ts";
import type { History } from "./store.ts";
import { sessionPaths } from "../../store/runtime_dir.ts";

/** Milliseconds since `path` changed; null when it does not exist. */
function fileAgeMs(path: string, nowMs: number): number | null {
  try {
    const mtime = Deno.lstatSync(path).mtime;
    return mtime === null ? null : nowMs - mtime.getTime();
  } catch {
    return null;
  }
}

/** What one sweep changed. */
export interface SweepReport {
  sessionsClosed: string[];
  turnsInterrupted: number;
  toolsJoined: number;
}

/** Options of {@link sweepHistory}. */
export interface SweepOptions {
  /** Ask tmux which open sessions still exist (step 1); false skips it. */
  probe?: boolean;
}

/** Runs the sweeps (module doc). Throws the store's errors. */
export async function sweepHistory(
  h: History,
  deps: Pick<Deps, "runner" | "config" | "now">,
  options: SweepOptions = {},
): Promise<SweepReport> {
  const report: SweepReport = { sessionsClosed: [], turnsInterrupted: 0, toolsJoined: 0 };
  const now = deps.now();
  if (options.probe !== false) await closeGoneSessions(h, deps, now, report);
  const staleBefore = new Date(now.getTime() - deps.config.turnStaleSeconds * 1000).toISOString();
  // Reads first: most sweeps find nothing, and then take no write lock.
  const work = h.db.prepare(
    `SELECT EXISTS (SELECT 1 FROM turns WHERE outcome = 'running') AS running,
      EXISTS (SELECT 1 FROM tools WHERE turn_id IS NULL) AS orphans`,
  ).get();
  if (Number(work?.running) === 0 && Number(work?.orphans) === 0) return report;
  h.write(() => {
    // A kill ended a turn that ran until then; a session that ended otherwise (gone, cleaned
    // up long after) says nothing of when its turn stopped but the turn's own last line.
    const ended = h.db.prepare(
      `UPDATE turns SET outcome = 'interrupted', waiting_for = NULL, recovered = 1,
        ended_at = COALESCE(
          (SELECT MAX(s.ended_at, COALESCE(turns.last_activity_at, turns.started_at, ''))
            FROM sessions s WHERE s.id = turns.session_id AND s.end_reason = 'killed'),
          last_activity_at, started_at,
          (SELECT ended_at FROM sessions WHERE sessions.id = turns.session_id))
      WHERE outcome = 'running'
        AND session_id IN (SELECT id FROM sessions WHERE ended_at IS NOT NULL)`,
    ).run();
    const stale = h.db.prepare(
      `UPDATE turns SET outcome = 'interrupted', waiting_for = NULL, recovered = 1,
        ended_at = COALESCE(last_activity_at, started_at)
      WHERE outcome = 'running' AND COALESCE(last_activity_at, started_at, '') < ?
        AND session_id IN (SELECT id FROM sessions
          WHERE COALESCE(last_state, '') NOT IN ('in_progress', 'just_started'))`,
    ).run(staleBefore);
    report.turnsInterrupted = Number(ended.changes) + Number(stale.changes);
    const joined = h.db.prepare(
      `UPDATE tools SET turn_id = COALESCE(
        (SELECT t.id FROM turns t WHERE t.session_id = tools.session_id
          AND COALESCE(t.started_at, t.ended_at) <= tools.at ORDER BY t.seq DESC LIMIT 1),
        (SELECT t.id FROM turns t WHERE t.session_id = tools.session_id ORDER BY t.seq LIMIT 1))
      WHERE turn_id IS NULL
        AND EXISTS (SELECT 1 FROM turns t WHERE t.session_id = tools.session_id)`,
    ).run();
    report.toolsJoined = Number(joined.changes);
  });
  return report;
}

/**
 * Sweep 1 (module doc): closes each open session whose tmux session is gone, asking each server
 * once, and none whose heartbeat is fresh.
 */
async function closeGoneSessions(
  h: History,
  deps: Pick<Deps, "runner" | "config" | "now">,
  now: Date,
  report: SweepReport,
): Promise<void> {
  const nowIso = now.toISOString();
  const open = h.db.prepare(
    `SELECT id, name, socket_path, project_hash FROM sessions
      WHERE ended_at IS NULL AND socket_path IS NOT NULL`,
  ).all();
  const bySocket = new Map<string, { id: number; name: string }[]>();
  for (const r of open) {
    // A fresh heartbeat (the wrapper touches it every 2 s) proves the pane alive: no tmux call.
    if (typeof r.project_hash === "string") {
      const beat = sessionPaths(deps.config.runtimeDir, r.project_hash, String(r.name)).heartbeat;
      const age = fileAgeMs(beat, now.getTime());
      if (age !== null && age < deps.config.heartbeatStaleSeconds * 1000) continue;
    }
    const list = bySocket.get(String(r.socket_path)) ?? [];
    list.push({ id: Number(r.id), name: String(r.name) });
    bySocket.set(String(r.socket_path), list);
  }
  const gone: number[] = [];
  for (const [socket, sessions] of bySocket) {
    const probe = await probeSocket(deps.runner, socket, deps.config.cmdTimeoutSeconds * 1000);
    if (probe.kind === "unknown") continue;
    for (const s of sessions) {
      if (probe.kind === "stale" || !probe.sessions.includes(s.name)) {
        gone.push(s.id);
        report.sessionsClosed.push(s.name);
      }
    }
  }
  if (gone.length > 0) {
    h.write(() => {
      const close = h.db.prepare(
        `UPDATE sessions SET ended_at = COALESCE(last_activity_at, started_at, ?),
          final_state = COALESCE(final_state, last_state, 'unknown'),
          end_reason = COALESCE(end_reason, 'gone'), recovered = 1
        WHERE id = ? AND ended_at IS NULL`,
      );
      for (const id of gone) close.run(nowIso, id);
    });
  }
}
