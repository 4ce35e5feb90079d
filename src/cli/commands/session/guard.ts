/** `lisa session guard`: is a planned cleanup/kill safe for the user's default tmux server? */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { DEFAULT_PLANNED_COMMAND, runGuard } from "../../../core/upkeep/guard.ts";

/** Registers `lisa session guard`. Exits 0 when safe, 1 when the planned command is risky. */
export function registerGuard(session: Command, ctx: CliContext): void {
  session
    .command("guard")
    .description(
      "check whether a planned cleanup/kill command is risky for the default tmux server " +
        "(read-only; exit 1 when risky)",
    )
    .option("--shared-tmux", "inspect the default tmux server (read-only list-sessions)")
    .option("--command <cmd>", `the command you plan to run (default: ${DEFAULT_PLANNED_COMMAND})`)
    .option("--json", "print JSON")
    .action(async (opts) => {
      const report = await runGuard(ctx.deps, {
        sharedTmux: opts.sharedTmux === true,
        command: opts.command,
      });
      ctx.exitCode = report.safe ? 0 : 1;
      if (opts.json) {
        printJson(ctx.deps.io, { ...report });
        return;
      }
      const io = ctx.deps.io;
      const risk = report.commandRisk;
      io.out(`${report.safe ? "safe" : "RISKY"}: ${risk.command} (risk ${risk.level})\n`);
      for (const r of risk.reasons) io.out(`  - ${r}\n`);
      const server = report.defaultServer;
      if (server !== null) {
        io.out(
          server.running
            ? `default tmux server: ${server.sessions.length} session(s), ` +
              `${server.attachedSessions} attached\n`
            : "default tmux server: not running\n",
        );
      }
      for (const w of report.warnings) io.out(`warning: ${w}\n`);
    });
}
