/**
 * Claude Code 2.1.197 as measured on this machine (DESIGN §4.7). The pane title carries a
 * braille spinner while a turn runs (`⠐ Claude Code`) and `✳ Claude Code` while it waits; the
 * screen shows `esc to interrupt` while working and a dialog while it needs a person.
 */
import type { AgentRules } from "./types.ts";

/** Claude's screen rules, CPU thresholds and idle helpers. */
export const CLAUDE_RULES: AgentRules = {
  agent: "claude",
  rules: [
    {
      name: "claude_permission_proceed",
      agent: "claude",
      source: "screen",
      pattern: "Do you want to proceed\\?",
      kind: "permission",
    },
    {
      name: "claude_permission_confirm",
      agent: "claude",
      source: "screen",
      pattern: "Enter to confirm · Esc to cancel",
      flags: "i",
      kind: "permission",
    },
    {
      name: "claude_title_spinner",
      agent: "claude",
      source: "title",
      pattern: "^[\\u2800-\\u28FF]\\s",
      kind: "working",
    },
    {
      name: "claude_esc_to_interrupt",
      agent: "claude",
      source: "screen",
      pattern: "esc to interrupt",
      flags: "i",
      kind: "working",
    },
    {
      name: "claude_title_idle",
      agent: "claude",
      source: "title",
      pattern: "^✳\\s",
      kind: "idle",
    },
  ],
  // Idle 1–2.5 %, working 6–13 % (per-process ticks from /proc).
  cpu: { idleMaxPercent: 2.5, busyMinPercent: 5 },
  idleHelpers: ["caffeinate"],
};
