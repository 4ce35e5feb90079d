/**
 * One tool call: the verb's own implementation, run as the command line runs it under `--json`
 * (`src/cli/preparsed.ts` does the same for its pre-parsed verbs), with an `Io` that keeps what
 * it prints, and the CLI's failure reporting (`cli/failure.ts`). So the result's document is
 * exactly the JSON the same `lisa … --json` call prints, and it is an error exactly when that
 * document says `ok: false`.
 *
 * A verb that prints several JSON lines (`watch`) gives its last line as the document, with the
 * lines before it under `events`. Each line a verb prints, and each diagnostic, is also passed to
 * `onLine` as it comes, and each session state it works out to `onState` (the server turns them
 * into progress notifications, `progress.ts`).
 *
 * The call's `signal` (the client's `notifications/cancelled`) reaches every wait of the verb:
 * `deps.sleep` rejects once it fires, and `io.outClosed` turns true (watch and monitor stop at
 * their next round, as they do when a reader leaves).
 */
import type { Deps, StateNote } from "../base/deps.ts";
import { LisaError, UsageError } from "../base/errors.ts";
import type { Io } from "../base/io.ts";
import type { LisaContext } from "../cli/context.ts";
import { reportFailure } from "../cli/failure.ts";
import { VERBS } from "../cli/verbs.ts";
import { namesHost } from "../cli/names_host.ts";
import { lazyImport } from "../base/lazy.ts";
import { type CallDefaults, flagsOf, type ToolSpec } from "./tools.ts";

/** What a tool call returned. */
export interface CallOutcome {
  /** The `--json` document (see the module doc). */
  document: Record<string, unknown>;
  /** The exit code the CLI would have exited with. */
  exitCode: number;
  /** True when the document says `ok: false`. */
  isError: boolean;
}

/** A call stopped by its client (`notifications/cancelled`). */
export class CancelledError extends LisaError {
  constructor() {
    super("cancelled", "the client cancelled the call");
  }
}

/** An Io that keeps stdout, passes each complete line on, and has no stdin (see module doc). */
class CallIo implements Io {
  stdout = "";
  private partial = "";
  readonly isTty = false;
  readonly noColor = true;
  readonly stdinIsTty = false;

  constructor(
    private readonly signal: AbortSignal,
    private readonly onLine: (line: string, stream: "out" | "err") => void,
  ) {}

  get outClosed(): boolean {
    return this.signal.aborted;
  }

  out(text: string): void {
    if (this.signal.aborted) return;
    this.stdout += text;
    this.partial += text;
    let nl: number;
    while ((nl = this.partial.indexOf("\n")) >= 0) {
      const line = this.partial.slice(0, nl);
      this.partial = this.partial.slice(nl + 1);
      if (line.trim() !== "") this.onLine(line, "out");
    }
  }

  err(text: string): void {
    for (const line of text.split("\n")) if (line.trim() !== "") this.onLine(line, "err");
  }

  readStdin(): Promise<Uint8Array> {
    // stdin is the protocol's channel: '-' (read stdin) cannot mean anything to a tool call.
    return Promise.reject(
      new UsageError(
        "'-' reads standard input, which the MCP server uses for its protocol: pass the text " +
          "itself (text, prompt) or a file (textFile, promptFile)",
      ),
    );
  }
}

/** A sleep that rejects with {@link CancelledError} as soon as `signal` fires. */
function abortableSleep(base: Deps["sleep"], signal: AbortSignal): Deps["sleep"] {
  return (ms) => {
    if (signal.aborted) return Promise.reject(new CancelledError());
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(new CancelledError());
      signal.addEventListener("abort", onAbort, { once: true });
      base(ms).then(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, reject);
    });
  };
}

/** How {@link callTool} runs. */
export interface CallContext {
  /** The server's collaborators (its resident runner among them); `io` is replaced per call. */
  deps: Deps;
  defaults: CallDefaults;
  signal: AbortSignal;
  /** Each line the verb prints (stdout) or reports (stderr), as it comes. */
  onLine?: (line: string, stream: "out" | "err") => void;
  /** Each session state the verb works out (its status reads), as it comes. */
  onState?: (note: StateNote) => void;
}

