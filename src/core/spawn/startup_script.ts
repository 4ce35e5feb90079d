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
 * 5. Waits until tmux has parsed all the command printed (it answers a cursor-position query
 *    only after that; {@link barrierLines}), then writes `{runId}:{exit}` to the done file
 *    through a temp file and `mv` (0600 by umask),
 *    stops the heartbeat, prints `__LISA_SESSION_DONE__:{runId}:{exit}`, exits with the status.
 *
 * There is no EXIT trap: a TERM/HUP/KILL from `lisa session kill` ends the script on the spot,
 * so nothing writes artifacts after a kill.
 *
 * On Linux (`subreaper`), before anything else the script makes itself a child subreaper
 * (`prctl(PR_SET_CHILD_SUBREAPER)`): a process of the session that double-forks (`setsid -f`,
 * `( cmd & )`, a daemon) is then reparented to the wrapper instead of init, so it stays in the
 * pane's process subtree where `kill` finds it even when it also cleared its environment (no
 * `LISA_RUN_ID` to find it by). Why this and not the alternatives: a per-session cgroup needs
 * a delegated cgroup tree, which a plain user under tmux rarely has (and never on macOS);
 * start-time descendancy cannot tell a daemon from any unrelated process started later once
 * the parent link is gone; the subreaper needs only the kernel (3.4+) and one syscall. bash has
 * no way to make that syscall, so the script re-executes itself once through `perl` (part of
 * every mainstream Linux base system), which sets the attribute (it survives `execve`, and is
 * not inherited by children) and verifies it with `PR_GET_CHILD_SUBREAPER`, then execs bash on
 * the script again with `LISA_SUBREAPER={runId}:1` (or `:0`) in its environment: the mark
 * `kill` reads from `/proc/<pane pid>/environ`. The syscall number is taken from perl's own
 * architecture (x86_64 157, aarch64 167; any other: no attempt). No perl, an unknown
 * architecture or a refusal (seccomp): the script runs as before, and `kill` reports the gap.
 *
 * A subreaper wrapper reaps what it adopts (bash waits for any child while it waits for the
 * command) and still waits only for its command: the exit status, the done file and the done
 * marker are the command's, written when it ends. Only then, if it still has adopted children
 * (tmux servers aside: they serve other sessions), it stays until they have ended, checking
 * once a second, so they remain findable; `status` already answers from the done file, and
 * `kill` ends them. The heartbeat's `sleep`, orphaned when the heartbeat is stopped, carries the
 * heartbeat's argv[0] so the wrapper does not wait for it (it ends within 2 s, as before). The
 * heartbeat file holds `subreaper` while the wrapper is one, which tells `kill` so after the
 * pane has exited.
 */
import { DEFAULT_DONE_BARRIER_SECONDS } from "../../base/config.ts";
import { feedStdin, isShellName, shellJoin, shellQuote } from "../../base/shell_quote.ts";

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

/** The wrapper's environment variable that marks it a child subreaper: `{runId}:1` (or `:0`). */
export const SUBREAPER_ENV = "LISA_SUBREAPER";
/** Content of the heartbeat file while the wrapper is a child subreaper. */
export const HEARTBEAT_SUBREAPER = "subreaper";

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
  /** Make the wrapper a child subreaper through perl (Linux only; see the module doc). */
  subreaper?: boolean;
  /**
   * Longest wait for tmux to answer the done-file barrier, in whole seconds (default
   * `LISA_DONE_BARRIER_SECONDS`'s; see {@link barrierLines}).
   */
  barrierSeconds?: number;
}

/** The command line the script runs for `command`. */
export function scriptCommandLine(command: ScriptCommand): string {
  const line = "argv" in command ? shellJoin(command.argv) : `bash -c ${shellQuote(command.shell)}`;
  return command.stdin === undefined ? line : feedStdin(command.stdin, line);
}

function exportLine(name: string, value: string): string {
  return `export ${name}=${shellQuote(value)}`;
}

