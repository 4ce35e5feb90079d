/**
 * A tmux control-mode channel (`tmux -C`): one long-lived client per server over which `watch`
 * sends its read-only commands each round, so a poll forks no process. The client attaches to
 * one session with the flags `ignore-size` (it never resizes the session's window),
 * `no-output` (no `%output` stream) and `read-only`; it only ever runs the listing and capture
 * commands lisa writes to it. Each command line gets one `%begin … %end` (or `%error`) block;
 * blocks of commands the client did not send (flags 0: the attach itself) and notifications
 * are skipped, except that a change of the server's sessions or windows calls `onChange` (watch
 * then looks at once). When the attached session ends, tmux closes the client (`%exit`): the channel
 * reports itself closed and callers fall back to a one-shot tmux call.
 *
 * tmux writes a command's output into the same stream as its framing and escapes nothing, so a
 * pane that shows a line like `%end <time> <number> 1` would end a capture's block early (and a
 * `%begin …` line then opens one that never ends). Pane text therefore never rides the stream: a
 * capture that prints (`capture-pane -p`) is run as a capture into a named buffer that
 * `save-buffer` writes to a file in the channel's private `captureDir`, read and removed here.
 *
 * This is the one place lisa keeps a subprocess running across calls, so it uses
 * `Deno.Command` directly (the runner runs to completion); the child is ended by its own pid
 * in {@link ControlChannel.close}.
 */
import { quoteWord, sessionTarget, TMUX_UTF8 } from "./tmux.ts";

export { quoteWord };

/** One command's answer. */
export interface ControlReply {
  ok: boolean;
  /** The command's output (each line followed by a newline). */
  output: string;
}

/** Client flags of a read-only channel (see the module doc). */
const CONTROL_FLAGS = "ignore-size,no-output,read-only";

/** Options of {@link ControlChannel.open}. */
export interface ControlOptions {
  /** Called when the server's sessions or windows change. */
  onChange?: () => void;
  /**
   * False for a client that may write (paste, send keys): tmux refuses every command but the
   * listing ones from a read-only client. Default true.
   */
  readOnly?: boolean;
  /**
   * A private (0700) directory for the files captures are written to (see the module doc).
   * Without one, a capture's text comes over the stream, as tmux prints it.
   */
  captureDir?: string;
}

/** True for a capture that prints its text (`capture-pane -p`). */
function printsCapture(command: readonly string[]): boolean {
  return command[0] === "capture-pane" && command.includes("-p");
}

/** The block a one-command chain answers with: its failure, else its one non-empty block. */
function lastBlock(blocks: readonly ControlReply[]): ControlReply {
  return blocks.find((b) => !b.ok) ?? blocks.find((b) => b.output !== "") ??
    { ok: true, output: "" };
}

/** How long a capture's file may take to be written whole after tmux answered. */
const CAPTURE_FILE_WAIT_MS = 10_000;

/**
 * The text of the capture file at `path` once it holds all `size` bytes (its writer, the
 * control client process, may still be writing it); a failed block if it never does.
 */
async function readWhole(path: string, size: number): Promise<ControlReply> {
  const deadline = Date.now() + CAPTURE_FILE_WAIT_MS;
  for (let pause = 1;; pause = Math.min(pause * 2, 50)) {
    let have = -1;
    try {
      have = (await Deno.stat(path)).size;
    } catch { /* not opened yet */ }
    if (have === size) return { ok: true, output: await Deno.readTextFile(path) };
    if (have > size || Date.now() > deadline) {
      return { ok: false, output: `capture file ${path}: ${have} of ${size} bytes written` };
    }
    await new Promise((r) => setTimeout(r, pause));
  }
}

/**
 * What the channel waits for, in the order its lines were written: one block (`run`: one
 * command per line), or every block of a chain up to the block of its sentinel (`runChain`).
 */
type Waiter =
  | { kind: "one"; resolve: (r: ControlReply) => void; reject: (e: Error) => void }
  | {
    kind: "chain";
    sentinel: string;
    blocks: ControlReply[];
    /** True once tmux began a command of the chain (a `%begin` for it arrived). */
    started: boolean;
    resolve: (r: ControlReply[]) => void;
    reject: (e: Error) => void;
  };

/**
 * The channel closed before a chain's answer was complete. `started` tells whether tmux had
 * begun one of its commands: when it had not, nothing of the chain ran.
 */
