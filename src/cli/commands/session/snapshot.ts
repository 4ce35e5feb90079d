/** `lisa session snapshot`: status and pane text (nextOffset, markers) in one call. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { intArg, listArg } from "../../options.ts";
import { statusMin, statusText } from "../../status_render.ts";
import { snapshotSession } from "../../../core/status/snapshot.ts";
import { markerSummaryLine } from "./capture.ts";

/** Registers `lisa session snapshot`. */
export function registerSnapshot(session: Command, ctx: CliContext): void {
  session
    .command("snapshot")
    .description("a session's status and its pane text (with nextOffset and markers) at once")
    .requiredOption("--session <name>", "session name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--lines <n>", "at most the last N lines of text (default 200)", intArg(1, 100_000))
    .option("--markers <list>", "comma-separated markers to look for in the text", listArg)
    .option("--keep-noise", "keep agent start-up noise in the text")
    .option("--delta-from <offset>", "only the text since this nextOffset (opaque token)")
    .option("--json", "print JSON")
    .option("--json-min", "print compact JSON (status fields, nextOffset, markers)")
    .action(async (opts) => {
      const io = ctx.deps.io;
      const result = await snapshotSession(ctx.deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
        lines: opts.lines,
        markers: opts.markers,
        keepNoise: opts.keepNoise ?? false,
        deltaFrom: opts.deltaFrom,
      });
      if (opts.jsonMin) {
        printJson(io, {
          ...statusMin(result),
          nextOffset: result.nextOffset,
          ...(result.markers ? { markers: result.markers } : {}),
        });
      } else if (opts.json) printJson(io, { ...result });
      else {
        const { capture, nextOffset: _n, markers, ...report } = result;
        io.out(statusText(report));
        if (capture !== null) {
          io.out(`--- pane (${capture.lines} lines, nextOffset ${capture.nextOffset}) ---\n`);
          if (capture.text !== "") io.out(`${capture.text}\n`);
        }
        if (markers) io.out(`${markerSummaryLine(markers)}\n`);
      }
    });
}
