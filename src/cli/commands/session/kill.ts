/** `lisa session kill`: end a session, its descendants and all their processes. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { killSessionTree, type ProcessReport } from "../../../core/kill.ts";

/** One stderr line per process that survived SIGKILL. */
export function reportSurvivors(ctx: CliContext, processes: ProcessReport): void {
  for (const p of processes.remaining) {
    ctx.deps.io.err(`lisa: process ${p.pid} (${p.name}) of ${p.session} is still running\n`);
  }
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
      const result = await killSessionTree(ctx.deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
        cleanupAllHashes: opts.cleanupAllHashes,
      });
      ctx.exitCode = result.ok ? 0 : 1;
      if (opts.json) {
        printJson(ctx.deps.io, {
          ...result,
          ...(result.ok ? {} : { errorCode: "processes_remaining" }),
        });
        return;
      }
      reportSurvivors(ctx, result.processes);
      ctx.deps.io.out(`killed ${result.killed.join(", ")}\n`);
    });
}
