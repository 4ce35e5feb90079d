/** `lisa session merge [id]`: a --worktree session's work into the main checkout. */
import type { LisaContext } from "../../context.ts";
import { sessionOf } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { mergeFlags } from "./merge_spec.ts";
import { mergeSession } from "../../../core/worktree/mod.ts";

/** Merges the session's branch; a conflict is an error (exit 2) that changed nothing. */
export default async function merge(
  this: LisaContext,
  flags: FlagsOf<typeof mergeFlags>,
  id?: string,
): Promise<void> {
  const r = await mergeSession(this.deps, {
    session: sessionOf(flags.session, id),
    projectRoot: flags.projectRoot,
    squash: flags.squash ?? false,
    message: flags.message,
    force: flags.force ?? false,
  });
  if (flags.json) {
    printJson(this.deps.io, { ...r });
    return;
  }
  const pending = r.pendingCommit
    ? ` (pending work committed as ${r.pendingCommit.slice(0, 12)})`
    : "";
  this.deps.io.out(
    r.upToDate
      ? `${r.into} already has everything of ${r.branch}${pending}\n`
      : `merged ${r.branch} into ${r.into}${r.squash ? " (squashed)" : ""}: ` +
        `${r.mergeCommit!.slice(0, 12)}, ${r.files.length} file(s)${pending}\n`,
  );
}
