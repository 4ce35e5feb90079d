/**
 * A turn that ends without its end hook (an Esc fires no Stop; a Stop hook can be lost) is still
 * "running" for the hooks, while status already answers `waiting_input` from the screen and the
 * processes. So that every view agrees the moment status decides, status then writes the turn's
 * end into the session's hook log itself: one `lisa:turn_end` line (`LISA_TURN_END`) with the
 * outcome the screen shows (`interrupted`, or `completed` with the reply it shows). Status reads
 * it back as a finished turn, `send --wait` ends the turn with it, and history closes the turn
 * with it (marked `recovered`: a late Stop still completes it).
 */
import { warn } from "../../base/io.ts";
import type { Deps } from "../../base/deps.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { Agent } from "../../base/types.ts";
import { LISA_TURN_END, openTurnStart } from "../../agents/hooks.ts";
import { screenTurnEnd } from "../../agents/turn_screen.ts";
import { boundRecord, type HookRecord } from "../hook/mod.ts";
import type { SessionLocation } from "../session/mod.ts";
import type { Classification, HookSignal } from "./classify.ts";

/** Longest wait for the hook log's lock (appends hold it for a moment only). */
const LOCK_WAIT_MS = 200;

/** What status saw that decides whether, and how, a silently ended turn is written down. */
export interface SilentEndFacts {
  loc: Pick<SessionLocation, "meta" | "paths">;
  classification: Classification;
  hooks: HookSignal | null;
  /** The pane's captured rows (oldest first), "" when none were captured. */
  screen: string;
  /** Seconds the screen has not changed (null: unknown). */
  quietSeconds: number | null;
  nowMs: number;
}

/**
 * True when status says the agent waits for input while its hooks still report the turn
 * running (or waiting on a dialog that is gone): the turn is over, and nothing said so yet.
 */
export function endsTurnSilently(f: SilentEndFacts): boolean {
  const meta = f.loc.meta;
  const c = f.classification;
  return meta !== undefined && meta.hooks === true && meta.commandOnly !== true &&
    typeof meta.runId === "string" && meta.runId !== "" &&
    c.sessionState === "waiting_input" && c.waitingFor === "input" &&
    f.hooks?.active === true &&
    (f.hooks.pending === "turn_running" || f.hooks.pending === "permission" ||
      f.hooks.pending === "compacting");
}

/** The `lisa:turn_end` record for a silently ended turn (see the module doc). Pure. */
export function turnEndRecord(
  f: SilentEndFacts,
  turn: { prompt: string | null; atMs: number | null } | null,
): HookRecord {
  const meta = f.loc.meta!;
  const agent: Agent | null = meta.agent ?? null;
  // Esc at a permission dialog: the turn stopped there.
  const dismissed = f.classification.classificationReason === "hook:permission_dismissed";
  const shown = dismissed
    ? { outcome: "interrupted" as const, reply: null }
    : screenTurnEnd(agent, f.screen, turn?.prompt ?? null);
  // It ended when the last sign of it came: the screen's last change or its last hook line,
  // whichever is later, never before it started.
  const ages = [f.quietSeconds, f.hooks?.lastEventAgeSeconds ?? null]
    .filter((a): a is number => a !== null);
  let endMs = ages.length > 0 ? f.nowMs - Math.min(...ages) * 1000 : f.nowMs;
  if (turn?.atMs != null) endMs = Math.max(endMs, turn.atMs);
  return boundRecord({
    at: new Date(f.nowMs).toISOString(),
    runId: meta.runId,
    agent: agent ?? "unknown",
    event: LISA_TURN_END,
    notificationType: null,
    agentSessionId: null,
    transcriptPath: null,
    preview: null,
    outcome: shown.outcome,
    ...(shown.reply !== null ? { reply: shown.reply } : {}),
    endedAt: new Date(Math.min(endMs, f.nowMs)).toISOString(),
    reason: f.classification.classificationReason,
  });
}

/**
 * Writes the end of a silently ended turn into the hook log (module doc) when `f` says there is
 * one; returns true when a line was written. Never throws: a log that cannot be written leaves
 * the turn to history's sweeps, with a warning on stderr.
 */
export async function recordSilentTurnEnd(deps: Deps, f: SilentEndFacts): Promise<boolean> {
  if (!endsTurnSilently(f)) return false;
  const hooks = f.loc.paths.hooks;
  const turn = openTurnStart(hooks, f.loc.meta!.runId, deps.config);
  try {
    const { appendJsonl } = await lazyImport<typeof import("../../store/events.ts")>(
      new URL("../../store/events.ts", import.meta.url),
    );
    await appendJsonl(hooks, turnEndRecord(f, turn), {
      maxBytes: deps.config.eventsMaxBytes,
      maxLines: deps.config.eventsMaxLines,
      lockTimeoutMs: Math.min(deps.config.eventLockTimeoutMs, LOCK_WAIT_MS),
      keepUnread: true,
    });
    return true;
  } catch (error) {
    warn(deps.io, `could not record the end of the turn: ${(error as Error).message}`);
    return false;
  }
}
