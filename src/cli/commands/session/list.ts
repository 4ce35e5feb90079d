/** `lisa session list`: the live lisa sessions, as a table or JSON. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson, relativeAge, renderTable } from "../../output.ts";
import { type ListedSession, listSessionsOf } from "../../../core/list.ts";

function stateCell(s: ListedSession): string {
  if (s.state !== null) return s.state;
  if (!s.alive) return s.exitCode === null ? "exited" : `exited ${s.exitCode}`;
  return "-";
}

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
      if (opts.json) {
        printJson(ctx.deps.io, { ...result });
        return;
      }
      if (result.sessions.length === 0) {
        ctx.deps.io.out("no lisa sessions\n");
        return;
      }
      const now = ctx.deps.now();
      const withProject = result.allSockets;
      const headers = [
        "SESSION",
        "AGENT",
        "MODE",
        "STATE",
        "AGE",
        ...(withProject ? ["PROJECT"] : []),
      ];
      const rows = result.sessions.map((s) => [
        s.session,
        s.agent ?? "-",
        s.mode ?? "-",
        stateCell(s),
        relativeAge(new Date(s.createdAt), now),
        ...(withProject ? [s.projectRoot ?? "-"] : []),
      ]);
      ctx.deps.io.out(renderTable(headers, rows));
    });
}
