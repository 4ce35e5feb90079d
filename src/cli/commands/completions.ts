/** `lisa completions bash|zsh|fish`: a completion script generated from the command table. */
import type { LisaContext } from "../context.ts";
import type { completionsFlags, FlagsOf } from "../verbs.ts";
import { completionScript, sessionCandidates } from "../completion_script.ts";

/** Prints the script for `shell` (or, for `sessions`, the names the script completes). */
export default async function completions(
  this: LisaContext,
  _flags: FlagsOf<typeof completionsFlags>,
  shell: "bash" | "zsh" | "fish" | "sessions",
): Promise<void> {
  if (shell === "sessions") {
    for (const name of await sessionCandidates(this.deps)) this.deps.io.out(`${name}\n`);
    return;
  }
  this.deps.io.out(completionScript(shell));
}
