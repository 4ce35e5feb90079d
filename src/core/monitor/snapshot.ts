/**
 * `lisa session snapshot`: status and the pane's text (with `nextOffset` and marker counts) from
 * one status computation, i.e. one tmux call. That call captures the whole history, because the
 * snapshot issues a `nextOffset` whose line count must count what a later delta reads (see
 * `capture/capture.ts`).
 */
import type { Deps } from "../../base/deps.ts";
import {
  captureResult,
  cleanCapture,
  DEFAULT_CAPTURE_LINES,
  type DeltaInfo,
  type MarkerSummary,
  offsetMode,
  paneActivityMs,
  paneGeometry,
  parseDeltaFrom,
} from "../capture/mod.ts";
import { sessionStatus, type StatusReport } from "../status/mod.ts";
import { Tmux } from "../../tmux/tmux.ts";

/** Options of {@link snapshotSession}. */
export interface SnapshotOptions {
  session: string;
  projectRoot?: string;
  /** At most this many lines of text (default 200). */
  lines?: number;
  markers?: readonly string[];
  keepNoise?: boolean;
  /** Only the text since this offset token (`nextOffset` of an earlier capture/snapshot). */
  deltaFrom?: string;
}

/** The snapshot payload: the status report plus the capture. */
export interface SnapshotResult extends StatusReport {
  capture: {
    text: string;
    lines: number;
    truncated: boolean;
    nextOffset: string;
    delta?: DeltaInfo;
    /** With a delta: the bottom lines still being redrawn, left out of `text` ("" when none). */
    live?: string;
  } | null;
  /** Offset token for the next `capture --delta-from` (null when the session is gone). */
  nextOffset: string | null;
  markers?: MarkerSummary;
}

/**
 * Status + capture of `options.session`. Throws what status throws, and `invalid_argument` for
 * a malformed `deltaFrom`.
 */
export async function snapshotSession(
  deps: Deps,
  options: SnapshotOptions,
): Promise<SnapshotResult> {
  // A time (`@unix`, RFC 3339): the whole capture when the pane changed after it, else none.
  const delta = options.deltaFrom === undefined ? undefined : parseDeltaFrom(options.deltaFrom);
  const sinceMs = delta?.kind === "time" ? delta.sinceMs : undefined;
  const deltaFrom = delta?.kind === "offset" ? delta.token : undefined;
  const want = options.lines ?? DEFAULT_CAPTURE_LINES;
  const outcome = await sessionStatus(deps, {
    session: options.session,
    projectRoot: options.projectRoot,
    // The whole history: a delta's anchor may lie anywhere in it, and nextOffset counts it all.
    captureLines: Infinity,
  });
  if (outcome.pane === null) {
    return { ...outcome.report, capture: null, nextOffset: null };
  }
  const all = cleanCapture(outcome.pane.rawCapture, {
    paneDead: outcome.pane.dead,
    keepNoise: options.keepNoise,
  });
  const view = captureResult(all, {
    lines: deltaFrom !== undefined ? options.lines : want,
    deltaFrom,
    markers: options.markers,
    prompt: outcome.prompt,
    geometry: paneGeometry(outcome.pane.facts, outcome.pane.rawCapture, all),
    mode: offsetMode(options),
  });
  if (sinceMs !== undefined) {
    const tmux = new Tmux(
      deps.runner,
      outcome.location.socketPath,
      deps.config.cmdTimeoutSeconds * 1000,
    );
    const loc = outcome.location;
    if ((await paneActivityMs(tmux, loc.session, loc.meta)) <= sinceMs) {
      view.text = "";
      view.lines = [];
      view.truncated = false;
    }
  }
  return {
    ...outcome.report,
    capture: {
      text: view.text,
      lines: view.lines.length,
      truncated: view.truncated,
      nextOffset: view.nextOffset,
      ...(view.delta ? { delta: view.delta } : {}),
      ...(view.live ? { live: view.live.join("\n") } : {}),
    },
    nextOffset: view.nextOffset,
    ...(view.markers ? { markers: view.markers } : {}),
  };
}
