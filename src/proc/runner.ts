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
    const deadline = timeoutMs === Infinity ? null : AbortSignal.timeout(timeoutMs);
    const signals = [deadline, options.signal].filter((s): s is AbortSignal =>
      s !== undefined && s !== null
    );
    const signal = signals.length === 1
      ? signals[0]
      : signals.length > 1
      ? AbortSignal.any(signals)
      : undefined;
    const pipedStdin = options.stdin !== undefined || options.holdStdin === true;
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(argv[0], {
        args: argv.slice(1),
        stdin: pipedStdin ? "piped" : "null",
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
    const writer = pipedStdin ? child.stdin.getWriter() : null;
    if (writer !== null && options.stdin !== undefined) {
      const bytes = typeof options.stdin === "string"
        ? encoder.encode(options.stdin)
        : options.stdin;
      try {
        await writer.write(bytes);
        if (!options.holdStdin) await writer.close();
      } catch {
        // The child may exit without reading its stdin; its exit status tells the rest.
      }
    } else if (writer !== null && !options.holdStdin) await writer.close().catch(() => {});
    // The pipes are read apart from the exit: a killed child's stdout can stay open elsewhere
    // (a tmux client hands its stdio to a server, and a stopped server never releases them), so
    // the deadline bounds the wait for the pipes' end too.
    const stdout = drain(child.stdout, options.onStdout);
    const stderr = drain(child.stderr, options.onStderr);
    const status = await child.status;
    if (writer !== null && options.holdStdin) await writer.close().catch(() => {});
    const timedOut = new Promise<null>((resolve) => {
      if (deadline === null) return;
      if (deadline.aborted) resolve(null);
      else deadline.addEventListener("abort", () => resolve(null), { once: true });
    });
    const pipes = await Promise.race([Promise.all([stdout.text, stderr.text]), timedOut]);
    if (pipes === null || deadline?.aborted) {
      stdout.cancel();
      stderr.cancel();
      throw new CommandTimeoutError(argv, timeoutMs);
    }
    const result: RunResult = {
      code: status.code,
      success: status.success,
      stdout: pipes[0],
      stderr: pipes[1],
    };
    if (!result.success && !options.allowFailure) throw new CommandFailedError(argv, result);
    return result;
  }
}

/**
 * Reads a stream to its end as text, or hands each chunk to `each` as it arrives (the text is
 * then ""); `cancel` stops reading (the text then never settles).
 */
function drain(
  stream: ReadableStream<Uint8Array>,
  each?: (text: string) => void,
): { text: Promise<string>; cancel: () => void } {
  const reader = stream.getReader();
  const text = (async () => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const streaming = each === undefined ? null : new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (streaming !== null) {
        const piece = streaming.decode(value, { stream: true });
        if (piece !== "") each!(piece);
        continue;
      }
      chunks.push(value);
      size += value.length;
    }
    if (streaming !== null) {
      const rest = streaming.decode();
      if (rest !== "") each!(rest);
      return "";
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return decoder.decode(all);
  })();
  return {
    text,
    cancel: () => {
      text.catch(() => {});
      reader.cancel().catch(() => {});
    },
  };
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
