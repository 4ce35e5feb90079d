/** `lisa session capture`: a session's pane text, deltas by offset, marker checks. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { captureFlags, FlagsOf } from "../../verbs.ts";
import { capture as captureCore, type CaptureOutcome } from "../../../core/drive/capture.ts";

/** One-line marker summary for people: `markers: found=A missing=B counts=A:2,B:0`. */
export function markerSummaryLine(markers: NonNullable<CaptureOutcome["markers"]>): string {
  const counts = Object.entries(markers.counts).map(([m, n]) => `${m}:${n}`).join(",");
  return `markers: found=${markers.found.join(",")} missing=${markers.missing.join(",")} ` +
    `counts=${counts}`;
}

/** Prints the pane text (or a delta) and the marker summary. */
export default async function capture(
  this: LisaContext,
  flags: FlagsOf<typeof captureFlags>,
): Promise<void> {
  const outcome = await captureCore(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    lines: flags.lines,
    raw: flags.raw ?? false,
    keepNoise: flags.keepNoise ?? false,
    deltaFrom: flags.deltaFrom,
    cursorFile: flags.cursorFile,
    markers: flags.markers,
  });
  const io = this.deps.io;
  if (flags.jsonMin) {
    const { session, text, live, nextOffset, delta, markers } = outcome;
    printJson(io, { session, text, live, nextOffset, delta, markers });
  } else if (flags.json) {
    printJson(io, { ...outcome });
  } else {
    if (outcome.text !== "") io.out(`${outcome.text}\n`);
    if (outcome.markers !== undefined) io.out(`${markerSummaryLine(outcome.markers)}\n`);
  }
}
