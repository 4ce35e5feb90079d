/** `lisa session kill`: end a session, its descendants and all their processes. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { killSessionTree, type ProcessReport } from "../../../core/kill/kill.ts";

/**
 * Prints a kill/kill-all outcome: the JSON payload (with `errorCode: "processes_remaining"` when
 * a process survived), or `doneLine` plus one stderr line per surviving process. Sets the exit
 * code (1 when something survived).
 */
export function printKillOutcome<R extends { ok: boolean; processes: ProcessReport }>(
  ctx: CliContext,
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
}

/** Registers `lisa session kill`. */
export function registerKill(session: Command, ctx: CliContext): void {
  session
    .command("kill")
    .description(
      "end a session: its descendants first, every process of its pane, its artifacts (the event log is kept)",
    )
    .requiredOption("--session <name>", "session name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--cleanup-all-hashes", "also remove its artifacts under other project hashes")
    .option("--json", "print JSON")
    .action(async (opts) => {
      // Printed through `announce`: when lisa runs inside the session, its terminal goes last.
      await killSessionTree(ctx.deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
        cleanupAllHashes: opts.cleanupAllHashes,
        announce: (result) =>
          printKillOutcome(ctx, opts.json ?? false, result, `killed ${result.killed.join(", ")}`),
      });
    });
}
