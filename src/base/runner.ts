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
  /** Timeout in milliseconds (the runner's default when absent). */
  timeoutMs?: number;
  /** Do not throw on a non-zero exit; the caller inspects `code`. */
  allowFailure?: boolean;
  /**
   * The child uses this process's terminal (stdin, stdout and stderr inherited; nothing is
   * captured) and runs without a timeout: `attach` hands the terminal to a tmux client.
   */
  interactive?: boolean;
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
   * `CommandTimeoutError` past the timeout, and `CommandFailedError` on a non-zero exit unless
   * `allowFailure` is set.
   */
  run(argv: readonly string[], options?: RunOptions): Promise<RunResult>;
}
