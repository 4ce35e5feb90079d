/**
 * The process runner: the only way lisa starts a subprocess. argv arrays only, never a shell
 * string; every call has a timeout; a missing program is its own error.
 */
import { CommandFailedError, CommandTimeoutError, ProgramNotFoundError } from "../base/errors.ts";
import type { Runner, RunOptions, RunResult } from "../base/runner.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The real runner over `Deno.Command`. */
export class DenoRunner implements Runner {
  constructor(private readonly defaultTimeoutMs: number) {}

  async run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    if (options.interactive) return await runInteractive(argv, options);
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

/** Runs `argv` on this process's terminal until it exits (no timeout, nothing captured). */
async function runInteractive(argv: readonly string[], options: RunOptions): Promise<RunResult> {
  let status: Deno.CommandStatus;
  try {
    status = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
      env: options.env,
      clearEnv: options.clearEnv,
      cwd: options.cwd,
    }).spawn().status;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new ProgramNotFoundError(argv[0]);
    throw error;
  }
  const result: RunResult = { code: status.code, success: status.success, stdout: "", stderr: "" };
  if (!result.success && !options.allowFailure) throw new CommandFailedError(argv, result);
  return result;
}
