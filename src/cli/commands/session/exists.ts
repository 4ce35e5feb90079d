/** `lisa session exists`: exit 0 when the session exists, 1 when not. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { sessionExists } from "../../../core/inventory/exists.ts";

/** Registers `lisa session exists`. */
export function registerExists(session: Command, ctx: CliContext): void {
  session
    .command("exists")
    .description("exit 0 when the session exists, 1 when it does not")
    .requiredOption("--session <name>", "session name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const result = await sessionExists(ctx.deps, opts.session, opts.projectRoot);
      if (opts.json) printJson(ctx.deps.io, { ...result });
      else ctx.deps.io.out(`${result.exists}\n`);
      ctx.exitCode = result.exists ? 0 : 1;
    });
}
