/**
 * The `Io` contract: where lisa's output goes and its input comes from (the real terminal in
 * `src/cli/io.ts`, memory in tests), with the capped stdin read and the closed-stdout exit code
 * every command shares.
 */

/** Output channels. Data goes to `out` (stdout), diagnostics to `err` (stderr). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (tables may use colour). */
  readonly isTty: boolean;
  /** True when colour must not be used (`NO_COLOR` set or not a TTY). */
  readonly noColor: boolean;
  /**
   * Reads standard input to its end, but never more than `maxBytes + 1` bytes (so a caller
   * can tell "too large" from "exactly the limit" without holding an endless stream).
   */
  readStdin(maxBytes: number): Promise<Uint8Array>;
  /**
   * True once a write found stdout closed by its reader (`lisa … | head -3`): later output is
   * dropped, and commands that only stream (monitor) stop.
   */
  readonly outClosed: boolean;
  /** True when stdin is a terminal (a person could answer a question). Absent: false. */
  readonly stdinIsTty?: boolean;
  /** Width of the terminal in columns, when stdout is one. */
  columns?(): number | null;
  /** Reads one line typed on stdin (without its newline); null at end of input. */
  readLine?(): Promise<string | null>;
}

/**
 * Writes `lisa: warning: <message>` on stderr: something went wrong that does not fail the
 * command (the one form every warning of lisa takes, so people and scripts can spot them).
 */
export function warn(io: Pick<Io, "err">, message: string): void {
  io.err(`lisa: warning: ${message}\n`);
}

/**
 * Exit code of a command whose stdout reader went away (`monitor --stream-json | head -1`):
 * 128 + SIGPIPE, what a shell reports for a writer killed by a closed pipe.
 */
export const STDOUT_CLOSED_EXIT_CODE = 141;

/** Reads `reader` to EOF or until more than `maxBytes` bytes came (at most `maxBytes + 1`). */
export async function readCapped(
  reader: { read(p: Uint8Array): Promise<number | null> },
  maxBytes: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const buf = new Uint8Array(Math.min(1 << 20, maxBytes + 1 - total));
    const n = await reader.read(buf);
    if (n === null) break;
    chunks.push(buf.subarray(0, n));
    total += n;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
