/**
 * What `send --text` checks before typing (issue 13): an agent still starting up is waited for
 * (bounded by `--ready-timeout`) instead of having text typed into its boot screen, and an agent
 * showing a permission dialog (where `1`, `y` or Enter approves) gets no text at all unless the
 * caller passes `--force`: `send --keys` is how a person answers a dialog. Keys-only sends are
 * never checked. The status module is loaded only when a check runs.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { SessionStateName } from "../../base/types.ts";
import type { SessionLocation } from "../session/mod.ts";

/** Default of `--ready-timeout`, in seconds. */
export const DEFAULT_READY_TIMEOUT_SECONDS = 20;
/** Pause between two looks at a starting agent. */
export const READY_POLL_MS = 500;

/** The state the agent was in when the text went out (`send --json` `agentState`). */
export interface AgentStateAtSend {
  sessionState: SessionStateName;
  waitingFor: string | null;
  classificationReason: string;
  /** How long the send waited for the agent to be ready, in ms. */
  waitedMs: number;
}

/** Options of {@link guardTextSend}. */
export interface GuardOptions {
  /** Type even into a permission dialog or a starting agent. */
  force: boolean;
  /** Longest wait for a starting agent, in ms. */
  readyTimeoutMs: number;
}

/** The parts of a status answer the guard reads. */
interface Seen {
  sessionState: SessionStateName;
  waitingFor: string | null;
  classificationReason: string;
  signals: {
    screenRules: string[];
    outputQuietSeconds: number | null;
    sessionAgeSeconds: number | null;
  };
}

/**
 * True when a session accepts typed text. An agent inside its start-up grace window
 * (`graceSeconds` from spawn) that is `just_started` or `in_progress` (loading: codex burns CPU
 * for its first seconds) is still starting, unless its own idle prompt is drawn and has stopped
 * changing; any other answer, and any answer past the window, accepts input. Pure.
 */
export function acceptsInput(s: Seen, idleRules: readonly string[], graceSeconds: number): boolean {
  const age = s.signals.sessionAgeSeconds;
  const starting = (s.sessionState === "just_started" || s.sessionState === "in_progress") &&
    age !== null && age < graceSeconds;
  if (!starting) return true;
  const idleDrawn = s.signals.screenRules.some((r) => idleRules.includes(r));
  return idleDrawn && (s.signals.outputQuietSeconds ?? 0) >= 1;
}

/**
 * Checks a text send to the session at `loc` (see the module doc) and returns the agent's state
 * then; null when nothing was checked: `force`, or a session without an agent (`--command`, or
 * not spawned by lisa). Throws `agent_waiting_permission` at a permission dialog and `agent_not_ready` when
 * the agent is still starting after the ready timeout; nothing is typed then.
 */
export async function guardTextSend(
  deps: Deps,
  loc: SessionLocation,
  options: GuardOptions,
): Promise<AgentStateAtSend | null> {
  const meta = loc.meta;
  // --force: the caller takes responsibility; lisa does not even look.
  // A meta without an agent lisa knows (older, foreign, damaged) has no agent to wait for.
  if (
    options.force || meta === undefined || meta.commandOnly || meta.agent === undefined
  ) return null;
  const { sessionStatus } = await lazyImport<typeof import("./status_check.ts")>(
    new URL("./status_check.ts", import.meta.url),
  );
  const { rulesFor } = await lazyImport<typeof import("../../agents/rules/index.ts")>(
    new URL("../../agents/rules/index.ts", import.meta.url),
  );
  const idleRules = rulesFor(meta.agent).rules.filter((r) => r.kind === "idle").map((r) => r.name);
  const started = deps.now().getTime();
  let seen: Seen;
  for (;;) {
    seen = (await sessionStatus(deps, { session: loc.session, projectRoot: meta.projectRoot }))
      .report;
    const waited = deps.now().getTime() - started;
    if (acceptsInput(seen, idleRules, deps.config.graceSeconds)) break;
    if (waited >= options.readyTimeoutMs) {
      throw new LisaError(
        "agent_not_ready",
        `Session "${loc.session}" is still starting (${seen.classificationReason}) after ` +
          `${Math.round(waited / 1000)} s; nothing was sent (raise --ready-timeout, or --force)`,
        { details: { session: loc.session, sessionState: seen.sessionState } },
      );
    }
    await deps.sleep(Math.min(READY_POLL_MS, options.readyTimeoutMs - waited));
  }
  const state: AgentStateAtSend = {
    sessionState: seen.sessionState,
    waitingFor: seen.waitingFor,
    classificationReason: seen.classificationReason,
    waitedMs: deps.now().getTime() - started,
  };
  if (seen.sessionState === "waiting_input" && seen.waitingFor === "permission") {
    throw new LisaError(
      "agent_waiting_permission",
      `Session "${loc.session}" is showing a permission dialog (${seen.classificationReason}); ` +
        "text typed now would answer it. Nothing was sent: answer it with --keys " +
        "(e.g. --keys Escape, or --keys 1), or pass --force to type anyway",
      { details: { session: loc.session, ...state } },
    );
  }
  return state;
}
