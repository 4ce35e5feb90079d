/**
 * Error types. Every failure a user can see is a `LisaError` with a stable snake_case `code`
 * and the process exit code it maps to. `src/cli/run.ts` is the one place that renders them.
 */

/** Options accepted by {@link LisaError}. */
export interface LisaErrorOptions {
  /** Process exit code (default 1). */
  exitCode?: number;
  /** True when the error comes from user input: the CLI then prints a usage hint. */
  usage?: boolean;
  /** Extra fields merged into the JSON error payload. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** A failure with a stable, documented `code` (snake_case). */
export class LisaError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly usage: boolean;
  readonly details: Record<string, unknown>;

  constructor(code: string, message: string, options: LisaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LisaError";
    this.code = code;
    this.exitCode = options.exitCode ?? 1;
    this.usage = options.usage ?? false;
    this.details = options.details ?? {};
  }
}

/** Bad flags or values given by the user (`invalid_argument` unless a code is given). */
export class UsageError extends LisaError {
  constructor(message: string, code = "invalid_argument", details?: Record<string, unknown>) {
    super(code, message, { usage: true, details });
    this.name = "UsageError";
  }
}

/** A file lock could not be taken within its timeout. */
export class LockBusyError extends LisaError {
  constructor(lockPath: string, timeoutMs: number) {
    super("lock_busy", `Lock "${lockPath}" is held by another process (waited ${timeoutMs} ms)`, {
      details: { lockPath, timeoutMs },
    });
    this.name = "LockBusyError";
  }
}

/** The runtime directory exists but is not safe to use. */
export class RuntimeDirUnsafeError extends LisaError {
  constructor(path: string, reason: string) {
    super("runtime_dir_unsafe", `Runtime directory "${path}" is unsafe: ${reason}`, {
      details: { runtimeDir: path },
    });
    this.name = "RuntimeDirUnsafeError";
  }
}

/** A program needed by lisa is not installed or not on PATH. */
export class ProgramNotFoundError extends LisaError {
  constructor(program: string) {
    super("program_not_found", `Program "${program}" was not found on PATH`, {
      details: { program },
    });
    this.name = "ProgramNotFoundError";
  }
}

/** A subprocess exited non-zero where success was required. */
export class CommandFailedError extends LisaError {
  readonly result: { code: number; stdout: string; stderr: string };
  constructor(argv: readonly string[], result: { code: number; stdout: string; stderr: string }) {
    const first = result.stderr.trim().split("\n")[0] ?? "";
    super(
      "command_failed",
      `Command "${argv.join(" ")}" exited with ${result.code}${first ? `: ${first}` : ""}`,
      { details: { argv: [...argv], exitStatus: result.code } },
    );
    this.name = "CommandFailedError";
    this.result = result;
  }
}

/** A subprocess did not finish within its timeout. */
export class CommandTimeoutError extends LisaError {
  constructor(argv: readonly string[], timeoutMs: number) {
    super("command_timeout", `Command "${argv.join(" ")}" timed out after ${timeoutMs} ms`, {
      details: { argv: [...argv], timeoutMs },
    });
    this.name = "CommandTimeoutError";
  }
}

/**
 * lisa was interrupted by a signal (SIGINT, SIGTERM, SIGHUP) and undid the work in progress.
 * Its exit code is the one of a death by that signal (128 + its number).
 */
export class InterruptedError extends LisaError {
  readonly signal: string;
  constructor(
    signal: string,
    signalNumber: number,
    what: string,
    details: Record<string, unknown> = {},
  ) {
    super("interrupted", `Interrupted by ${signal} while ${what}`, {
      exitCode: 128 + signalNumber,
      details: { signal, ...details },
    });
    this.name = "InterruptedError";
    this.signal = signal;
  }
}

/** The named session does not exist on the project's tmux server. */
export class SessionNotFoundError extends LisaError {
  constructor(session: string) {
    super("session_not_found", `Session "${session}" was not found`, { details: { session } });
    this.name = "SessionNotFoundError";
  }
}

/** A file in lisa's private dirs is a symlink or not a regular file: lisa never follows it. */
export class FileUnsafeError extends LisaError {
  constructor(path: string, reason: string) {
    super("file_unsafe", `Refusing "${path}": ${reason}`, { details: { path } });
    this.name = "FileUnsafeError";
  }
}
