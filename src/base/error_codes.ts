/**
 * Every `errorCode` lisa reports, with when it happens: the one table of error codes. The table
 * of docs/reference.md is generated from it (`deno task docs`), and a test fails when code in
 * `src/` throws a code that is not here.
 */

/** One row: the codes and when they happen. */
export interface ErrorCodeRow {
  codes: readonly string[];
  when: string;
}

/** The error codes, grouped as the reference shows them. */
export const ERROR_CODES: readonly ErrorCodeRow[] = [
  {
    codes: ["invalid_argument"],
    when: "a flag value is malformed (not a number, not one of the choices, a bad `--delta-from`)",
  },
  {
    codes: ["unknown_command", "unknown_option"],
    when: 'a typo; the message names the nearest real commands or flags ("did you mean"), if any',
  },
  {
    codes: ["missing_argument", "unexpected_argument", "conflicting_options"],
    when: "flags missing, extra words, flags that exclude each other",
  },
  {
    codes: ["invalid_agent", "invalid_mode", "invalid_session_name"],
    when: "`--agent`, `--mode` or `--session` is not valid",
  },
  {
    codes: ["invalid_key"],
    when: "`send --keys` names a key tmux does not know (with a suggestion); nothing was sent",
  },
  { codes: ["file_not_found"], when: "`--text-file` / `--prompt-file` does not exist" },
  {
    codes: ["prompt_too_large"],
    when: "an interactive spawn's prompt is over 128 KiB (one argv word); use exec mode or `send`",
  },
  { codes: ["session_not_found"], when: "the session does not exist (commands that need one)" },
  { codes: ["session_already_exists"], when: "`spawn --session` names a session that exists" },
  {
    codes: ["project_root_not_found"],
    when: "`--project-root` (or `LISA_PROJECT_ROOT`, or cwd) is not an existing directory",
  },
  {
    codes: ["runtime_dir_unsafe"],
    when: "the runtime dir is a symlink, foreign-owned or open to group/other",
  },
  {
    codes: ["socket_dir_unsafe"],
    when: "`LISA_TMUX_SOCKET_DIR` is a symlink, foreign-owned, writable by group/other, or " +
      "cannot be created",
  },
  {
    codes: ["socket_path_too_long"],
    when: "spawn: the tmux socket's path would pass 107 bytes; set a shorter LISA_TMUX_SOCKET_DIR",
  },
  {
    codes: ["file_unsafe", "events_file_unsafe"],
    when: "a file in lisa's dirs (state, lock, event log) is a symlink or not a regular file: " +
      "never followed",
  },
  { codes: ["file_changed"], when: "a file shrank while lisa read it (an outside edit); retry" },
  {
    codes: ["lock_busy"],
    when: "a state/event lock, a session's input lock (a send) or the project's spawn lock (a " +
      "spawn, prune, cleanup) stayed held past its timeout",
  },
  { codes: ["meta_unreadable"], when: "a session's meta file is corrupt or a symlink" },
  { codes: ["program_not_found"], when: "tmux (or another needed program) is not on PATH" },
  {
    codes: ["command_failed", "command_timeout", "tmux_failed"],
    when: "a subprocess failed or timed out",
  },
  {
    codes: ["interrupted"],
    when: "a signal (SIGINT/SIGTERM/SIGHUP) stopped a merge or worktree spawn, undone, or a " +
      "send that had begun writing, finished first (`sent`); exit 128 + its number",
  },
  {
    codes: ["spawn_script_error", "spawn_tmux_error", "spawn_meta_error"],
    when: "spawn failed at that step; everything it created was removed",
  },
  {
    codes: ["kill_failed", "processes_remaining"],
    when: "kill could not end the session or some of its processes (listed in the payload)",
  },
  {
    codes: ["cursor_file_error", "cursor_file_unsafe"],
    when: "`--cursor-file` cannot be read, or is a symlink / not a regular file",
  },
  { codes: ["internal_error"], when: "a bug: please report it with the command line" },
  {
    codes: ["cancelled"],
    when:
      "`lisa mcp`: the client cancelled the call (`notifications/cancelled`); no result follows",
  },
  // issue 11
  {
    codes: ["session_ambiguous"],
    when: "`--session` (or a session left out) matches several sessions; the payload lists " +
      "`candidates`",
  },
  {
    codes: ["session_not_running"],
    when:
      "send/attach: the session's command has finished; nothing sent (payload: `state`, `exitCode`)",
  },
  {
    codes: ["pane_input_off"],
    when: "send: the session's pane lives but its input is turned off (`tmux select-pane -d`); " +
      "nothing (more) sent (payload: `sent`)",
  },
  {
    codes: ["attach_self"],
    when: "attach run from a shell inside that very session (it would show itself inside itself)",
  },
  { codes: ["not_a_terminal"], when: "attach: stdin/stdout is not a terminal" },
  {
    codes: ["cursor_file_requires_delta_json"],
    when: "`session list`/`tree` got `--cursor-file` without `--delta-json`",
  },
  {
    codes: ["smoke_failed", "prompt_probe_failed", "matrix_failed"],
    when: "`session smoke` failed: a level, its `--prompt-style` probe, or a `--matrix-file` row",
  },
  {
    codes: ["preflight_failed"],
    when: "`session preflight`: an environment check or a contract self-check failed",
  },
  {
    codes: ["history_unavailable"],
    when: "no `node:sqlite` in this runtime, or no place for the history db (LISA_HISTORY_DB/HOME)",
  },
  {
    codes: ["history_busy"],
    when: "another lisa held the history db's write lock past its busy timeout (5 s); retry",
  },
  {
    codes: ["history_unsafe"],
    when:
      "the history db or its dir is a symlink, not yours, or open to others (file) or writable (dir)",
  },
  {
    codes: ["history_schema_newer"],
    when: "the history db was written by a newer lisa (its schema version is higher)",
  },
  { codes: ["history_error"], when: "any other history db failure (the message says which)" },
  // issue 15
  {
    codes: ["not_a_git_repo", "base_not_found"],
    when:
      "`spawn --worktree` outside a git repository, or `--base` is not a commit: nothing created",
  },
  {
    codes: ["invalid_branch_name", "branch_exists"],
    when: "`spawn --worktree --branch` is not a valid branch name, or exists: nothing created",
  },
  {
    codes: ["worktree_exists", "worktree_dir_inside_repo"],
    when: "the worktree's directory is already there (or an earlier run of the name still has " +
      "its worktree recorded, even moved or deleted by hand), or would be inside the repository",
  },
  {
    codes: ["worktree_create_failed"],
    when: "git could not create the worktree (its message); nothing was left behind",
  },
  {
    codes: ["worktree_not_found"],
    when: "`diff`/`merge` of a session without a worktree (spawned without `--worktree`)",
  },
  { codes: ["session_busy"], when: "`merge` while the agent is working (without `--force`)" },
  {
    codes: ["merge_refused"],
    when:
      "`merge` into a checkout on a detached HEAD, or mid-merge, rebase, am, cherry-pick, revert, bisect",
  },
  {
    codes: ["merge_dirty_checkout"],
    when: "the main checkout has staged changes, or local changes in files the merge changes",
  },
  {
    codes: ["merge_conflict"],
    when: "`merge` conflicts (exit 2): aborted, main checkout as it was, files in `conflicts`",
  },
  { codes: ["merge_failed", "git_failed"], when: "git failed otherwise (its message included)" },
  {
    codes: ["agent_waiting_permission"],
    when: "`send --text` to an agent showing a permission dialog (answer it with --keys, or " +
      "--force)",
  },
  {
    codes: ["agent_not_ready"],
    when: "`send --text` to an agent still starting after `--ready-timeout` (nothing was typed)",
  },
  {
    codes: ["send_unconfirmed"],
    when: "text sent with Enter showed no receipt within `--confirm-timeout` (the text was left " +
      "typed, nothing re-sent; `--retry-enter` presses Enter once more)",
  },
  {
    codes: ["turn_busy"],
    when: "`send --wait` while another `send --wait` waits on the same session (nothing was sent)",
  },
  // issue 22
  {
    codes: ["skill_foreign"],
    when: "`skill install`: a SKILL.md lisa did not write (or edited since, or a symlink) is " +
      "in the way; nothing written (`--force` replaces it)",
  },
  {
    codes: ["skill_path_invalid"],
    when: "`skill install`: no HOME, a file where a folder goes, or a project's symlink leading " +
      "out of the project",
  },
  {
    codes: ["skill_write_failed"],
    when: "`skill install` could not write (its I/O error); the message says what was written",
  },
  // issue 24
  {
    codes: ["invalid_host"],
    when: "`--host` (or `NAME:` before a session) is not a host name, or no host of the hosts " +
      "file has it; refused before any ssh runs",
  },
  {
    codes: ["hosts_file_invalid"],
    when: "the hosts file is not valid (the message lists each problem) or others may write " +
      "it; nothing reached any host",
  },
  {
    codes: ["host_unreachable"],
    when: "ssh could not reach the host (or the connection broke), or no answer within " +
      "`LISA_HOST_TIMEOUT_SECONDS`; never run locally instead",
  },
  {
    codes: ["host_lisa_failed"],
    when: "the host's `lisa` command line could not run there (exit 126/127), or answered " +
      "with no JSON",
  },
  {
    codes: ["host_version_mismatch"],
    when: "`hosts check`: the host's lisa speaks an older or newer JSON contract",
  },
];

/** Every code of {@link ERROR_CODES}. */
export function allErrorCodes(): Set<string> {
  return new Set(ERROR_CODES.flatMap((r) => r.codes));
}
