/** `lisa session snapshot`: status and pane text (nextOffset, markers) in one call. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import { statusExitCode, statusMin, statusText } from "../../status_render.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { snapshotFlags } from "./snapshot_spec.ts";
import { type SnapshotResult, snapshotSession } from "../../../core/monitor/mod.ts";
import { markerFields } from "../../../core/capture/mod.ts";
import { markerSummaryLine, requireMarkers } from "./capture.ts";

/**
 * The capture part of a snapshot's JSON: `capture` as a string (the older Go lisa's shape) with
 * its facts beside it; with markers, the marker summary too (with `markerHits` stamped `hitsAt`
 * when given: `--markers-json`), and the text still (see capture's payload).
 */
function capturePart(
  result: SnapshotResult,
  min: boolean,
  hitsAt?: Date,
): Record<string, unknown> {
  const c = result.capture;
  const markers = result.markers ? markerFields(result.markers, { counts: !min, hitsAt }) : {};
  if (c === null) return { ...markers, capture: null, nextOffset: result.nextOffset ?? null };
  const facts = min ? {} : { captureLines: c.lines, truncated: c.truncated };
  return {
    ...markers,
    capture: c.text,
    nextOffset: c.nextOffset,
    ...facts,
    ...(c.delta ? { delta: c.delta } : {}),
    ...(c.live !== undefined ? { live: c.live } : {}),
  };
}

/** Prints a session's status and its pane text. */
export default async function snapshot(
  this: LisaContext,
  flags: FlagsOf<typeof snapshotFlags>,
): Promise<void> {
  const io = this.deps.io;
  requireMarkers(flags);
  const result = await snapshotSession(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    lines: flags.lines,
    markers: flags.markers,
    keepNoise: flags.keepNoise ?? false,
    deltaFrom: flags.deltaFrom,
  });
  this.exitCode = statusExitCode(result, flags.failNotFound ?? false);
  const hitsAt = flags.markersJson ? this.deps.now() : undefined;
  if (flags.jsonMin) printJson(io, { ...statusMin(result), ...capturePart(result, true, hitsAt) });
  else if (flags.json || (flags.markersJson && result.markers)) {
    const { capture: _c, nextOffset: _n, markers: _m, ...report } = result;
    printJson(io, { ...report, ...capturePart(result, false, hitsAt) });
  } else {
    const { capture, nextOffset: _n, markers, ...report } = result;
    io.out(statusText(report));
    if (capture !== null) {
      io.out(`--- pane (${capture.lines} lines, nextOffset ${capture.nextOffset}) ---\n`);
      if (capture.text !== "") io.out(`${capture.text}\n`);
    }
    if (markers) io.out(`${markerSummaryLine(markers)}\n`);
  }
}
