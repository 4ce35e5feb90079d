/** `lisa session kill`: end a session, its descendants and all their processes. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { killFlags } from "./kill_spec.ts";
import { type KeptWorktree, killSessionTree, type ProcessReport } from "../../../core/kill/mod.ts";

/**
 * Prints a kill/kill-all outcome: the JSON payload (with `errorCode: "processes_remaining"` when
 * a process survived), or `doneLine` plus one stderr line per surviving process and one line
 * per kept worktree. Sets the exit code (1 when something survived).
 */
export function printKillOutcome<
  R extends { ok: boolean; processes: ProcessReport; worktrees: KeptWorktree[] },
>(
  ctx: LisaContext,
  json: boolean,
  result: R,
  doneLine: string,
): void {
  ctx.exitCode = result.ok ? 0 : 1;
  if (json) {
    printJson(ctx.deps.io, {
      ...result,
      ...(result.ok ? {} : { errorCode: "processes_remaining" }),
    });
    return;
  }
  for (const p of result.processes.remaining) {
    ctx.deps.io.err(`lisa: process ${p.pid} (${p.name}) of ${p.session} is still running\n`);
  }
  ctx.deps.io.out(`${doneLine}\n`);
  for (const w of result.worktrees) {
    ctx.deps.io.out(
      `kept worktree ${w.path} (branch ${w.branch}) of ${w.session}: ` +
        "review with session diff, merge with session merge\n",
    );
  }
}

/** Kills the session tree. */
export default async function kill(
  this: LisaContext,
  flags: FlagsOf<typeof killFlags>,
): Promise<void> {
  // Printed through `announce`: when lisa runs inside the session, its terminal goes last.
  await killSessionTree(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    cleanupAllHashes: flags.cleanupAllHashes,
    announce: (result) =>
      printKillOutcome(
        this,
        flags.json ?? false,
        { ...result, found: true },
        `killed ${result.killed.join(", ")}`,
      ),
  });
}
