/**
 * The subprocess runner's contract (implemented by `src/proc/runner.ts`, faked in tests).
 */

/** Options of one subprocess call. */
export interface RunOptions {
  /** Bytes or text written to the child's stdin (stdin is /dev/null otherwise). */
  stdin?: string | Uint8Array;
  /** Environment of the child. The parent's environment is used when absent. */
  env?: Record<string, string>;
  /** When true, `env` is the child's whole environment. */
  clearEnv?: boolean;
  cwd?: string;
  /** Timeout in milliseconds (the runner's default when absent; `Infinity`: none). */
  timeoutMs?: number;
  /** Do not throw on a non-zero exit; the caller inspects `code`. */
  allowFailure?: boolean;
  /**
   * The child uses this process's terminal (stdin, stdout and stderr inherited; nothing is
   * captured) and runs without a timeout: `attach` hands the terminal to a tmux client.
   */
  interactive?: boolean;
  /**
   * Keep the child's stdin open (after writing `stdin`, if given) until the child exits: it
   * sees end of input only when this process dies. A remote lisa run over ssh is ended that
   * way when the lisa that started it goes away (`core/hosts`).
   */
  holdStdin?: boolean;
  /**
   * Receives stdout as it arrives (decoded text, in chunks), instead of collecting it: the
   * result's `stdout` is then "". For output that streams (a remote `watch`).
   */
  onStdout?: (text: string) => void;
  /** Receives stderr as it arrives, like {@link RunOptions.onStdout}. */
  onStderr?: (text: string) => void;
  /**
   * Ends the child (SIGTERM) when aborted; the result then carries its exit status. This, and
   * `holdStdin`, `onStdout`, `onStderr`, are not for `group` calls.
   */
  signal?: AbortSignal;
  /**
   * The child runs in a process group (and session) of its own, so that whatever it starts (a
   * git hook, a filter, the `git reset --hard` under `git worktree add`) ends with it: at the
   * timeout, and when lisa gets SIGINT, SIGTERM or SIGHUP, the whole group gets SIGTERM, then
   * SIGKILL, and the call returns only once none of it is left.
   */
  group?: boolean;
  /** Called once the child runs, with its pid (the id of its process group with `group`). */
  onStart?: (pid: number) => void;
  /** Called while the child runs long: once after `afterMs`, then every `everyMs`. */
  progress?: { afterMs: number; everyMs: number; report: (elapsedMs: number) => void };
}

/** What a finished subprocess returned. */
export interface RunResult {
  code: number;
  success: boolean;
  stdout: string;
  stderr: string;
}

/** Runs subprocesses. Real in production, a recording fake in tests. */
export interface Runner {
  /**
   * Runs `argv` to completion. Throws `ProgramNotFoundError` when argv[0] is missing,
   * `CommandTimeoutError` past the timeout, `InterruptedError` when a signal to lisa ended a
   * `group` child, and `CommandFailedError` on a non-zero exit unless `allowFailure` is set.
   */
  run(argv: readonly string[], options?: RunOptions): Promise<RunResult>;
}