/**
 * perl program run as `perl -e PROGRAM RUNID BASH SCRIPT`: makes itself a child subreaper
 * (prctl 36; verified with prctl 37, and only where `/proc/<pid>/task/<pid>/children` lets the
 * wrapper see what it adopted), records the outcome in {@link SUBREAPER_ENV} and execs the rest
 * of its arguments. Syscall numbers only for architectures Deno runs on: a wrong number would
 * call another syscall.
 */
export const SUBREAPER_PERL = [
  "use Config;",
  "my ($run, @cmd) = @ARGV;",
  "my $arch = $Config{archname};",
  "my $nr = $arch =~ /^x86_64-linux/ && $arch !~ /x32/ ? 157 : $arch =~ /^aarch64-linux/ ? 167 : 0;",
  'my $v = pack("i", 0);',
  "my $ok = $nr && syscall($nr, 36, 1, 0, 0, 0) == 0 && syscall($nr, 37, $v, 0, 0, 0) == 0",
  '  && unpack("i", $v) == 1 && -r "/proc/$$/task/$$/children";',
  `$ENV{${SUBREAPER_ENV}} = "$run:" . ($ok ? 1 : 0);`,
  "exec { $cmd[0] } @cmd;",
  'die "lisa: cannot run $cmd[0]: $!\\n";',
].join("\n");

/**
 * Script lines that re-execute it once through perl to become a child subreaper (module doc).
 * `execfail` keeps the script going when perl cannot be run after all.
 */
function subreaperLines(runId: string): string[] {
  return [
    "# Become a child subreaper, so double-forked processes stay in this subtree (kill).",
    `case \${${SUBREAPER_ENV}-} in`,
    `  ${runId}:?) ;;`,
    "  *) if command -v perl >/dev/null 2>&1; then",
    "    shopt -s execfail",
    `    ${SUBREAPER_ENV}=${runId}:0 exec perl -e ${
      shellQuote(SUBREAPER_PERL)
    } ${runId} "$BASH" "$0"`,
    "    shopt -u execfail",
    "  fi ;;",
    "esac",
    `[ "\${${SUBREAPER_ENV}-}" = ${runId}:1 ] && __lisa_reaper=${HEARTBEAT_SUBREAPER} || __lisa_reaper=`,
  ];
}

/**
 * Script lines run after the done marker by a subreaper wrapper: it stays while it has adopted
 * children other than tmux servers and the stopped heartbeat's last `sleep` (module doc).
 * Reads `/proc` with builtins only, so the check itself starts no child.
 */
const LINGER_LINES = [
  'if [ -n "$__lisa_reaper" ]; then',
  "  __lisa_adopted() {",
  '    local kids="" kid name arg0',
  '    read -r kids < "/proc/$$/task/$$/children"',
  "    for kid in $kids; do",
  '      name="" arg0=""',
  '      read -r name < "/proc/$kid/comm"',
  `      read -r -d '' arg0 < "/proc/$kid/cmdline"`,
  `      case $name:$arg0 in tmux*|:*|*:${HEARTBEAT_ARGV0}) ;; *) return 0 ;; esac`,
  "    done",
  "    return 1",
  "  } 2>/dev/null",
  "  while __lisa_adopted; do sleep 1; done",
  "fi",
];

