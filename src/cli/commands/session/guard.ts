/** `lisa session guard`: is a planned cleanup/kill safe for the user's default tmux server? */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { guardFlags } from "./guard_spec.ts";
import { runGuard } from "../../../core/upkeep/mod.ts";
import { UsageError } from "../../../base/errors.ts";

/**
 * Prints the guard's verdict; exit 0 when safe, 1 when the planned command is risky (`--enforce`,
 * the default), always 0 with `--advice-only`.
 */
export default async function guard(
  this: LisaContext,
  flags: FlagsOf<typeof guardFlags>,
): Promise<void> {
  if (flags.enforce && flags.adviceOnly) {
    throw new UsageError("--enforce and --advice-only exclude each other", "conflicting_options");
  }
  const report = await runGuard(this.deps, {
    sharedTmux: flags.sharedTmux === true,
    command: flags.command,
  });
  const advice = flags.adviceOnly === true;
  this.exitCode = report.safe || advice ? 0 : 1;
  const io = this.deps.io;
  if (flags.json) {
    const server = report.defaultServer;
    printJson(io, {
      ...report,
      // The older Go lisa's fields.
      sharedTmux: flags.sharedTmux === true,
      defaultSessionCount: server?.sessions.length ?? 0,
      defaultSessions: server?.sessions.map((s) => s.name) ?? [],
      enforce: !advice,
    });
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
