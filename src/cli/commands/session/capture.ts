/** `lisa session capture`: a session's pane text, deltas by offset, marker checks. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { intArg, listArg } from "../../options.ts";
import { capture, type CaptureOutcome } from "../../../core/drive/capture.ts";

/** One-line marker summary for people: `markers: found=A missing=B counts=A:2,B:0`. */
export function markerSummaryLine(markers: NonNullable<CaptureOutcome["markers"]>): string {
  const counts = Object.entries(markers.counts).map(([m, n]) => `${m}:${n}`).join(",");
  return `markers: found=${markers.found.join(",")} missing=${markers.missing.join(",")} ` +
    `counts=${counts}`;
}

/** Registers `lisa session capture`. */
export function registerCapture(session: Command, ctx: CliContext): void {
  session
    .command("capture")
    .description("print a session's pane text, or only what appeared since an earlier capture")
    .requiredOption("--session <name>", "session name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option(
      "--lines <n>",
      "at most the last N lines (default 200; a delta is uncapped unless given)",
      intArg(1, 1_000_000),
    )
    .option("--raw", "the pane text as tmux shows it (no marker hiding, no noise filtering)")
    .option("--keep-noise", "keep agent start-up noise (MCP/auth warnings, banners, tips)")
    .option("--strip-noise", "filter start-up noise (the default; accepted for compatibility)")
    .option(
      "--delta-from <offset>",
      "only the text since this nextOffset (opaque token) or line count",
    )
    .option(
      "--cursor-file <path>",
      "read the offset from PATH when present; write nextOffset to it after the capture",
    )
    .option("--markers <list>", "comma-separated markers to look for in the returned text", listArg)
    .option("--json", "print JSON")
    .option("--json-min", "print compact JSON (session, text, live, nextOffset, delta, markers)")
    .action(async (opts) => {
      const outcome = await capture(ctx.deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
        lines: opts.lines,
        raw: opts.raw ?? false,
        keepNoise: opts.keepNoise ?? false,
        deltaFrom: opts.deltaFrom,
        cursorFile: opts.cursorFile,
        markers: opts.markers,
      });
      const io = ctx.deps.io;
      if (opts.jsonMin) {
        const { session, text, live, nextOffset, delta, markers } = outcome;
        printJson(io, { session, text, live, nextOffset, delta, markers });
      } else if (opts.json) {
        printJson(io, { ...outcome });
      } else {
        if (outcome.text !== "") io.out(`${outcome.text}\n`);
        if (outcome.markers !== undefined) io.out(`${markerSummaryLine(outcome.markers)}\n`);
      }
    });
}
