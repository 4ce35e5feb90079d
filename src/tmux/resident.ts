/**
 * A runner for a long-lived lisa (`lisa mcp`): `tmux -S SOCKET …` calls go over one tmux
 * control-mode client per server (`control.ts`), kept open between calls, so a status, list,
 * capture or send in steady state starts no process. Everything else goes to the runner it
 * wraps, and so does any tmux call the channel cannot carry exactly as a one-shot `tmux` would:
 *
 * - Only the commands of {@link RESIDENT_COMMANDS} ride the channel: listings, captures, buffer
 *   and key writes, `if-shell -F` (lisa's dead-pane guard). Commands that create or destroy
 *   sessions, panes or servers (`new-session`, `kill-session`, `kill-server`, …) always run
 *   one-shot: they need the caller's environment and working directory, may start a server,
 *   and a destroyed session would take the client attached to it along.
 * - A chain (`a ; b ; c`) is sent as one line, so tmux stops at the first failure as it does
 *   for one process; the answer is mapped back to what the process would have said (outputs
 *   on stdout, the failing command's message on stderr, exit code 1).
 * - `load-buffer … -` (stdin) reads a 0600 file in `bufferDir` instead (control mode has no
 *   stdin for a command), removed right after; a capture's text comes back through a file
 *   there too (pane text on the control stream could forge its framing: control.ts).
 * - A word holding a line break cannot be written on a control line: that call runs one-shot.
 *
 * A reply is only ever taken from a live client: a channel that closes (its session ended, its
 * server died or restarted) rejects what it had pending; a call nothing of which had started is
 * run again one-shot, as is a read that had; a write that tmux had begun fails (it may have
 * taken effect, and typing it twice is worse). The next call opens a new client on the
 * server's current sessions (one `list-sessions` when the call names none). No client is ever
 * opened to a server that is not running.
 */
import { CommandFailedError, CommandTimeoutError, LisaError } from "../base/errors.ts";
import type { Runner, RunOptions, RunResult } from "../base/runner.ts";
import { ChannelClosedError, type ControlChannel, ControlChannel as Channel } from "./control.ts";
import { TMUX_UTF8 } from "./tmux.ts";

/** tmux commands a resident client carries (see the module doc). */
export const RESIDENT_COMMANDS: ReadonlySet<string> = new Set([
  "list-panes",
  "list-sessions",
  "list-windows",
  "list-buffers",
  "has-session",
  "display-message",
  "capture-pane",
  "show-options",
  "show-environment",
  "show-buffer",
  "load-buffer",
  "set-buffer",
  "delete-buffer",
  "paste-buffer",
  "send-keys",
  "if-shell",
]);

/** Commands that change what a pane receives or holds: never run twice. */
const WRITES: ReadonlySet<string> = new Set([
  "load-buffer",
  "set-buffer",
  "delete-buffer",
  "paste-buffer",
  "send-keys",
  "if-shell",
]);

/**
 * The commands of a one-shot tmux argv's words (after `-S SOCKET`), split at the bare `;`
 * separators, with the escape of {@link escapeTrailingSemicolon} undone (`x\;` → `x;`), so each
 * word is what tmux's parser handed the command.
 */
export function commandsOfArgv(words: readonly string[]): string[][] {
  const out: string[][] = [[]];
  for (const word of words) {
    if (word === ";") out.push([]);
    else if (word.endsWith("\\;")) out[out.length - 1].push(`${word.slice(0, -2)};`);
    else if (word.endsWith(";")) {
      out[out.length - 1].push(word.slice(0, -1));
      out.push([]);
    } else out[out.length - 1].push(word);
  }
  return out.filter((c) => c.length > 0);
}

/** What a {@link ResidentRunner} did, for tests and the bench. */
export interface ResidentStats {
  /** Calls answered over a resident client. */
  resident: number;
  /** tmux calls run one-shot (not eligible, no client, or a retry). */
  oneShot: number;
  /** Control clients opened. */
  opened: number;
}

