/** `lisa session diff [id]`: what a --worktree session's agent changed since its base. */
import type { LisaContext } from "../../context.ts";
import { sessionOf } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { diffFlags } from "./diff_spec.ts";
import { type DiffResult, diffSession } from "../../../core/worktree/mod.ts";

/** The summary above `--stat`'s table (the patch alone is printed bare, ready for `git apply`). */
function summary(r: DiffResult): string {
  const lines = [
    `session   ${r.session}`,
    `worktree  ${r.worktree.path}${r.worktreePresent ? "" : " (gone)"}`,
    `branch    ${r.worktree.branch} from ${r.worktree.base} (${
      r.worktree.baseCommit.slice(0, 12)
    })`,
    `commits   ${r.commits.length}`,
    ...r.commits.map((c) => `  ${c.sha.slice(0, 12)} ${c.subject}`),
    `pending   ${r.uncommitted.length} uncommitted, ${r.untracked.length} untracked`,
  ];
  return lines.join("\n") + "\n";
}

/** Prints the session's diff (patch, `--stat` summary, or JSON). */
export default async function diff(
  this: LisaContext,
  flags: FlagsOf<typeof diffFlags>,
  id?: string,
): Promise<void> {
  const result = await diffSession(this.deps, {
    session: sessionOf(flags.session, id),
    projectRoot: flags.projectRoot,
    stat: flags.stat ?? false,
  });
  if (flags.json) printJson(this.deps.io, { ...result });
  else if (flags.stat) this.deps.io.out(summary(result) + (result.stat ?? ""));
  else this.deps.io.out(result.patch ?? "");
}
