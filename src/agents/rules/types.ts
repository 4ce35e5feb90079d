/**
 * The shape of per-agent screen and CPU knowledge (DESIGN §4.7). Each agent has one data module
 * (`claude.ts`, `codex.ts`) so that a UI change of an agent is a data change, not a code change.
 */
import type { Agent } from "../../base/types.ts";

/** What a matched rule says about the agent. */
export type ScreenKind = "working" | "permission" | "idle";

/**
 * One piece of screen evidence. `pattern` is a regular-expression source tested against the
 * pane title (`source: "title"`) or the visible screen (`source: "screen"`); `{folder}` in it
 * stands for the escaped basename of the session's project root. `name` appears in
 * `classificationReason` (as `screen:<name>`), so it must be stable and unique.
 */
export interface ScreenRule {
  name: string;
  agent: Agent;
  source: "title" | "screen";
  pattern: string;
  /** RegExp flags (default none; "i" for case-insensitive). */
  flags?: string;
  kind: ScreenKind;
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
