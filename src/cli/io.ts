/** Output channels. Data goes to `out` (stdout), diagnostics to `err` (stderr). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (tables may use colour). */
  readonly isTty: boolean;
  /** True when colour must not be used (`NO_COLOR` set or not a TTY). */
  readonly noColor: boolean;
}

const encoder = new TextEncoder();

function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) {
    const n = file.writeSync(bytes);
    bytes = bytes.subarray(n);
  }
}

/** The real terminal: stdout and stderr of this process. */
export function realIo(env: Readonly<Record<string, string>>): Io {
  const isTty = Deno.stdout.isTerminal();
  return {
    out: (text) => writeAll(Deno.stdout, text),
    err: (text) => writeAll(Deno.stderr, text),
    isTty,
    noColor: !isTty || env.NO_COLOR !== undefined,
  };
}

/** An in-memory Io for tests; `stdout`/`stderr` accumulate what was written. */
export class MemoryIo implements Io {
  stdout = "";
  stderr = "";
  readonly isTty = false;
  readonly noColor = true;
  out(text: string): void {
    this.stdout += text;
  }
  err(text: string): void {
    this.stderr += text;
  }
}