/**
 * Script lines between the command's end and the done file: a barrier. tmux answers a
 * cursor-position query (`ESC[6n`) only once it has parsed everything printed before it, so
 * when the done file appears the command's last output is on tmux's screen (a busy tmux can
 * lag the pty by a second, and a status or capture at the done file would miss the last lines).
 * - `read -s -p` sends the query itself, after turning echo off, so the answer never shows;
 * - text typed ahead and never read may hold an `R` (the answer's last byte): whole lines of it
 *   are read away first, while no answer can come yet (each `read` turns echo back on when it
 *   returns, and an answer arriving between two reads would show on the screen: it did, under
 *   load); for a partial line, reading goes on until what was read ends like an answer
 *   (`ESC[row;col`), eight reads at most;
 * - a query held by Ctrl-S (XOFF) would block its write forever, and an unfinished escape
 *   sequence swallows it unanswered: the barrier runs apart (a process substitution), the
 *   wrapper waits `seconds` at most for it to end, then ends it (`$!` is its pid from bash 4.4;
 *   an older bash leaves it alone, and that only where the barrier is blocked; its own reads
 *   give up after `seconds` too).
 * The bound is paid only where tmux never answers (Ctrl-S, a swallowed query): a live tmux
 * answers within milliseconds, a loaded machine's within seconds (once more than the 2–3 s this
 * bound used to be, and the done file then came before the last lines). Hence a generous
 * default, set per spawn by `LISA_DONE_BARRIER_SECONDS`.
 * Plain bash 3.2 syntax (fd 9, no `{fd}`, integer timeouts).
 */
function barrierLines(seconds: number): string[] {
  const t = Math.max(1, Math.round(seconds));
  return [
    "__lisa_barrier() {",
    "  local a n=0",
    '  while [ "$n" -lt 64 ] && read -t 0; do IFS= read -rs -t 1 a || break; n=$((n + 1)); done',
    "  n=0",
    `  IFS= read -rs -d R -t ${t} -p $'\\033[6n' a || return 0`,
    "  while :; do",
    "    case $a in *$'\\033['*';'*) return 0 ;; esac",
    '    n=$((n + 1)); [ "$n" -ge 8 ] && return 0',
    `    IFS= read -rs -d R -t ${t} a || return 0`,
    "  done",
    "}",
    "if [ -t 0 ] && [ -t 1 ] && exec 9< <(__lisa_barrier </dev/tty 2>/dev/tty); then",
    "  __lisa_bp=$!",
    `  IFS= read -r -t ${t} -u 9 _`,
    '  [ $? -gt 128 ] && [ "$__lisa_bp" != "$__lisa_hb" ] && kill -9 "$__lisa_bp" 2>/dev/null',
    "  exec 9<&-",
    "fi",
  ];
}

/** Builds the startup script text (see the module doc). */
export function buildStartupScript(input: StartupScriptInput): string {
  const caller = forwardedEnv(input.callerEnv);
  const runId = shellQuote(input.runId);
  const keep = [...TMUX_OWNED, "TERM_PROGRAM*"].join("|");
  // The heartbeat's `sleep` also carries argv[0] `lisa-heartbeat`: orphaned when the heartbeat
  // is stopped, it is adopted by a subreaper wrapper, which must not wait for it.
  const heartbeatLoop =
    'while kill -0 "$1" 2>/dev/null && [ -f "$2" ]; do printf %s "$3" > "$2"; ' +
    `(exec -a ${HEARTBEAT_ARGV0} sleep 2); done`;
  const lines = [
    `# lisa startup script: session ${input.session}, run ${input.runId}.`,
    "umask 077",
    ...(input.subreaper ? subreaperLines(runId) : ["__lisa_reaper="]),
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
    `printf %s "$__lisa_reaper" > ${shellQuote(input.heartbeatFile)}`,
    `(exec -a ${HEARTBEAT_ARGV0} bash -c ${shellQuote(heartbeatLoop)} ${HEARTBEAT_ARGV0} "$$" ${
      shellQuote(input.heartbeatFile)
    } "$__lisa_reaper") &`,
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
    ...barrierLines(input.barrierSeconds ?? DEFAULT_DONE_BARRIER_SECONDS),
    `__lisa_done=${shellQuote(input.doneFile)}`,
    `printf '%s:%s\\n' ${runId} "$__lisa_exit" > "$__lisa_done.tmp.$$" && ` +
    `mv -f -- "$__lisa_done.tmp.$$" "$__lisa_done"`,
    'kill "$__lisa_hb" 2>/dev/null',
    `printf '${DONE_MARKER}:%s:%s\\n' ${runId} "$__lisa_exit"`,
    ...LINGER_LINES,
    'exit "$__lisa_exit"',
  ];
  return lines.join("\n") + "\n";
}
