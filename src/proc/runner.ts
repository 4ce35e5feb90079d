/**
 * The process runner: the only way lisa starts a subprocess. argv arrays only, never a shell
 * string; every call has a timeout; a missing program is its own error.
 */
import {
  CommandFailedError,
  CommandTimeoutError,
  InterruptedError,
  ProgramNotFoundError,
} from "../base/errors.ts";
import type { Runner, RunOptions, RunResult } from "../base/runner.ts";
import { addGroup, interruption, listenBeforeSpawn, SIGNAL_NUMBERS } from "./interrupt.ts";
import { endGroup } from "./group.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The real runner over `Deno.Command`. */
export class DenoRunner implements Runner {
  constructor(private readonly defaultTimeoutMs: number) {}

  async run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    if (options.interactive) return await runInteractive(argv, options);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    if (options.group) return await runGroup(argv, options, timeoutMs);
    const deadline = timeoutMs === Infinity ? null : AbortSignal.timeout(timeoutMs);
    const signals = [deadline, options.signal].filter((s): s is AbortSignal => !!s);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
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
    options.onStart?.(child.pid);
    const release = await feed(child, options.stdin, options.holdStdin === true);
    // The pipes are read apart from the exit: a killed child's stdout can stay open elsewhere
    // (a tmux client hands its stdio to a server, and a stopped server never releases them), so
    // the deadline bounds the wait for the pipes' end too.
    const stdout = drain(child.stdout, options.onStdout);
    const stderr = drain(child.stderr, options.onStderr);
    const status = await child.status;
    await release();
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
 * Writes `stdin` (when given) to the child and closes its stdin; with `hold`, leaves it open and
 * returns the function that closes it (after the child's exit).
 */
async function feed(
  child: Deno.ChildProcess,
  stdin: RunOptions["stdin"],
  hold = false,
): Promise<() => Promise<void>> {
  if (stdin === undefined && !hold) return () => Promise.resolve();
  const writer = child.stdin.getWriter();
  const close = () => writer.close().catch(() => {});
  try {
    if (stdin !== undefined) {
      await writer.write(typeof stdin === "string" ? encoder.encode(stdin) : stdin);
    }
    if (!hold) await writer.close();
  } catch {
    // The child may exit without reading its stdin; its exit status tells the rest.
  }
  return hold ? close : () => Promise.resolve();
}

/** Calls `progress.report` after `afterMs`, then every `everyMs`; returns the stop function. */
function reportProgress(progress: RunOptions["progress"], started: number): () => void {
  if (progress === undefined) return () => {};
  let every: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    progress.report(Date.now() - started);
    every = setInterval(() => progress.report(Date.now() - started), progress.everyMs);
  }, progress.afterMs);
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}

/**
 * Runs `argv` in a process group of its own (`RunOptions.group`): ended whole, and waited for,
 * at the timeout and on a signal to lisa (`interrupt.ts`).
 */
async function runGroup(
  argv: readonly string[],
  options: RunOptions,
  timeoutMs: number,
): Promise<RunResult> {
  let child: Deno.ChildProcess;
  const listening = listenBeforeSpawn();
  try {
    child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      env: options.env,
      clearEnv: options.clearEnv,
      cwd: options.cwd,
      // setsid(): a session and process group of its own, whose id is the child's pid.
      detached: true,
    }).spawn();
  } catch (error) {
    listening();
    if (error instanceof Deno.errors.NotFound) throw new ProgramNotFoundError(argv[0]);
    throw error;
  }
  const pgid = child.pid;
  let cause: "timeout" | "signal" | null = null;
  let ending: Promise<void> | null = null;
  let stopped: (value: null) => void = () => {};
  const whenStopped = new Promise<null>((resolve) => (stopped = resolve));
  const end = (why: "timeout" | "signal") => {
    if (ending === null) {
      cause = why;
      ending = endGroup(pgid).then(() => stopped(null));
    }
  };
  const unregister = addGroup(pgid, () => end("signal"));
  listening();
  const timer = setTimeout(() => end("timeout"), timeoutMs);
  const stopProgress = reportProgress(options.progress, Date.now());
  try {
    try {
      options.onStart?.(pgid);
    } catch { /* a caller's bookkeeping never leaves the child running unwatched */ }
    await feed(child, options.stdin);
    const stdout = drain(child.stdout);
    const stderr = drain(child.stderr);
    const status = await child.status;
    // A member that outlives the child (a daemon a hook started) may hold the pipes: once the
    // group was ended, they are not waited for.
    const pipes = await Promise.race([Promise.all([stdout.text, stderr.text]), whenStopped]);
    if (cause !== null) {
      await ending;
      stdout.cancel();
      stderr.cancel();
      if (cause === "timeout") throw new CommandTimeoutError(argv, timeoutMs);
      const signal = interruption() ?? "SIGTERM";
      throw new InterruptedError(signal, SIGNAL_NUMBERS[signal] ?? 15, `running ${argv[0]}`);
    }
    const result: RunResult = {
      code: status.code,
      success: status.success,
      stdout: pipes![0],
      stderr: pipes![1],
    };
    if (!result.success && !options.allowFailure) throw new CommandFailedError(argv, result);
    return result;
  } finally {
    clearTimeout(timer);
    stopProgress();
    unregister();
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
