/**
 * Codex 0.169 as measured on this machine (DESIGN §4.7), checked against real screens recorded
 * through lisa (tests/fixtures/screens/real_codex_*). The pane title carries a braille spinner
 * while a turn runs (`⠦ project`), the folder name while idle, and `[ ! ] Action Required |
 * <folder>` while an approval waits; the `!` blinks with `.` (`[ . ] Action Required | …`).
 *
 * What the real screens show:
 * - working: `• Working (2s • esc to interrupt)`.
 * - an approval: `  Would you like to run the following command?` (the binary also has "make the
 *   following edits", "grant these permissions", "send input to the existing terminal"), then
 *   `› 1. Yes, proceed (y)` … `  3. No, and tell Codex what to do differently (esc)` and
 *   `  Press enter to confirm or esc to cancel`.
 * - after Esc at an approval: `✗ You canceled the request to run …` and
 *   `■ Conversation interrupted …`, then the idle composer `› Ask Codex to do anything`.
 *
 * Anchoring: codex's answers start with `• ` and continue with a two-space indent, like the
 * approval question, so the question rule lists the approval questions codex asks instead of
 * any "Would you like to …?" (answers often end with such a question).
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
      pattern: "^\\[ [!.] \\] Action Required",
      kind: "permission",
    },
    {
      name: "codex_permission_run_command",
      agent: "codex",
      source: "screen",
      pattern:
        "^ {0,2}Would you like to (?:run the following command|make the following edits|grant these permissions|send input to (?:the existing )?terminal)\\?[ \\t]*$",
      flags: "m",
      kind: "permission",
    },
    {
      name: "codex_permission_options",
      agent: "codex",
      source: "screen",
      // `› 1. Yes, proceed (y)`: the key hint in parentheses belongs to the approval overlay.
      pattern: "^[› ] 1\\. Yes\\b[^\\n]*\\(y\\)[ \\t]*$",
      flags: "m",
      kind: "permission",
    },
    {
      name: "codex_permission_confirm",
      agent: "codex",
      source: "screen",
      pattern: "^ {0,2}Press enter to confirm or esc to cancel",
      flags: "mi",
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
      // `• Working (2s • esc to interrupt)`.
      pattern: "[(•] ?esc to interrupt\\)",
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
