/** `lisa completions bash|zsh|fish`: a completion script generated from the command table. */
import type { LisaContext } from "../context.ts";
import { UsageError } from "../../base/errors.ts";
import type { FlagsOf } from "../verb_spec.ts";
import type { completionsFlags } from "./completions_spec.ts";
import { completionScript, historyCandidates, sessionCandidates } from "../completion_script.ts";

/**
 * Prints the script for `shell`; for `sessions` (`history`), the names the scripts offer for a
 * live session (a session of history) starting with `prefix`, one a line.
 */
export default async function completions(
  this: LisaContext,
  _flags: FlagsOf<typeof completionsFlags>,
  shell: "bash" | "zsh" | "fish" | "sessions" | "history",
  prefix?: string,
): Promise<void> {
  if (shell === "sessions" || shell === "history") {
    const names = shell === "sessions"
      ? await sessionCandidates(this.deps, prefix)
      : await historyCandidates(this.deps, prefix);
    for (const name of names) this.deps.io.out(`${name}\n`);
    return;
  }
  if (prefix !== undefined) {
    throw new UsageError(
      `a prefix ("${prefix}") goes with sessions or history, not with a shell's script`,
      "unexpected_argument",
    );
  }
  this.deps.io.out(completionScript(shell));
}
