/**
 * The startup script a session's pane runs (`bash <script>`, DESIGN §4.5). Pure: builds text.
 *
 * What the script does, in order:
 * 1. `umask 077`, then deletes itself (bash keeps reading the open file), so the caller's
 *    environment written into it does not linger on disk.
 * 2. Replaces the environment it got from the tmux server (a copy of whatever environment the
 *    server was started with, possibly long ago) by the spawn caller's: every inherited
 *    variable is unset except those tmux sets for the pane, then the caller's variables are
 *    exported, then the session's `LISA_*` variables.
 * 3. Starts the heartbeat: a background `lisa-heartbeat` process (argv[0], so process scans can
 *    tell it from the agent) that rewrites the heartbeat file every 2 s while the script lives
 *    and the file exists (so it never recreates a file that `kill` removed).
 * 4. Prints `__LISA_SESSION_START__:{runId}:{unix seconds}`, runs the command as a child and
 *    takes its real status: `exit N` and `set -e` inside `--command` (run by `bash -c`), and a
 *    death by signal n as 128+n. SIGINT is caught by the script (not ignored, so the child
 *    still gets the default action) so Ctrl-C in the pane ends the command, not the wrapper.
 * 5. Writes `{runId}:{exit}` to the done file through a temp file and `mv` (0600 by umask),
 *    stops the heartbeat, prints `__LISA_SESSION_DONE__:{runId}:{exit}`, exits with the status.
 *
 * There is no EXIT trap: a TERM/HUP/KILL from `lisa session kill` ends the script on the spot,
 * so nothing writes artifacts after a kill.
 */
import { feedStdin, isShellName, shellJoin, shellQuote } from "./shell_quote.ts";

/** Variables tmux sets for the pane itself; the caller's values would be wrong there. */
const TMUX_OWNED = [
  "TMUX",
  "TMUX_PANE",
  "TERM",
  "COLUMNS",
  "LINES",
  "SHLVL",
  "PWD",
  "OLDPWD",
  "_",
];
/** bash variables that are read-only (exporting them would fail loudly in the pane). */
const BASH_READONLY = ["SHELLOPTS", "BASHOPTS", "BASH_VERSINFO", "UID", "EUID", "PPID"];

/** argv[0] of the heartbeat process (process scans skip its subtree). */
export const HEARTBEAT_ARGV0 = "lisa-heartbeat";
/** Start marker prefix: `__LISA_SESSION_START__:{runId}:{ts}`. */
export const START_MARKER = "__LISA_SESSION_START__";
/** Done marker prefix: `__LISA_SESSION_DONE__:{runId}:{exit}`. */
export const DONE_MARKER = "__LISA_SESSION_DONE__";

/** True when the caller's variable `name` is carried into the session. */
export function isForwardedVar(name: string): boolean {
  if (!isShellName(name)) return false;
  if (TMUX_OWNED.includes(name) || BASH_READONLY.includes(name)) return false;
  return !name.startsWith("TERM_PROGRAM");
}

/** The caller's variables the session gets, sorted by name. */
export function forwardedEnv(env: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(env)
    .filter(([name]) => isForwardedVar(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** How the session's command is run. */
export type ScriptCommand =
  & (
    /** Argv words, run directly (each word quoted). */
    | { argv: readonly string[] }
    /** Shell text, run by `bash -c` as a child (so `exit N` / `set -e` give its real status). */
    | { shell: string }
  )
  & {
    /**
     * Text the command reads on stdin (a prompt too long for argv). It is written into the
     * script and fed by the `printf` builtin, never as an argv word of a program.
     */
    stdin?: string;
  };

/** Inputs of {@link buildStartupScript}. */
export interface StartupScriptInput {
  session: string;
  runId: string;
  projectRoot: string;
  /** The spawn caller's environment (filtered by {@link forwardedEnv}). */
  callerEnv: Readonly<Record<string, string>>;
  /** The session's `LISA_*` variables (exported after the caller's, so they win). */
  lisaEnv: Readonly<Record<string, string>>;
  heartbeatFile: string;
  doneFile: string;
  command: ScriptCommand;
  /**
   * Show the caller's environment as a one-line summary instead of its values (for
   * `--dry-run`, whose output may end up in logs). The real script always has the values.
   */
  redactCallerEnv?: boolean;
}

/** The command line the script runs for `command`. */
export function scriptCommandLine(command: ScriptCommand): string {
  const line = "argv" in command ? shellJoin(command.argv) : `bash -c ${shellQuote(command.shell)}`;
  return command.stdin === undefined ? line : feedStdin(command.stdin, line);
}

function exportLine(name: string, value: string): string {
  return `export ${name}=${shellQuote(value)}`;
}

/** Builds the startup script text (see the module doc). */
export function buildStartupScript(input: StartupScriptInput): string {
  const caller = forwardedEnv(input.callerEnv);
  const runId = shellQuote(input.runId);
  const keep = [...TMUX_OWNED, "TERM_PROGRAM*"].join("|");
  const heartbeatLoop = 'while kill -0 "$1" 2>/dev/null && [ -f "$2" ]; do : > "$2"; sleep 2; done';
  const lines = [
    `# lisa startup script: session ${input.session}, run ${input.runId}.`,
    "umask 077",
    'rm -f -- "$0"',
    "# The session gets the spawn caller's environment, not the tmux server's.",
    "for __lisa_v in $(compgen -e); do",
    `  case $__lisa_v in ${keep}) ;; *) unset "$__lisa_v" 2>/dev/null ;; esac`,
    "done",
    "unset __lisa_v",
    "{",
    ":",
    ...(input.redactCallerEnv
      ? [`# export of the caller's ${caller.length} variables (values not shown)`]
      : caller.map(([name, value]) => exportLine(name, value))),
    "} 2>/dev/null",
    ...Object.entries(input.lisaEnv).map(([name, value]) => exportLine(name, value)),
    `: > ${shellQuote(input.heartbeatFile)}`,
    `(exec -a ${HEARTBEAT_ARGV0} bash -c ${shellQuote(heartbeatLoop)} ${HEARTBEAT_ARGV0} "$$" ${
      shellQuote(input.heartbeatFile)
    }) &`,
    "__lisa_hb=$!",
    "trap : INT",
    // bash ≥ 5 has the clock built in: no `date` process in the pane's first milliseconds.
    `printf '${START_MARKER}:%s:%s\\n' ${runId} "\${EPOCHSECONDS:-$(date +%s)}"`,
    `if cd -- ${shellQuote(input.projectRoot)}; then`,
    scriptCommandLine(input.command),
    "__lisa_exit=$?",
    "else",
    "__lisa_exit=1",
    "fi",
    `__lisa_done=${shellQuote(input.doneFile)}`,
    `printf '%s:%s\\n' ${runId} "$__lisa_exit" > "$__lisa_done.tmp.$$" && ` +
    `mv -f -- "$__lisa_done.tmp.$$" "$__lisa_done"`,
    'kill "$__lisa_hb" 2>/dev/null',
    `printf '${DONE_MARKER}:%s:%s\\n' ${runId} "$__lisa_exit"`,
    'exit "$__lisa_exit"',
  ];
  return lines.join("\n") + "\n";
}
