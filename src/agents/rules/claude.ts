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
 * - a failed turn (API key auth, the mock answering with the status; tests/fixtures/screens/
 *   real_claude_{auth,rate_limit,usage_limit,overloaded}.txt): the error under the echoed prompt,
 *   `  ⎿  Invalid API key · Fix external API key` (401), `● API Error: Request rejected (429) · …`
 *   (429, whatever the rate-limit headers), `● API Error: 529 Overloaded. …` (529), then
 *   `✻ Baked for 0s` and the idle prompt; the StopFailure hook carries the same message.
 *   Subscription users see their plan's limits instead, e.g. `You've hit your session limit ·
 *   resets 8:50pm (UTC)` (agent-deck issue 1802) or "Please run /login" when signed out: rules
 *   for those texts come from the strings of the 2.1.197 binary.
 *
 * Anchoring: claude's own answer rows start with `● ` and continue with a two-space indent, and
 * echoed prompts start with `❯ `, so the one-space indent of dialog rows (or the `│ ` of the older
 * boxed layout) keeps the dialog rules off ordinary answer text that quotes the same words.
 *
 * The blocked-state rules (quota, auth, error) match claude's own error rows only, in the shapes
 * it draws them: `● API Error: …` rows, and its limit and credential messages either at column 0
 * (`You've hit your session limit · resets 4:20am (Europe/Warsaw)`, anthropics/claude-code
 * issue 77262) or as a `  ⎿  ` row right under the echoed prompt (`  ⎿  Invalid API key · Fix
 * external API key`; the texts are the 2.1.197 binary's). An answer never starts at column 0 and
 * never with `  ⎿  ` under the prompt (a tool's output does, but under its `● Tool(…)` row), so
 * an answer that quotes such a message (`● … Please run /login and retry`, `● You've reached
 * your monthly upload limit`) matches none of them. One shape cannot be told apart: an answer
 * whose very first words are `API Error: 4xx`; the StopFailure hook rules read the real errors.
 */
import type { AgentRules } from "./types.ts";

/** Rows after a blocked message that show the agent went on: an answer or a new prompt. */
const CLAUDE_LATER_TURN = "^(?:● |❯ \\S[^\\n]*\\n(?!─))";

/**
 * The start of a row claude writes about the turn itself: column 0, or `  ⎿  ` right under the
 * echoed prompt `❯ …` (after its two-space continuation rows and blank rows only: an answer's
 * `● ` row or a tool call between them breaks the chain). Used after `^` with the `m` flag.
 */
const CLAUDE_OWN_ROW = "(?:(?<=^❯ [^\\n]*\\n(?:(?:  (?!⎿)[^\\n]*)?\\n)*)  ⎿\\s+)?";

/**
 * Claude's limit messages (2.1.197: "You've hit your session limit · resets …", "… weekly …",
 * "… monthly spend limit.", "You're out of usage credits", "You're out of extra usage").
 */
const CLAUDE_LIMIT =
  "You(?:['’]ve hit your|['’]ve reached your|['’]re out of) [^\\n·]{0,60}(?:limit|usage|credits)[^\\n·]{0,40}?(?: · resets (?<resets>[^\\n·]{1,60}))?";

/** Claude's credential messages (2.1.197), each as the whole start of its row. */
const CLAUDE_AUTH =
  "(?:Invalid API key · |Not logged in · (?:Please run|Run) /login|OAuth token (?:has expired|revoked)|Invalid bearer token|(?:Your session has expired|Session expired)\\. Please run /login)";

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
      needles: ["Do you want to "],
    },
    {
      name: "claude_permission_options",
      agent: "claude",
      source: "screen",
      // ` ❯ 1. Yes` … ` N. No` (the cursor `❯` may sit on any option).
      pattern: "^│? [❯ ] 1\\. Yes\\b[^\\n]*\\n(?:│? [❯ ] \\d\\. [^\\n]*\\n)*│? [❯ ] \\d\\. No\\b",
      flags: "m",
      kind: "permission",
      needles: ["1. Yes"],
    },
    {
      name: "claude_permission_footer",
      agent: "claude",
      source: "screen",
      pattern: "^│? Esc to cancel · Tab to amend",
      flags: "m",
      kind: "permission",
      needles: ["Esc to cancel · Tab to amend"],
    },
    {
      name: "claude_permission_confirm",
      agent: "claude",
      source: "screen",
      // Trust and selection dialogs.
      pattern: "^│? Enter to confirm · Esc to cancel",
      flags: "m",
      kind: "permission",
      needles: ["Enter to confirm · Esc to cancel"],
    },
    // A person must act: limits, credentials, a failing API. The message counts only while it
    // is the newest thing in the transcript: an answer row (`● `) or an echoed prompt (a `❯ `
    // row not followed by the input box's rule) after it means the agent went on since.
    {
      name: "claude_quota_limit",
      agent: "claude",
      source: "screen",
      pattern: `^${CLAUDE_OWN_ROW}${CLAUDE_LIMIT}`,
      flags: "m",
      kind: "quota",
      needles: ["You'", "You’"],
      staleAfter: CLAUDE_LATER_TURN,
    },
    {
      name: "claude_quota_rate_limited",
      agent: "claude",
      source: "screen",
      pattern: "^● API Error: (?:Request rejected \\(429\\)|429\\b)",
      flags: "m",
      kind: "quota",
      needles: ["API Error: "],
      staleAfter: CLAUDE_LATER_TURN,
    },
    {
      name: "claude_auth_failed",
      agent: "claude",
      source: "screen",
      pattern:
        `^(?:● API Error: (?:Request rejected \\(401\\)|401\\b)|${CLAUDE_OWN_ROW}${CLAUDE_AUTH})`,
      flags: "m",
      kind: "auth",
      needles: [
        "Invalid API key",
        "API Error: ",
        "OAuth token ",
        "Invalid bearer token",
        "Not logged in",
        "Please run /login",
      ],
      staleAfter: CLAUDE_LATER_TURN,
    },
    {
      name: "claude_api_error",
      agent: "claude",
      source: "screen",
      // 529 Overloaded, 500s, connection errors: anything else the API answered with (not a
      // request the person aborted with Esc: nothing to fix there).
      pattern: "^● API Error: (?!Request was aborted)",
      flags: "m",
      kind: "error",
      needles: ["API Error: "],
      staleAfter: CLAUDE_LATER_TURN,
    },
    {
      name: "claude_hook_quota",
      agent: "claude",
      source: "hook",
      pattern:
        "^API Error: (?:Request rejected \\(429\\)|429\\b)|You(?:['’]ve hit your|['’]ve reached your|['’]re out of) [^·]{0,60}(?:limit|usage|credits)[^·]{0,40}?(?: · resets (?<resets>[^·]{1,60}))?",
      kind: "quota",
      needles: ["API Error: ", "You'", "You’"],
    },
    {
      name: "claude_hook_auth",
      agent: "claude",
      source: "hook",
      pattern:
        "^(?:Invalid API key|API Error: (?:Request rejected \\(401\\)|401\\b)|OAuth token (?:has expired|revoked)|Not logged in)|Please run /login",
      kind: "auth",
      needles: [
        "Invalid API key",
        "API Error: ",
        "OAuth token ",
        "Not logged in",
        "Please run /login",
      ],
    },
    {
      name: "claude_hook_api_error",
      agent: "claude",
      source: "hook",
      pattern: "^API Error: ",
      kind: "error",
      needles: ["API Error: "],
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
      needles: ["esc to interrupt"],
    },
    {
      name: "claude_spinner_row",
      agent: "claude",
      source: "screen",
      // `✽ Perambulating…` at column 0; a finished turn leaves `✻ Churned for 10s` (no `…`).
      pattern: "^[·✢✳✶✻✽*] \\p{Lu}[\\p{L} '-]{0,60}…",
      flags: "m",
      kind: "working",
      needles: ["…"],
    },
    {
      name: "claude_title_idle",
      agent: "claude",
      source: "title",
      pattern: "^✳\\s",
      kind: "idle",
      needles: ["✳"],
    },
  ],
  // Idle 1–2.5 %, working 6–13 % (per-process ticks from /proc).
  cpu: { idleMaxPercent: 2.5, busyMinPercent: 5 },
  idleHelpers: ["caffeinate"],
};
