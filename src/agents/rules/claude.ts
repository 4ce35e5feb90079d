/**
 * Claude Code 2.1.197 as measured on this machine (DESIGN §4.7), checked against real screens
 * recorded through lisa (tests/fixtures/screens/real_claude_*). The pane title carries a braille
 * spinner while a turn runs (`⠐ Claude Code`) and `✳ Claude Code` otherwise, including while a
 * permission dialog is open, so only the screen text can tell a dialog from the idle prompt.
 *
 * What the real screens show:
 * - working: a spinner row at column 0 (`✽ Perambulating…`, `✽ Catapulting… (4s · ↓ 15 tokens)`)
 *   and the footer `  esc to interrupt · ← for agents` (with bypass on: `  ⏵⏵ bypass permissions
 *   on (shift+tab to cycle) · esc to interrupt · ← for agents`).
 * - a permission dialog, drawn below the transcript with a one-space indent:
 *   ` Do you want to proceed?` (Bash), ` Do you want to make this edit to app.txt?` (Edit),
 *   ` Do you want to create notes.txt?` (Write; also "overwrite", "allow …", "use this API key"),
 *   then ` ❯ 1. Yes` / `   2. Yes, …` / `   3. No` and ` Esc to cancel · Tab to amend`.
 * - idle: `❯` in the input box between two rules and `  ? for shortcuts` below.
 *
 * Anchoring: claude's own answer rows start with `● ` and continue with a two-space indent, and
 * echoed prompts start with `❯ `, so the one-space indent of dialog rows (or the `│ ` of the older
 * boxed layout) keeps the dialog rules off ordinary answer text that quotes the same words.
 */
import type { AgentRules } from "./types.ts";

/** Claude's screen rules, CPU thresholds and idle helpers. */
export const CLAUDE_RULES: AgentRules = {
  agent: "claude",
  rules: [
    {
      name: "claude_permission_question",
      agent: "claude",
      source: "screen",
      // "proceed", "make this edit to X", "create X", "overwrite X", "allow …", "use this API key".
      pattern: "^│? Do you want to [^\\n]{1,200}\\?",
      flags: "m",
      kind: "permission",
    },
    {
      name: "claude_permission_options",
      agent: "claude",
      source: "screen",
      // ` ❯ 1. Yes` … ` N. No` (the cursor `❯` may sit on any option).
      pattern: "^│? [❯ ] 1\\. Yes\\b[^\\n]*\\n(?:│? [❯ ] \\d\\. [^\\n]*\\n)*│? [❯ ] \\d\\. No\\b",
      flags: "m",
      kind: "permission",
    },
    {
      name: "claude_permission_footer",
      agent: "claude",
      source: "screen",
      pattern: "^│? Esc to cancel · Tab to amend",
      flags: "m",
      kind: "permission",
    },
    {
      name: "claude_permission_confirm",
      agent: "claude",
      source: "screen",
      // Trust and selection dialogs.
      pattern: "^│? Enter to confirm · Esc to cancel",
      flags: "m",
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
      // The footer row: `  esc to interrupt · …`, or after a mode (`⏵⏵ bypass permissions on
      // (shift+tab to cycle) · esc to interrupt · …`); older releases: `(6s · esc to interrupt)`.
      pattern: "^  esc to interrupt(?: ·|[ \\t]*$)|· esc to interrupt\\b",
      flags: "m",
      kind: "working",
    },
    {
      name: "claude_spinner_row",
      agent: "claude",
      source: "screen",
      // `✽ Perambulating…` at column 0; a finished turn leaves `✻ Churned for 10s` (no `…`).
      pattern: "^[·✢✳✶✻✽*] \\p{Lu}[\\p{L} '-]{0,60}…",
      flags: "m",
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
