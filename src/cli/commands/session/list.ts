/** `lisa session list`: the live lisa sessions, as a table or JSON. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printList } from "../../list_render.ts";
import { listSessionsOf } from "../../../core/inventory/list.ts";

/** Registers `lisa session list`. */
export function registerList(session: Command, ctx: CliContext): void {
  session
    .command("list")
    .description("list live lisa sessions")
    .option("--project-only", "only sessions of the current project")
    .option("--all-sockets", "every project's tmux server in the socket dir")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const result = await listSessionsOf(ctx.deps, {
        projectRoot: opts.projectRoot,
        projectOnly: opts.projectOnly ?? false,
        allSockets: opts.allSockets ?? false,
      });
      printList(ctx.deps.io, result, opts.json ?? false, ctx.deps.now());
    });
}
