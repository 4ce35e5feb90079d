/**
 * What a verb implementation receives as `this`: the dependencies, whether the call asked for
 * JSON, and the exit code it wants. stricli's own output (help, usage) goes through `process`.
 */
import type { Deps } from "../base/deps.ts";

/**
 * Per-invocation context of a verb (a stricli `CommandContext`, declared here so the status
 * pre-parser's graph does not name stricli, not even as a type).
 */
export interface LisaContext {
  readonly process: {
    readonly stdout: { readonly write: (text: string) => void };
    readonly stderr: { readonly write: (text: string) => void };
  };
  readonly deps: Deps;
  /** True when the call asked for JSON (`--json`, `--json-min`, `--stream-json`). */
  readonly json: boolean;
  /** The exit code the verb wants (default 0). */
  exitCode: number;
}
