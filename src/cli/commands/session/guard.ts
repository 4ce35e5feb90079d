/** `lisa session guard`: is a planned cleanup/kill safe for the user's default tmux server? */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf, guardFlags } from "../../verbs.ts";
import { runGuard } from "../../../core/upkeep/guard.ts";

/** Prints the guard's verdict; exit 0 when safe, 1 when the planned command is risky. */
export default async function guard(
  this: LisaContext,
  flags: FlagsOf<typeof guardFlags>,
): Promise<void> {
  const report = await runGuard(this.deps, {
    sharedTmux: flags.sharedTmux === true,
    command: flags.command,
  });
  this.exitCode = report.safe ? 0 : 1;
  const io = this.deps.io;
  if (flags.json) {
    printJson(io, { ...report });
    return;
  }
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
}
