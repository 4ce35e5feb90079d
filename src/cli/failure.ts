/**
 * How a failed call is reported, shared by the command table (`run.ts`) and the status
 * pre-parser (`fast_status.ts`): a `LisaError` keeps its code and exit code, anything else is
 * `internal_error`; with JSON the payload goes to stdout, otherwise one line to stderr.
 */
import type { Deps } from "../base/deps.ts";
import { LisaError } from "../base/errors.ts";
import { writeError } from "./output.ts";

/** True when the call asked for JSON: errors then go to stdout as a JSON payload. */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a) =>
    a === "--json" || a === "--json-min" || a === "--stream-json" || a.startsWith("--json=")
  );
}

/** The `--help` command to suggest: the command words before the first flag. */
export function helpCommandOf(argv: readonly string[]): string {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith("-") || words.length >= 2) break;
    words.push(a);
  }
  return words.length > 0 ? `lisa ${words.join(" ")} --help` : "lisa --help";
}

/** Writes `error` and returns its exit code (see the module doc). */
export function reportFailure(deps: Deps, json: boolean, error: unknown, help: string): number {
  if (error instanceof LisaError) {
    writeError(
      deps.io,
      json,
      error.code,
      error.message,
      error.details,
      error.usage ? `(see: ${help})` : undefined,
    );
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  writeError(deps.io, json, "internal_error", message);
  return 1;
}
