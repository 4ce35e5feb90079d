/** `lisa session capture`: a session's text (pane or claude transcript), deltas, markers. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { UsageError } from "../../../base/errors.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { captureFlags } from "./capture_spec.ts";
import {
  capture as captureCore,
  type CaptureOutcome,
  markerFields,
} from "../../../core/capture/mod.ts";

/** One-line marker summary for people: `markers: found=A missing=B counts=A:2,B:0`. */
export function markerSummaryLine(markers: NonNullable<CaptureOutcome["markers"]>): string {
  const counts = Object.entries(markers.counts).map(([m, n]) => `${m}:${n}`).join(",");
  return `markers: found=${markers.found.join(",")} missing=${markers.missing.join(",")} ` +
    `counts=${counts}`;
}

/**
 * The JSON payload of a capture (`min`: the compact one). With markers, the marker summary
 * (the older Go lisa's marker mode), with `markerHits` stamped `hitsAt` when given
 * (`--markers-json`), and the text beside it: the Go lisa left the text out, and a delta or a
 * cursor file moved past lines nobody was given. The transcript source adds its messages (full)
 * or their count (min).
 */
export function capturePayload(
  o: CaptureOutcome,
  min: boolean,
  hitsAt?: Date,
): Record<string, unknown> {
  const { markers, messages, messageCount, claudeSession, capture, ...rest } = o;
  const transcript = o.source === "transcript"
    ? (min ? { claudeSession, messageCount } : { claudeSession, messageCount, messages })
    : {};
  if (markers !== undefined) {
    return {
      session: o.session,
      source: o.source,
      ...transcript,
      ...markerFields(markers, { counts: !min, hitsAt }),
      capture,
      nextOffset: o.nextOffset,
      ...(o.deltaMode ? { deltaMode: o.deltaMode } : {}),
      ...(o.delta ? { delta: o.delta } : {}),
      ...(o.live !== undefined ? { live: o.live } : {}),
    };
  }
  if (!min) return { ...rest, ...transcript, capture };
  const { session, source, nextOffset, delta, live, deltaMode } = o;
  return {
    session,
    source,
    ...transcript,
    capture,
    ...(source === "pane" ? { nextOffset } : {}),
    ...(deltaMode ? { deltaMode } : {}),
    ...(delta ? { delta } : {}),
    ...(live !== undefined ? { live } : {}),
  };
}

/**
 * `--markers-json` is about markers: without any to look for it would print nothing of what it
 * asks (the older Go lisa refused it the same way). Throws `missing_argument`.
 */
export function requireMarkers(flags: { markers?: readonly string[]; markersJson?: boolean }) {
  if (flags.markersJson && (flags.markers === undefined || flags.markers.length === 0)) {
    throw new UsageError(
      "--markers-json needs --markers: the comma-separated markers to look for",
      "missing_argument",
      { flag: "--markers" },
    );
  }
}

/** Prints the text (or a delta) and the marker summary. */
export default async function capture(
  this: LisaContext,
  flags: FlagsOf<typeof captureFlags>,
): Promise<void> {
  requireMarkers(flags);
  const outcome = await captureCore(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    lines: flags.lines,
    raw: flags.raw ?? false,
    verbatim: flags.verbatim ?? false,
    keepNoise: flags.keepNoise ?? false,
    deltaFrom: flags.deltaFrom,
    cursorFile: flags.cursorFile,
    markers: flags.markers,
  });
  const io = this.deps.io;
  // The hits are stamped with when the text was read: this call, a moment ago.
  const hitsAt = flags.markersJson ? this.deps.now() : undefined;
  if (flags.jsonMin) printJson(io, capturePayload(outcome, true, hitsAt));
  else if (flags.json || (flags.markersJson && outcome.markers !== undefined)) {
    printJson(io, capturePayload(outcome, false, hitsAt));
  } else {
    if (outcome.capture !== "") io.out(`${outcome.capture}\n`);
    if (outcome.markers !== undefined) io.out(`${markerSummaryLine(outcome.markers)}\n`);
  }
}
