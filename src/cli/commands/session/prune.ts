/** `lisa session prune`: remove finished or gone sessions' files by age (never a live one). */
import type { LisaContext } from "../../context.ts";
import { printJson, renderTable } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { pruneFlags } from "./prune_spec.ts";
import { parseDuration } from "../../../base/duration.ts";
import { pruneSessions } from "../../../core/upkeep/mod.ts";

/** Prunes and reports what went (or, with --dry-run, what would go). */
export default async function prune(
  this: LisaContext,
  flags: FlagsOf<typeof pruneFlags>,
): Promise<void> {
  const result = await pruneSessions(this.deps, {
    projectRoot: flags.projectRoot,
    allProjects: flags.allProjects ?? false,
    olderThanMs: flags.olderThan === undefined ? undefined : parseDuration(flags.olderThan),
    dryRun: flags.dryRun ?? false,
    force: flags.force ?? false,
  });
  for (const w of result.worktrees.filter((w) => w.discarded)) {
    const lost = w.reasons.map((r) => r.detail).join("; ");
    this.deps.io.err(
      `lisa: --force ${result.dryRun ? "would discard" : "DISCARDED"} the worktree of ` +
        `${w.session} (${w.worktree.path}, branch ${w.worktree.branch}): ${lost}\n`,
    );
  }
  if (flags.json) {
    printJson(this.deps.io, { ...result });
    return;
  }
  const verb = result.dryRun ? "would prune" : "pruned";
  const io = this.deps.io;
  const going = result.worktrees.filter((w) => w.action !== "kept");
  if (result.pruned.length === 0 && going.length === 0 && result.events.length === 0) {
    // Nothing goes; the worktrees kept (and why) still say what stands in the way.
    io.out("nothing to prune\n");
  } else if (result.pruned.length === 0) {
    io.out(`no session files to prune\n`);
  } else {
    io.out(renderTable(
      ["SESSION", "WHY", "LAST SEEN", "FILES"],
      result.pruned.map((p) => [
        p.alias ?? p.session,
        p.reason,
        p.lastSeenAt ?? "-",
        String(p.files.length),
      ]),
    ));
    io.out(`${verb} ${result.pruned.length} session(s)\n`);
  }
  const action = { removed: "removed", would_remove: "would be removed", kept: "kept" };
  for (const w of result.worktrees) {
    const why = w.reasons.length === 0 ? "" : `: ${w.reasons.map((r) => r.detail).join("; ")}`;
    io.out(`worktree ${w.worktree.path} (${w.worktree.branch}) ${action[w.action]}${why}\n`);
  }
  if (result.events.length > 0) {
    io.out(`${verb} ${result.events.length} event log file(s) past retention\n`);
  }
}
