/** `lisa session snapshot`: status and pane text (nextOffset, markers) in one call. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import { statusMin, statusText } from "../../status_render.ts";
import type { FlagsOf, snapshotFlags } from "../../verbs.ts";
import { snapshotSession } from "../../../core/status/snapshot.ts";
import { markerSummaryLine } from "./capture.ts";

/** Prints a session's status and its pane text. */
export default async function snapshot(
  this: LisaContext,
  flags: FlagsOf<typeof snapshotFlags>,
): Promise<void> {
  const io = this.deps.io;
  const result = await snapshotSession(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    lines: flags.lines,
    markers: flags.markers,
    keepNoise: flags.keepNoise ?? false,
    deltaFrom: flags.deltaFrom,
  });
  if (flags.jsonMin) {
    printJson(io, {
      ...statusMin(result),
      nextOffset: result.nextOffset,
      ...(result.markers ? { markers: result.markers } : {}),
    });
  } else if (flags.json) printJson(io, { ...result });
  else {
    const { capture, nextOffset: _n, markers, ...report } = result;
    io.out(statusText(report));
    if (capture !== null) {
      io.out(`--- pane (${capture.lines} lines, nextOffset ${capture.nextOffset}) ---\n`);
      if (capture.text !== "") io.out(`${capture.text}\n`);
    }
    if (markers) io.out(`${markerSummaryLine(markers)}\n`);
  }
}