/**
 * Runs `tool` with `args` (see the module doc). Argument errors come back as the CLI reports
 * them (`ok: false` with their code); throws {@link CancelledError} when the call was cancelled.
 */
export async function callTool(
  tool: ToolSpec,
  args: Record<string, unknown> | undefined,
  ctx: CallContext,
): Promise<CallOutcome> {
  const io = new CallIo(ctx.signal, ctx.onLine ?? (() => {}));
  // The server's deps with this call's io and sleep (a prototype, not a spread: `selfCommand`
  // is a getter worked out only by the verbs that need it).
  const deps: Deps = Object.create(ctx.deps, {
    io: { value: io },
    sleep: { value: abortableSleep(ctx.deps.sleep, ctx.signal) },
    noteState: { value: ctx.onState },
  });
  const context: LisaContext = {
    process: { stdout: { write: (s) => io.out(s) }, stderr: { write: (s) => io.err(s) } },
    deps,
    json: true,
    exitCode: 0,
  };
  const help = `lisa ${tool.route} --help`;
  try {
    const call = flagsOf(tool, args, ctx.defaults);
    if (namesHost(tool.route, [call.flags, ...call.positionals])) {
      context.exitCode = await onHost(context, tool, args ?? {}, ctx.signal);
    } else {
      const impl = (await VERBS[tool.route].load()).default;
      await impl.call(context, call.flags, ...call.positionals);
    }
  } catch (error) {
    if (ctx.signal.aborted) throw new CancelledError();
    context.exitCode = reportFailure(deps, true, error, help);
  }
  if (ctx.signal.aborted) throw new CancelledError();
  return outcomeOf(io.stdout, context.exitCode);
}

/**
 * The command line a tool call's arguments stand for (`spawn` with `{host, command}` →
 * `session spawn --host=… --command=… --json`): each given argument as its flag, with the
 * value written as the flag's parser reads it back (a list joined by commas; `false` of a
 * flag that is on by default as `--no-…`). What the server would fill in (its project root)
 * is left to the host's lisa. Pure.
 */
export function argvOfArgs(tool: ToolSpec, args: Record<string, unknown>): string[] {
  const spec = VERBS[tool.route];
  const flags = spec.flags as Record<string, { kind: string; default?: unknown }>;
  const kebab = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const argv = tool.route.split(" ");
  for (const [key, value] of Object.entries(args)) {
    const flag = flags[key];
    if (flag === undefined || value === undefined || value === null) continue;
    if (flag.kind === "boolean") {
      if (value === true) argv.push(`--${kebab(key)}`);
      else if (flag.default === true) argv.push(`--no-${kebab(key)}`);
      continue;
    }
    const text = Array.isArray(value) ? value.join(",") : String(value);
    argv.push(`--${kebab(key)}=${text}`);
  }
  if ("json" in flags && !argv.includes("--json")) argv.push("--json");
  return argv;
}

/**
 * A tool call that names another host (`host`, or `NAME:` before the session) runs there, as
 * the command line's `--host` does (`cli/remote.ts`): its documents come back with `host`, its
 * exit code as its own, and cancelling the call ends the remote lisa with its connection.
 */
async function onHost(
  context: LisaContext,
  tool: ToolSpec,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<number> {
  const { remoteCallOf, runRemote } = await lazyImport<typeof import("../cli/remote.ts")>(
    new URL("../cli/remote.ts", import.meta.url),
  );
  const argv = argvOfArgs(tool, args);
  const call = await remoteCallOf(context, tool.route, argv, []);
  if (call === null) throw new UsageError("the call names no host", "invalid_host");
  return await runRemote(context, tool.route, call, false, signal);
}

/** The document of what a verb printed (see the module doc). */
export function outcomeOf(stdout: string, exitCode: number): CallOutcome {
  const docs: Record<string, unknown>[] = [];
  for (const line of stdout.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) docs.push(value);
      else docs.push({ value });
    } catch {
      docs.push({ text: line });
    }
  }
  let document: Record<string, unknown>;
  if (docs.length === 0) document = { ok: exitCode === 0 };
  else if (docs.length === 1) document = docs[0];
  else document = { ...docs[docs.length - 1], events: docs.slice(0, -1) };
  return { document, exitCode, isError: document.ok === false };
}
