/**
 * Codex 0.169 as measured on this machine (DESIGN §4.7). The pane title carries a spinner prefix
 * while a turn runs, the folder name while idle, and `[ ! ] Action Required | <folder>` while an
 * approval waits; the screen shows `esc to interrupt` while working and a question while it
 * needs a person.
 */
import type { AgentRules } from "./types.ts";

/** Codex's screen rules, CPU thresholds and idle helpers. */
export const CODEX_RULES: AgentRules = {
  agent: "codex",
  rules: [
    {
      name: "codex_title_action_required",
      agent: "codex",
      source: "title",
      pattern: "^\\[ ! \\] Action Required",
      kind: "permission",
    },
    {
      name: "codex_permission_run_command",
      agent: "codex",
      source: "screen",
      pattern: "Would you like to run the following command\\?",
      kind: "permission",
    },
    {
      name: "codex_permission_confirm",
      agent: "codex",
      source: "screen",
      pattern: "Press enter to confirm or esc to cancel",
      flags: "i",
      kind: "permission",
    },
    {
      name: "codex_title_spinner",
      agent: "codex",
      source: "title",
      // Braille and the usual dot/circle spinner glyphs, then a space.
      pattern: "^[\\u2800-\\u28FF◐◓◑◒◴◷◶◵●○◉•]\\s",
      kind: "working",
    },
    {
      name: "codex_esc_to_interrupt",
      agent: "codex",
      source: "screen",
      pattern: "esc to interrupt",
      flags: "i",
      kind: "working",
    },
    {
      name: "codex_title_folder_idle",
      agent: "codex",
      source: "title",
      pattern: "^{folder}$",
      kind: "idle",
    },
  ],
  // Idle 0–0.3 %, working 4–7.5 %, start-up burst 20–24 % for ~5 s (inside the grace window).
  cpu: { idleMaxPercent: 0.3, busyMinPercent: 2 },
  idleHelpers: [],
};