export class ChannelClosedError extends Error {
  constructor(readonly started: boolean) {
    super("tmux control client closed");
    this.name = "ChannelClosedError";
  }
}

function joinLines(lines: readonly string[]): string {
  return lines.length > 0 ? lines.join("\n") + "\n" : "";
}

/** A control-mode client of one tmux server (see the module doc). */
export class ControlChannel {
  private readonly child: Deno.ChildProcess;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly waiters: Waiter[] = [];
  private block: { tag: string; mine: boolean; lines: string[] } | null = null;
  private isClosed = false;
  private readonly encoder = new TextEncoder();
  private sentinels = 0;
  private captures = 0;
  private readonly captureDir?: string;
  /** Makes the sentinels of this channel unguessable by what a pane shows (a capture). */
  private readonly nonce = Array.from(
    crypto.getRandomValues(new Uint8Array(6)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");

  private readonly onChange?: () => void;

  /** The client's pid (it is ended by this pid). */
  readonly pid: number;

  private constructor(
    readonly socketPath: string,
    readonly session: string,
    options: ControlOptions,
  ) {
    this.onChange = options.onChange;
    this.captureDir = options.captureDir;
    const flags = options.readOnly === false ? "ignore-size,no-output" : CONTROL_FLAGS;
    this.child = new Deno.Command("tmux", {
      args: [
        // UTF-8 output whatever the locale: without it, tmux prints `_` for the field
        // separator of every listing under a non-UTF-8 locale (an MCP client's environment).
        TMUX_UTF8,
        "-S",
        socketPath,
        "-C",
        "attach-session",
        "-f",
        flags,
        "-t",
        sessionTarget(session),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.pid = this.child.pid;
    this.writer = this.child.stdin.getWriter();
    this.readLoop().catch(() => this.fail());
    this.child.status.then(() => this.fail()).catch(() => this.fail());
  }

  /** Opens a channel attached to `session` on `socketPath`; null when tmux cannot start. */
  static open(
    socketPath: string,
    session: string,
    options: ControlOptions = {},
  ): ControlChannel | null {
    try {
      return new ControlChannel(socketPath, session, options);
    } catch {
      return null;
    }
  }

  /** True once the client has exited (or failed): the channel cannot be used any more. */
  get closed(): boolean {
    return this.isClosed;
  }

  private fail(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const w of this.waiters.splice(0)) {
      w.reject(new ChannelClosedError(w.kind === "chain" && w.started));
    }
  }

  private async readLoop(): Promise<void> {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of this.child.stdout) {
      rest += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = rest.indexOf("\n")) >= 0) {
        this.line(rest.slice(0, nl).replace(/\r$/, ""));
        rest = rest.slice(nl + 1);
      }
    }
    this.fail();
  }

  private line(text: string): void {
    if (this.block !== null) {
      const m = /^%(end|error) (\d+ \d+) (\d+)$/.exec(text);
      if (m !== null && m[2] === this.block.tag) {
        const done = this.block;
        this.block = null;
        if (done.mine) this.answer({ ok: m[1] === "end", output: joinLines(done.lines) });
        return;
      }
      this.block.lines.push(text);
      return;
    }
    const begin = /^%begin (\d+ \d+) (\d+)$/.exec(text);
    if (begin !== null) {
      this.block = { tag: begin[1], mine: (Number(begin[2]) & 1) === 1, lines: [] };
      const head = this.waiters[0];
      if (this.block.mine && head?.kind === "chain") head.started = true;
      return;
    }
    if (text.startsWith("%exit")) this.fail();
    // A session created or closed, a window renamed or closed: worth a look now.
    else if (
      /^%(sessions-changed|session-window-changed|window-close|unlinked-window-close)/.test(text)
    ) {
      this.onChange?.();
    }
  }

  /** Gives a block of this client's to the waiter it belongs to. */
  private answer(reply: ControlReply): void {
    const head = this.waiters[0];
    if (head === undefined) return;
    if (head.kind === "one") {
      this.waiters.shift();
      head.resolve(reply);
    } else if (reply.ok && reply.output === `${head.sentinel}\n`) {
      this.waiters.shift();
      head.resolve(head.blocks);
    } else {
      head.blocks.push(reply);
    }
  }

  /**
   * Runs each command (one line each, so a failing one does not stop the others) and returns
   * their replies in order. Throws when the channel is closed or closes meanwhile.
   */
  async run(commands: readonly (readonly string[])[]): Promise<ControlReply[]> {
    if (this.captureDir !== undefined && commands.some(printsCapture)) {
      // Each call below writes its lines before it first waits, so the lines keep their order.
      return await Promise.all(
        commands.map(async (c) =>
          printsCapture(c) ? lastBlock(await this.runChain([c])) : (await this.runLines([c]))[0]
        ),
      );
    }
    return await this.runLines(commands);
  }

  private async runLines(commands: readonly (readonly string[])[]): Promise<ControlReply[]> {
    if (this.isClosed) throw new ChannelClosedError(false);
    const replies = commands.map(() =>
      new Promise<ControlReply>((resolve, reject) =>
        this.waiters.push({ kind: "one", resolve, reject })
      )
    );
    // Handled from the start: the client may die while the write is pending, rejecting every
    // waiter before anyone awaits them (an unhandled rejection would end the process).
    const all = Promise.all(replies);
    all.catch(() => {});
    const text = commands.map((c) => c.map(quoteWord).join(" ") + "\n").join("");
    await this.write(text);
    return await all;
  }

  /**
   * Runs `commands` as one chain, as a one-shot `tmux a ; b ; c` would: tmux stops at the first
   * that fails. Returns the block of each command tmux ran (commands an `if-shell` queued
   * included), in order; the last one failed when the chain stopped early. A sentinel line
   * after the chain marks where its blocks end (their number is not known in advance). Throws
   * {@link ChannelClosedError} when the channel is closed or closes first.
   */
  async runChain(commands: readonly (readonly string[])[]): Promise<ControlReply[]> {
    if (this.isClosed) throw new ChannelClosedError(false);
    const files = new Map<string, string>();
    const sent = this.captureDir === undefined
      ? commands
      : commands.flatMap((c) => printsCapture(c) ? this.captureToFile(c, files) : [c]);
    const sentinel = `__LISA_CONTROL_END__:${this.nonce}:${++this.sentinels}`;
    const blocks = new Promise<ControlReply[]>((resolve, reject) =>
      this.waiters.push({ kind: "chain", sentinel, blocks: [], started: false, resolve, reject })
    );
    blocks.catch(() => {});
    const line = sent.map((c) => c.map(quoteWord).join(" ")).join(" ; ");
    try {
      await this.write(`${line}\ndisplay-message -p ${quoteWord(sentinel)}\n`);
      const answer = await blocks;
      if (files.size === 0) return answer;
      return await Promise.all(answer.map(async (b) => {
        const size = /^(lisa-capture-[0-9a-f]+-\d+):(\d+)\n$/.exec(b.ok ? b.output : "");
        const file = size === null ? undefined : files.get(size[1]);
        if (size === null || file === undefined) return b;
        return await readWhole(file, Number(size[2]));
      }));
    } finally {
      for (const file of files.values()) await Deno.remove(file).catch(() => {});
    }
  }

  /**
   * A printing capture as commands that put its text in a file instead (see the module doc).
   * The client process writes that file after tmux has answered (asynchronously: under load the
   * answer came when a third of it was written), so the buffer's size is listed too (a line only
   * this channel's nonce names), and {@link runChain} replaces that block with the file's text
   * once the file has all of it.
   */
  private captureToFile(command: readonly string[], files: Map<string, string>): string[][] {
    const n = ++this.captures;
    const buffer = `lisa-capture-${this.nonce}-${n}`;
    const file = `${this.captureDir}/capture-${this.nonce}-${n}`;
    files.set(buffer, file);
    return [
      ["capture-pane", "-b", buffer, ...command.slice(1).filter((w) => w !== "-p")],
      ["save-buffer", "-b", buffer, file],
      [
        "list-buffers",
        "-F",
        "#{buffer_name}:#{buffer_size}",
        "-f",
        `#{==:#{buffer_name},${buffer}}`,
      ],
      ["delete-buffer", "-b", buffer],
    ];
  }

  private async write(text: string): Promise<void> {
    try {
      await this.writer.write(this.encoder.encode(text));
    } catch (error) {
      this.fail();
      throw error instanceof ChannelClosedError ? error : new ChannelClosedError(false);
    }
  }

  /** Ends the client (by its pid) and waits for it. */
  async close(): Promise<void> {
    this.fail();
    try {
      await this.writer.close();
    } catch { /* already closed */ }
    try {
      this.child.kill("SIGTERM");
    } catch { /* already gone */ }
    try {
      await this.child.status;
    } catch { /* nothing to wait for */ }
  }
}
