/** `lisa session explain`: status plus the last events, to see why a session is where it is. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { intArg } from "../../options.ts";
import { statusText } from "../../status_render.ts";
import { explainSession, parseSince } from "../../../core/status/explain.ts";

/** Registers `lisa session explain`. */
export function registerExplain(session: Command, ctx: CliContext): void {
  session
    .command("explain")
    .description("show a session's status and its recent events (transitions, lifecycle)")
    .requiredOption("--session <name>", "session name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--events <n>", "number of recent events (default 10)", intArg(1, 100_000))
    .option("--since <when>", "only events since a duration ago (15m, 2h, 1d) or an ISO time")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const deps = ctx.deps;
      const sinceMs = opts.since === undefined
        ? undefined
        : parseSince(opts.since, deps.now().getTime());
      const result = await explainSession(deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
        events: opts.events,
        sinceMs,
      });
      if (opts.json) {
        printJson(deps.io, { ...result });
        return;
      }
      const { events, eventsFile: _file, ...report } = result;
      deps.io.out(statusText(report));
      deps.io.out(events.length === 0 ? "events: none\n" : "events:\n");
      for (const e of events) {
        const state = e.state ? ` ${e.state}` : "";
        deps.io.out(`  ${e.at}  ${e.type.padEnd(10)}${state} (${e.reason})\n`);
      }
    });
}