/** Options of {@link ResidentRunner}. */
export interface ResidentOptions {
  /** A private (0700) directory for the files `load-buffer -` reads and captures write. */
  bufferDir: string;
  /** Default timeout of a call, ms (the wrapped runner's own applies to one-shot calls). */
  timeoutMs: number;
}

/** The runner of a long-lived lisa (see the module doc). */
export class ResidentRunner implements Runner {
  private readonly channels = new Map<string, ControlChannel>();
  /** The inode of each socket when its client was opened: the server the client belongs to. */
  private readonly inodes = new Map<ControlChannel, number | null>();
  private closed = false;
  /** Counters of what the runner did. */
  readonly stats: ResidentStats = { resident: 0, oneShot: 0, opened: 0 };

  constructor(private readonly fallback: Runner, private readonly options: ResidentOptions) {}

  async run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
    const plan = this.plan(argv, options);
    if (plan === null) return await this.oneShot(argv, options);
    const channel = await this.channelFor(plan.socket, plan.commands);
    if (channel === null) return await this.oneShot(argv, options);
    let file: string | null = null;
    try {
      let commands = plan.commands;
      if (options.stdin !== undefined) {
        file = await this.bufferFile(options.stdin);
        commands = commands.map((c) =>
          c[0] === "load-buffer" && c[c.length - 1] === "-" ? [...c.slice(0, -1), file!] : c
        );
      }
      const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
      const blocks = await withTimeout(channel.runChain(commands), timeoutMs, () => {
        this.drop(plan.socket, channel);
        return new CommandTimeoutError(argv, timeoutMs);
      });
      if (socketInode(plan.socket) !== this.inodes.get(channel)) {
        // The socket is another server's now (or gone): the answer came from a server that was
        // ending. Never used; the call is made again one-shot, to whatever serves the socket.
        this.drop(plan.socket, channel);
        if (plan.commands.some((c) => WRITES.has(c[0]))) throw staleWrite(plan.socket);
        return await this.oneShot(argv, options);
      }
      this.stats.resident++;
      return resultOf(argv, blocks, options);
    } catch (error) {
      if (!(error instanceof ChannelClosedError)) throw error;
      this.drop(plan.socket, channel);
      if (error.started && plan.commands.some((c) => WRITES.has(c[0]))) {
        throw staleWrite(plan.socket);
      }
      return await this.oneShot(argv, options);
    } finally {
      if (file !== null) await Deno.remove(file).catch(() => {});
    }
  }

  /** Ends every control client (by its pid) and waits for them. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.channels.values()];
    this.channels.clear();
    await Promise.all(all.map((c) => c.close()));
  }

  /** The open clients' sockets, for tests. */
  openSockets(): string[] {
    return [...this.channels.entries()].filter(([, c]) => !c.closed).map(([s]) => s);
  }

  /**
   * Runs `argv` through the wrapped runner; a tmux call written without `-u` gets it
   * ({@link TMUX_UTF8}: UTF-8 output whatever the locale).
   */
  private oneShot(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    if (argv[0] !== "tmux") return this.fallback.run(argv, options);
    this.stats.oneShot++;
    return this.fallback.run(
      argv[1] === TMUX_UTF8 ? argv : ["tmux", TMUX_UTF8, ...argv.slice(1)],
      options,
    );
  }

  /** The socket and commands of a call a client can carry; null otherwise. */
  private plan(
    argv: readonly string[],
    options: RunOptions,
  ): { socket: string; commands: string[][] } | null {
    if (this.closed || argv[0] !== "tmux") return null;
    // `tmux [-u] -S SOCKET command…`, as `Tmux.argv` writes it.
    const at = argv[1] === "-u" ? 2 : 1;
    if (argv[at] !== "-S" || argv.length < at + 3) return null;
    if (options.interactive || options.env || options.cwd || options.clearEnv) return null;
    const commands = commandsOfArgv(argv.slice(at + 2));
    if (commands.length === 0) return null;
    for (const c of commands) {
      if (!RESIDENT_COMMANDS.has(c[0])) return null;
      if (c[0] === "if-shell" && !c.includes("-F")) return null;
      if (c.some((w) => /[\n\r\0]/.test(w))) return null;
    }
    if (options.stdin !== undefined) {
      const readers = commands.filter((c) => c[0] === "load-buffer" && c[c.length - 1] === "-");
      if (readers.length !== 1) return null;
    }
    return { socket: argv[at + 1], commands };
  }

  /**
   * The live client of `socket`, opened when there is none: attached to the session the
   * commands name (`-t =NAME…`), else to the first the server lists; null when no server runs
   * there or it has no session.
   */
  private async channelFor(socket: string, commands: string[][]): Promise<ControlChannel | null> {
    const open = this.channels.get(socket);
    if (open !== undefined && !open.closed) return open;
    if (open !== undefined) this.drop(socket, open);
    let session = namedSession(commands);
    if (session === null) {
      const r = await this.oneShot(
        ["tmux", TMUX_UTF8, "-S", socket, "list-sessions", "-F", "#{session_name}"],
        {
          allowFailure: true,
        },
      );
      session = r.success ? r.stdout.split("\n").find((s) => s !== "") ?? null : null;
      if (session === null) return null;
    }
    const inode = socketInode(socket);
    if (inode === null) return null;
    const channel = Channel.open(socket, session, {
      readOnly: false,
      captureDir: this.options.bufferDir,
    });
    if (channel === null) return null;
    this.stats.opened++;
    this.channels.set(socket, channel);
    this.inodes.set(channel, inode);
    return channel;
  }

  private drop(socket: string, channel: ControlChannel): void {
    if (this.channels.get(socket) === channel) this.channels.delete(socket);
    this.inodes.delete(channel);
    channel.close().catch(() => {});
  }

  private async bufferFile(stdin: string | Uint8Array): Promise<string> {
    const bytes = typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin;
    const name = Array.from(
      crypto.getRandomValues(new Uint8Array(8)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    const path = `${this.options.bufferDir}/buffer-${name}`;
    await Deno.writeFile(path, bytes, { mode: 0o600, createNew: true });
    return path;
  }
}

/** The inode of the socket file (a new server makes a new one); null when there is none. */
function socketInode(socket: string): number | null {
  try {
    return Deno.statSync(socket).ino ?? null;
  } catch {
    return null;
  }
}

/** A write whose fate is unknown: its client ended while tmux ran it, or its server changed. */
function staleWrite(socket: string): LisaError {
  return new LisaError(
    "command_failed",
    "tmux's control client ended (its server exited or restarted) while tmux ran a write into " +
      "a pane; it may have taken effect: capture the session to see, then send again if not",
    { details: { socketPath: socket } },
  );
}

/** The session a chain targets first (`-t =NAME:…` or `-t =NAME`), or null. */
function namedSession(commands: readonly (readonly string[])[]): string | null {
  for (const c of commands) {
    const i = c.indexOf("-t");
    const m = i >= 0 ? /^=([^:]+)/.exec(c[i + 1] ?? "") : null;
    if (m !== null) return m[1];
  }
  return null;
}

/** What a one-shot tmux would have returned for the chain's blocks. */
function resultOf(
  argv: readonly string[],
  blocks: readonly { ok: boolean; output: string }[],
  options: RunOptions,
): RunResult {
  const failed = blocks.find((b) => !b.ok);
  const result: RunResult = {
    code: failed ? 1 : 0,
    success: !failed,
    stdout: blocks.filter((b) => b.ok).map((b) => b.output).join(""),
    stderr: failed?.output ?? "",
  };
  if (!result.success && !options.allowFailure) throw new CommandFailedError(argv, result);
  return result;
}

async function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(onTimeout()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
