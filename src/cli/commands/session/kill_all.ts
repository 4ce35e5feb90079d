/** `lisa session kill-all`: end every lisa session (of the project, or of every server). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { killAllSessions } from "../../../core/kill/kill.ts";
import { printKillOutcome } from "./kill.ts";

/** Registers `lisa session kill-all`. */
export function registerKillAll(session: Command, ctx: CliContext): void {
  session
    .command("kill-all")
    .description("end every lisa session on every lisa tmux server (or only the project's)")
    .option("--project-only", "only the current project's sessions")
    .option(
      "--cleanup-all-hashes",
      "remove their artifacts under every project hash (default without --project-only)",
    )
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--json", "print JSON")
    .action(async (opts) => {
      // Printed through `announce`: when lisa runs inside a session, its terminal goes last.
      await killAllSessions(ctx.deps, {
        projectRoot: opts.projectRoot,
        projectOnly: opts.projectOnly ?? false,
        cleanupAllHashes: opts.cleanupAllHashes,
        announce: (result) => {
          const noun = `session${result.count === 1 ? "" : "s"}`;
          printKillOutcome(ctx, opts.json ?? false, result, `killed ${result.count} ${noun}`);
        },
      });
    });
}
