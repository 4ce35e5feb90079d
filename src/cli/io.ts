import type { Io } from "../base/io.ts";
import { readCapped } from "../base/io.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) {
    const n = file.writeSync(bytes);
    bytes = bytes.subarray(n);
  }
}

/**
 * A channel whose reader may leave: a broken pipe (Deno ignores SIGPIPE, so a write fails with
 * EPIPE) marks it closed and drops what follows, instead of an uncaught error and a stack trace.
 * The command still finishes its work and exits with its own code.
 */
class Channel {
  closed = false;
  constructor(private readonly file: { writeSync(p: Uint8Array): number }) {}
  write(text: string): void {
    if (this.closed) return;
    try {
      writeAll(this.file, text);
    } catch (error) {
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
      this.closed = true;
    }
  }
}

/** The real terminal: stdin, stdout and stderr of this process. */
export function realIo(env: Readonly<Record<string, string>>): Io {
  const isTty = Deno.stdout.isTerminal();
  const stdout = new Channel(Deno.stdout);
  const stderr = new Channel(Deno.stderr);
  return {
    out: (text) => stdout.write(text),
    err: (text) => stderr.write(text),
    isTty,
    noColor: !isTty || env.NO_COLOR !== undefined,
    readStdin: (maxBytes) => readCapped(Deno.stdin, maxBytes),
    get outClosed() {
      return stdout.closed;
    },
    stdinIsTty: Deno.stdin.isTerminal(),
    columns: () => {
      try {
        return isTty ? Deno.consoleSize().columns : null;
      } catch {
        return null;
      }
    },
    readLine: () => readLine(Deno.stdin),
  };
}

/** An in-memory Io for tests; `stdout`/`stderr` accumulate what was written. */
export class MemoryIo implements Io {
  stdout = "";
  stderr = "";
  readonly isTty = false;
  readonly noColor = true;
  /** What `readStdin` returns (empty by default, like /dev/null). */
  constructor(private readonly stdin: string | Uint8Array = "") {}
  readStdin(maxBytes: number): Promise<Uint8Array> {
    const bytes = typeof this.stdin === "string" ? encoder.encode(this.stdin) : this.stdin;
    return Promise.resolve(bytes.slice(0, maxBytes + 1));
  }
  /** Tests set this to act as a reader that went away. */
  outClosed = false;
  out(text: string): void {
    if (!this.outClosed) this.stdout += text;
  }
  err(text: string): void {
    this.stderr += text;
  }
}

/** Reads one line from `file` byte by byte (a prompt's answer; never reads past the newline). */
async function readLine(file: { read(p: Uint8Array): Promise<number | null> }): Promise<
  string | null
> {
  const bytes: number[] = [];
  const one = new Uint8Array(1);
  for (;;) {
    const n = await file.read(one);
    if (n === null || n === 0) {
      return bytes.length === 0 ? null : decoder.decode(new Uint8Array(bytes));
    }
    if (one[0] === 10) return decoder.decode(new Uint8Array(bytes)).replace(/\r$/, "");
    bytes.push(one[0]);
  }
}
