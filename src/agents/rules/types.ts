/**
 * The shape of per-agent screen and CPU knowledge (DESIGN §4.7). Each agent has one data module
 * (`claude.ts`, `codex.ts`) so that a UI change of an agent is a data change, not a code change.
 */
import type { Agent } from "../../base/types.ts";

/**
 * What a matched rule says about the agent. Besides working, idle and a permission dialog, a
 * rule can say that a person must act for another reason (issue 13): `quota` (a usage or rate
 * limit), `auth` (a missing, invalid or expired credential), `error` (the model API keeps
 * failing); and `retrying`: the agent is retrying an unreachable API, so new rows on its screen
 * are not progress.
 */
export type ScreenKind =
  | "working"
  | "permission"
  | "idle"
  | "quota"
  | "auth"
  | "error"
  | "retrying";

/** The kinds that mean "a person must act", beside a permission dialog. */
export const BLOCKED_KINDS = ["quota", "auth", "error"] as const;
/** One of {@link BLOCKED_KINDS}. */
export type BlockedKind = typeof BLOCKED_KINDS[number];

/**
 * One piece of screen evidence. `pattern` is a regular-expression source tested against the
 * pane title (`source: "title"`) or the visible screen (`source: "screen"`); `{folder}` in it
 * stands for the escaped basename of the session's project root. `name` appears in
 * `classificationReason` (as `screen:<name>`), so it must be stable and unique.
 */
export interface ScreenRule {
  name: string;
  agent: Agent;
  /**
   * `title`: the pane title; `screen`: the visible rows; `hook`: the message of the agent's last
   * hook record when that record reports a failed turn (claude's StopFailure).
   */
  source: "title" | "screen" | "hook";
  pattern: string;
  /** RegExp flags (default none; "i" for case-insensitive). */
  flags?: string;
  kind: ScreenKind;
  /**
   * Screen rules only: a row pattern (multiline regexp source) that, found after the matched
   * row, makes the match stale: a later prompt or answer shows the agent went on since. A
   * blocked message stays in the transcript after the person dealt with it.
   */
  staleAfter?: string;
  /**
   * Literal strings of which the text must hold at least one for `pattern` to match: a cheap
   * `includes` pre-filter that spares compiling and running the regexp on the many screens that
   * cannot match (status is polled constantly). Compared case-insensitively when `flags` hold
   * "i" (then written in lower case). Absent: the regexp always runs.
   */
  needles?: readonly string[];
  /**
   * A named group `resets` in `pattern` captures when a limit resets, as the agent words it
   * (`8:50pm (UTC)`, `in 2 hours`); status turns it into `resetsAt`.
   */
}

/** Recent-CPU thresholds of an agent's own process, in percent of one core. */
export interface CpuThresholds {
  /** Measured idle ceiling: at or below this the agent is quiet. */
  idleMaxPercent: number;
  /** At or above this the agent counts as busy (between the two: not busy, not idle). */
  busyMinPercent: number;
}

/** Everything lisa knows about one agent's looks and habits. */
export interface AgentRules {
  agent: Agent;
  rules: readonly ScreenRule[];
  cpu: CpuThresholds;
  /**
   * Executable names of descendants that run while the agent idles and therefore do not make it
   * busy. `sleep` and `cat` never belong here (DESIGN §9 defect 4): a tool call runs them.
   */
  idleHelpers: readonly string[];
}
