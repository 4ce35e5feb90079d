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
 * - a failed turn (the mock answering with the status; tests/fixtures/screens/
 *   real_codex_{auth,rate_limit,usage_limit,overloaded}.txt): one `■ ` row under the echoed
 *   prompt, then the idle composer: `■ unexpected status 401 Unauthorized: Incorrect API key …`,
 *   `■ exceeded retry limit, last status: 429 Too Many Requests, …`, `■ You’ve hit your usage
 *   limit. … try again at Nov 26th, 2026 12:22 AM.` (OpenAI's `usage_limit_reached` with
 *   `resets_at`; codex adds a "Switch to … model?" chooser), `■ Selected model is at capacity.
 *   Please try a different model.` (503 overloaded). No notify fires for a failed turn.
 *
 * Anchoring: codex's answers start with `• ` and continue with a two-space indent, like the
 * approval question, so the question rule lists the approval questions codex asks instead of
 * any "Would you like to …?" (answers often end with such a question).
 */
import type { AgentRules } from "./types.ts";

/**
 * After a blocked message, an answer (`• `) or a prompt row (`› `) that is itself followed by
 * another `› ` row (the composer, always the last one) means the agent went on since.
 */
const CODEX_LATER_TURN = "^(?:• |› )[^\\n]*\\n[\\s\\S]*^› ";

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
      needles: ["Action Required"],
    },
    {
      name: "codex_permission_run_command",
      agent: "codex",
      source: "screen",
      pattern:
        "^ {0,2}Would you like to (?:run the following command|make the following edits|grant these permissions|send input to (?:the existing )?terminal)\\?[ \\t]*$",
      flags: "m",
      kind: "permission",
      needles: ["Would you like to "],
    },
    {
      name: "codex_permission_options",
      agent: "codex",
      source: "screen",
      // `› 1. Yes, proceed (y)`: the key hint in parentheses belongs to the approval overlay.
      pattern: "^[› ] 1\\. Yes\\b[^\\n]*\\(y\\)[ \\t]*$",
      flags: "m",
      kind: "permission",
      needles: ["1. Yes"],
    },
    {
      name: "codex_permission_confirm",
      agent: "codex",
      source: "screen",
      pattern: "^ {0,2}Press enter to confirm or esc to cancel",
      flags: "mi",
      kind: "permission",
      needles: ["press enter to confirm or esc to cancel"],
    },
    // A person must act: limits, credentials, a failing API (newest message only).
    {
      name: "codex_quota_usage_limit",
      agent: "codex",
      source: "screen",
      pattern:
        "^■ You[’']ve hit your usage limit\\b(?:[^\\n]*?try again at (?<resets>[^\\n]*?)\\.?[ \\t]*$)?",
      flags: "m",
      kind: "quota",
      needles: ["ve hit your usage limit"],
      staleAfter: CODEX_LATER_TURN,
    },
    {
      name: "codex_quota_rate_limited",
      agent: "codex",
      source: "screen",
      pattern:
        "^■ (?:exceeded retry limit, last status: 429\\b|unexpected status 429\\b|Rate limit reached)",
      flags: "m",
      kind: "quota",
      needles: ["429", "Rate limit reached"],
      staleAfter: CODEX_LATER_TURN,
    },
    {
      name: "codex_auth_failed",
      agent: "codex",
      source: "screen",
      pattern:
        "^■ [^\\n]*(?:\\b401 Unauthorized|last status: 401\\b|Incorrect API key|invalid_api_key|Your access token could not be refreshed|[Pp]lease (?:sign|log) in again)",
      flags: "m",
      kind: "auth",
      needles: ["■ "],
      staleAfter: CODEX_LATER_TURN,
    },
    {
      name: "codex_api_error",
      agent: "codex",
      source: "screen",
      pattern:
        "^■ (?:unexpected status \\d{3}|exceeded retry limit|stream disconnected|Selected model is at capacity|[^\\n]*\\b(?:[Oo]verloaded|Internal server error|server_error)\\b)",
      flags: "m",
      kind: "error",
      needles: ["■ "],
      staleAfter: CODEX_LATER_TURN,
    },
    {
      name: "codex_retrying",
      agent: "codex",
      source: "screen",
      // An unreachable API: codex retries forever and adds a row now and then; those rows are
      // not progress (issue 13).
      pattern:
        "(?:Reconnecting\\.{3}|Re-connecting|retrying sampling request|stream disconnected - retrying|stream error[^\\n]*retrying)[^\\n]*\\s*$",
      flags: "i",
      kind: "retrying",
      needles: ["reconnecting...", "re-connecting", "retrying"],
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
      needles: ["esc to interrupt)"],
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
