/** `lisa cleanup`: remove stale lisa sockets, artifacts and scripts. Never kills a server. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../context.ts";
import { printJson } from "../output.ts";
import { runCleanup } from "../../core/upkeep/cleanup.ts";
import { resolveProject } from "../../core/session/project.ts";

/** Registers `lisa cleanup`. */
export function registerCleanup(program: Command, ctx: CliContext): void {
  program
    .command("cleanup")
    .description(
      "remove stale lisa sockets (no server answering), artifacts of gone sessions and old " +
        "startup scripts; never kills a server",
    )
    .option("--dry-run", "report what would be removed and change nothing")
    .option("--project-only", "only the current project (default: every project)")
    .option(
      "--project-root <dir>",
      "project root for --project-only (default: LISA_PROJECT_ROOT, else cwd)",
    )
    .option("--json", "print JSON")
    .action(async (opts) => {
      const projectHash = opts.projectOnly
        ? resolveProject(ctx.deps, opts.projectRoot).hash
        : undefined;
      const report = await runCleanup(ctx.deps, { dryRun: opts.dryRun === true, projectHash });
      ctx.exitCode = report.errors.length > 0 ? 1 : 0;
      if (opts.json) {
        printJson(ctx.deps.io, { ok: report.errors.length === 0, ...report });
        return;
      }
      const io = ctx.deps.io;
      const verb = report.dryRun ? "would remove" : "removed";
      const r = report.removed;
      io.out(
        `${verb}: ${r.sockets.length} socket(s), ${r.artifacts.length} artifact(s), ` +
          `${r.scripts.length} script(s); live sessions kept: ${report.liveSessions.length}\n`,
      );
      for (const p of [...r.sockets, ...r.artifacts, ...r.scripts]) io.out(`  ${p}\n`);
      for (const u of report.unknownSockets) {
        io.err(`lisa: kept ${u.path}: its server could not be asked (${u.error})\n`);
      }
      for (const e of report.errors) io.err(`lisa: could not remove ${e.path}: ${e.error}\n`);
    });
}
