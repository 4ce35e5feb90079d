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

interface Waiter {
  resolve: (r: ControlReply) => void;
  reject: (e: Error) => void;
}

/** A control-mode client of one tmux server (see the module doc). */
export class ControlChannel {
  private readonly child: Deno.ChildProcess;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly waiters: Waiter[] = [];
  private block: { tag: string; mine: boolean; lines: string[] } | null = null;
  private isClosed = false;
  private readonly encoder = new TextEncoder();

  private constructor(
    readonly socketPath: string,
    readonly session: string,
    private readonly onChange?: () => void,
  ) {
    this.child = new Deno.Command("tmux", {
      args: [
        TMUX_UTF8,
        "-S",
        socketPath,
        "-C",
        "attach-session",
        "-f",
        "ignore-size,no-output,read-only",
        "-t",
        sessionTarget(session),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    this.readLoop().catch(() => this.fail());
    this.child.status.then(() => this.fail()).catch(() => this.fail());
  }

  /** Opens a channel attached to `session` on `socketPath`; null when tmux cannot start. */
  static open(
    socketPath: string,
    session: string,
    onChange?: () => void,
  ): ControlChannel | null {
    try {
      return new ControlChannel(socketPath, session, onChange);
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
    for (const w of this.waiters.splice(0)) w.reject(new Error("tmux control client closed"));
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
        if (done.mine) {
          const w = this.waiters.shift();
          const output = done.lines.length > 0 ? done.lines.join("\n") + "\n" : "";
          w?.resolve({ ok: m[1] === "end", output });
        }
        return;
      }
      this.block.lines.push(text);
      return;
    }
    const begin = /^%begin (\d+ \d+) (\d+)$/.exec(text);
    if (begin !== null) {
      this.block = { tag: begin[1], mine: (Number(begin[2]) & 1) === 1, lines: [] };
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

  /**
   * Runs each command (one line each, so a failing one does not stop the others) and returns
   * their replies in order. Throws when the channel is closed or closes meanwhile.
   */
  async run(commands: readonly (readonly string[])[]): Promise<ControlReply[]> {
    if (this.isClosed) throw new Error("tmux control client closed");
    const replies = commands.map(() =>
      new Promise<ControlReply>((resolve, reject) => this.waiters.push({ resolve, reject }))
    );
    // Handled from the start: the client may die while the write is pending, rejecting every
    // waiter before anyone awaits them (an unhandled rejection would end the process).
    const all = Promise.all(replies);
    all.catch(() => {});
    const text = commands.map((c) => c.map(quoteWord).join(" ") + "\n").join("");
    try {
      await this.writer.write(this.encoder.encode(text));
    } catch (error) {
      this.fail();
      throw error;
    }
    return await all;
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
