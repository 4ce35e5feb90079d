/** `lisa session status`: one session's state, the reason, and the signals behind it. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printStatus, statusExitCode } from "../../status_render.ts";
import { sessionStatus } from "../../../core/status/status.ts";

/** Registers `lisa session status` (the lean path in `fast_status.ts` mirrors its flags). */
export function registerStatus(session: Command, ctx: CliContext): void {
  session
    .command("status")
    .description("classify a session: state, reason, exit code, and the signals seen")
    .requiredOption("--session <name>", "session name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--json", "print JSON")
    .option("--json-min", "print compact JSON (session, status, sessionState, reason, exit)")
    .option("--fail-not-found", "exit 1 when the session does not exist (default: exit 0)")
    .action(async (opts) => {
      const { report } = await sessionStatus(ctx.deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
      });
      printStatus(ctx.deps.io, report, { json: opts.json, jsonMin: opts.jsonMin });
      ctx.exitCode = statusExitCode(report, opts.failNotFound ?? false);
    });
}
