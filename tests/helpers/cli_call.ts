/**
 * The command line in-process with every verb stubbed: argv → the flags and positionals a verb
 * receives, its exit code and output, without running anything (CLI tests).
 */
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { fakeDeps } from "./fake_deps.ts";

/** What one stubbed call gave. */
export interface Call {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | undefined;
  /** What the stub of the verb received (undefined when it did not run). */
  flags: Record<string, unknown> | undefined;
  args: unknown[] | undefined;
}

/** `flags` without the keys stricli set to undefined (absent optional flags). */
export function definedOnly(flags: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
}

/** Runs `argv` with every verb stubbed; the stub records what it got (and runs `stub`). */
export async function callStubbed(
  argv: string[],
  stub?: (flags: Record<string, unknown>) => void,
): Promise<Call> {
  const io = new MemoryIo();
  let flags: Record<string, unknown> | undefined;
  let args: unknown[] | undefined;
  const overrides = Object.fromEntries(
    Object.keys(VERBS).map((route) => [
      route,
      function (f: Record<string, unknown>, ...rest: unknown[]) {
        flags = definedOnly(f);
        args = rest;
        stub?.(f);
      },
    ]),
  );
  const code = await main(argv, fakeDeps({ io }), { overrides });
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(io.stdout);
  } catch { /* not JSON */ }
  return { code, stdout: io.stdout, stderr: io.stderr, json, flags, args };
}
