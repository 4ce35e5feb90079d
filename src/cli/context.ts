/**
 * What a verb file receives: the dependencies and a way to set the process exit code.
 */
import type { Deps } from "../base/deps.ts";

/** Per-invocation CLI context shared by all verb files. */
export interface CliContext {
  deps: Deps;
  /** Exit code the verb wants (default 0). */
  exitCode: number;
}
