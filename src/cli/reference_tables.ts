/**
 * What the reference page (`docs/reference.md`, `reference.ts`) says of each state, each kind of
 * waiting and each exit code. Keyed by the code's own types, so a new state or kind of waiting
 * fails the type check until it is documented here. Data only: nothing of lisa runs it.
 */
import type { SessionStateName } from "../base/types.ts";
import { STDOUT_CLOSED_EXIT_CODE } from "../base/io.ts";
import type { WaitingFor } from "../core/status/mod.ts";

/** What each session state means. */
export const STATE_MEANINGS: Readonly<Record<SessionStateName, string>> = {
  just_started: "inside the session's grace window and quiet (no sign of work yet)",
  in_progress: "the agent is working (hook, spinner, CPU, a busy child, changing output)",
  waiting_input: "the agent (or a `--command` blocked reading its terminal: a `read` prompt, " +
    "`cat`) waits for a person; `waitingFor` says for what (below)",
  completed: "the command exited 0",
  crashed: "the command exited non-zero; `exitCode` says how",
  stuck: "alive but no progress for `LISA_STALL_SECONDS` (with `stall`), or nothing runs in " +
    "the pane after the grace window and nothing there waits for keyboard input",
  degraded: "lisa could not read its own state (a lock held too long, an I/O error); retried",
  not_found: "no such session; `classificationReason` `server_gone` when the session's whole " +
    "tmux server is gone",
};

/** What the person has to do for each `waitingFor` of a `waiting_input` session. */
export const WAITING_FOR_MEANINGS: Readonly<Record<WaitingFor, string>> = {
  input: "the turn finished (or never started): type the next prompt",
  permission: "a dialog where `1`, `y` or Enter approves: answer it with `send --keys` " +
    "(`send --text` is refused, `agent_waiting_permission`)",
  quota: "a usage or rate limit (claude `API Error: Request rejected (429)`, `You've hit your " +
    "session limit · resets …`; codex `exceeded retry limit, last status: 429`, `You’ve hit " +
    "your usage limit`)",
  auth: "a credential to fix (claude `Invalid API key`, `Please run /login`; codex `401 " +
    "Unauthorized`, `Incorrect API key`)",
  error: "the model API kept failing (claude `API Error: 529 Overloaded`; codex `Selected model " +
    "is at capacity`, `unexpected status 5xx`)",
};

/** One exit code and what it means. */
export interface ExitCodeRow {
  code: number;
  meaning: string;
}

/** The exit codes every verb shares. */
export const EXIT_CODES: readonly ExitCodeRow[] = [
  {
    code: 0,
    meaning: "success: `completed`, `waiting_input`, `marker_found`, a matched `--until-state`; " +
      "`status` of any state (also `not_found`, unless `--fail-not-found`)",
  },
  {
    code: 1,
    meaning: "command or runtime error: bad flags, unknown command, tmux/IO failure, a session " +
      "that must exist and does not",
  },
  {
    code: 2,
    meaning: "`monitor` non-success: `crashed`, `stuck`, `not_found`, `max_polls_exceeded`, " +
      "`degraded_max_polls_exceeded`, `timeout`, `expected_terminal_got_<reason>`, " +
      "`expected_marker_got_<reason>`",
  },
  {
    code: STDOUT_CLOSED_EXIT_CODE,
    meaning: "`monitor` stopped because nobody reads its output any more (`exitReason` " +
      "`stdout_closed`, see below)",
  },
];
