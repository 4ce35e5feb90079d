/**
 * The process runner: the only way lisa starts a subprocess. argv arrays only, never a shell
 * string; every call has a timeout; a missing program is its own error.
 */
import { CommandFailedError, CommandTimeoutError, ProgramNotFoundError } from "../core/errors.ts";

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

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The real runner over `Deno.Command`. */
export class DenoRunner implements Runner {
  constructor(private readonly defaultTimeoutMs: number) {}

  async run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const signal = AbortSignal.timeout(timeoutMs);
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(argv[0], {
        args: argv.slice(1),
        stdin: options.stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
        env: options.env,
        clearEnv: options.clearEnv,
        cwd: options.cwd,
        signal,
      }).spawn();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) throw new ProgramNotFoundError(argv[0]);
      throw error;
    }
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      const bytes = typeof options.stdin === "string"
        ? encoder.encode(options.stdin)
        : options.stdin;
      try {
        await writer.write(bytes);
        await writer.close();
      } catch {
        // The child may exit without reading its stdin; its exit status tells the rest.
      }
    }
    const out = await child.output();
    if (signal.aborted) throw new CommandTimeoutError(argv, timeoutMs);
    const result: RunResult = {
      code: out.code,
      success: out.success,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
    if (!result.success && !options.allowFailure) throw new CommandFailedError(argv, result);
    return result;
  }
}
