/**
 * Pure capture logic shared by `capture`, `snapshot`, `monitor` and `status`: cleaning pane
 * text, selecting what a capture returns, and marker search. Offsets (`nextOffset` /
 * `--delta-from`) are made and placed by `offset.ts`.
 *
 * The text offsets count is the pane's WHOLE history, cleaned the same way each time, with
 * trailing blank rows trimmed, so an offset never points into the empty part of the screen
 * (DESIGN §9.5); a count taken from a partial capture would misplace it.
 */
import { filterNoise, hideLisaMarkers } from "./noise.ts";
import { findMarkers, type MarkerSummary } from "./markers.ts";
import {
  computeDelta,
  type OffsetMode,
  offsetOf,
  type PaneGeometry,
  parseOffset,
  type ResetReason,
  UNKNOWN_GEOMETRY,
} from "./offset.ts";

export { echoLines, findMarkers, lineCore, type MarkerSummary } from "./markers.ts";
export { filterNoise, hideLisaMarkers } from "./noise.ts";
export { type PaneGeometry, parseOffset, UNKNOWN_GEOMETRY } from "./offset.ts";

/** Lines returned by a plain capture when `--lines` is not given. */
export const DEFAULT_CAPTURE_LINES = 200;

/** How to clean raw `capture-pane -p -J` output. */
export interface CleanOptions {
  /** tmux said `pane_dead=1`: drop its final `Pane is dead (…)` row. */
  paneDead: boolean;
  /** The pane text exactly as tmux shows it: no marker hiding, no noise filtering. */
  raw?: boolean;
  /** Keep agent start-up noise (lisa's markers are still hidden unless `raw`). */
  keepNoise?: boolean;
}

const PANE_DEAD_RE = /^Pane is dead(?: \(.*\))?$/;

/** Drops trailing empty lines in place and returns `lines`. */
function trimTrailingBlank(lines: string[]): string[] {
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Turns raw `capture-pane -p -J` output into the lines of the view: trailing spaces and trailing
 * blank rows trimmed, tmux's final `Pane is dead` row dropped when `paneDead`, and (unless `raw`)
 * lisa's wrapper markers and (unless `keepNoise`) agent start-up noise hidden.
 */
export function cleanCapture(rawText: string, options: CleanOptions): string[] {
  let lines = rawText.split("\n").map((l) => l.replace(/\s+$/, ""));
  trimTrailingBlank(lines);
  if (options.paneDead && lines.length > 0 && PANE_DEAD_RE.test(lines[lines.length - 1])) {
    lines.pop();
    trimTrailingBlank(lines);
  }
  if (options.raw) return lines;
  lines = hideLisaMarkers(lines);
  if (!options.keepNoise) lines = filterNoise(lines);
  return trimTrailingBlank(lines);
}

/**
 * True when the cursor stands on the last non-blank row of the raw capture (every screen row
 * below it blank) and that row is the last cleaned line: a line still being written, which a
 * delta keeps in its live region. `cursorY` counts from the top of a screen of `height` rows.
 */
export function cursorOnLastLine(
  rawText: string,
  cleaned: readonly string[],
  cursorY: number,
  height: number,
): boolean {
  if (height <= 0 || cursorY < 0 || cursorY >= height || cleaned.length === 0) return false;
  const rows = (rawText.endsWith("\n") ? rawText.slice(0, -1) : rawText).split("\n");
  const below = height - 1 - cursorY;
  const at = rows.length - 1 - below;
  if (at < 0) return false;
  for (let i = at + 1; i < rows.length; i++) if (rows[i].trim() !== "") return false;
  const row = rows[at].replace(/\s+$/, "");
  return row !== "" && row === cleaned[cleaned.length - 1];
}

/** What tmux says about a pane that offsets need (see {@link paneGeometry}). */
export interface PaneFacts {
  dead: boolean;
  height: number;
  cursorY: number;
  historySize: number;
  historyLimit: number;
  /** The pane shows its alternate screen; undefined when tmux was not asked. */
  alternateOn?: boolean;
}

/** The geometry offsets use, from the pane's facts, its raw capture and the cleaned lines. */
export function paneGeometry(
  facts: PaneFacts,
  rawText: string,
  cleaned: readonly string[],
): PaneGeometry {
  return {
    dead: facts.dead,
    height: facts.height,
    historySize: facts.historySize,
    historyLimit: facts.historyLimit,
    ...(facts.alternateOn !== undefined ? { alternateOn: facts.alternateOn } : {}),
    ...(facts.alternateOn === true && facts.height > 0
      ? { alternateLines: alternateLines(rawText, cleaned, facts.height) }
      : {}),
    cursorOnLastLine: !facts.dead &&
      cursorOnLastLine(rawText, cleaned, facts.cursorY, facts.height),
  };
}

/**
 * How many of the cleaned lines are the visible screen's rows: the screen's `height` raw rows
 * without its trailing blank ones (cleaning trims those), at most all the cleaned lines.
 * (Lisa's markers or start-up noise on the screen itself would be counted too: a pager shows
 * neither.)
 */
function alternateLines(rawText: string, cleaned: readonly string[], height: number): number {
  const rows = (rawText.endsWith("\n") ? rawText.slice(0, -1) : rawText).split("\n");
  const screen = rows.slice(-height);
  let k = screen.length;
  while (k > 0 && screen[k - 1].trim() === "") k--;
  return Math.min(k, cleaned.length);
}

/** The offset mode of a cleaning (a token of one mode does not place in another's text). */
export function offsetMode(options: Pick<CleanOptions, "raw" | "keepNoise">): OffsetMode {
  return options.raw ? "r" : options.keepNoise ? "n" : "c";
}

/** What to return from cleaned lines. */
export interface CaptureRequest {
  /** Return at most the last N lines (default {@link DEFAULT_CAPTURE_LINES}; for a delta: all). */
  lines?: number;
  /** Offset token: return only what appeared since it was issued. */
  deltaFrom?: string;
  /** Markers to look for in the returned lines (and, for a delta, the live region). */
  markers?: readonly string[];
  /** The session's prompt: lines echoing it do not count for markers. */
  prompt?: string | null;
  /** The pane's facts (height, history, cursor); unknown ones make offsets less precise. */
  geometry?: PaneGeometry;
  /** How the lines were cleaned (default `c`). */
  mode?: OffsetMode;
}

/** Delta facts of a capture. */
export interface DeltaInfo {
  /** The offset the delta was taken from. */
  from: string;
  /** True when the offset could not be placed and the whole text was returned instead. */
  reset: boolean;
  /** Why it reset (`anchor_not_found`, `history_trimmed`, `mode_changed`, …). */
  reason?: ResetReason;
}

/** The result of {@link captureResult}. */
export interface CaptureView {
  /** The returned lines joined by "\n" (no trailing newline). */
  text: string;
  lines: string[];
  /** True when older lines were left out to honour `lines`. */
  truncated: boolean;
  /** Offset token for the next `--delta-from`. */
  nextOffset: string;
  delta?: DeltaInfo;
  /**
   * For a delta: the bottom lines still being redrawn (an input box, a spinner, a `\r`
   * progress line), which the delta does not return until they stop changing.
   */
  live?: string[];
  markers?: MarkerSummary;
}

/**
 * Selects what a capture returns from the cleaned full text `all` ({@link cleanCapture}):
 * the last `lines` lines, or with `deltaFrom` what appeared since that offset (capped by
 * `lines` only when given) with the live region apart. When the offset cannot be placed, the
 * whole text comes back with `delta.reset` and a reason. `all` must be the whole history.
 */
export function captureResult(all: readonly string[], request: CaptureRequest = {}): CaptureView {
  const geometry = request.geometry ?? UNKNOWN_GEOMETRY;
  const mode = request.mode ?? "c";
  let selected: string[];
  let delta: DeltaInfo | undefined;
  let live: string[] | undefined;
  let nextOffset: string | undefined;
  let limit = request.lines;
  if (request.deltaFrom !== undefined) {
    const offset = parseOffset(request.deltaFrom);
    const d = offset === undefined
      ? { reset: true as const, reason: "invalid_offset" as const }
      : computeDelta(all, offset, geometry, mode);
    if (!d.reset) {
      selected = d.returned.map((i) => all[i]);
      live = all.slice(d.liveStart);
      nextOffset = d.nextOffset;
      delta = { from: request.deltaFrom, reset: false };
    } else {
      selected = [...all];
      delta = { from: request.deltaFrom, reset: true, reason: d.reason };
    }
  } else {
    selected = [...all];
    limit ??= DEFAULT_CAPTURE_LINES;
  }
  const truncated = limit !== undefined && selected.length > limit;
  if (truncated) selected = selected.slice(selected.length - limit!);
  const view: CaptureView = {
    text: selected.join("\n"),
    lines: selected,
    truncated,
    // After a reset the reader has the whole text, history included: no window is carried
    // (returning to it would repeat that history).
    nextOffset: nextOffset ??
      offsetOf(all, geometry, mode, undefined, geometry.alternateOn === true ? null : undefined),
  };
  if (delta !== undefined) view.delta = delta;
  if (live !== undefined) view.live = live;
  if (request.markers !== undefined && request.markers.length > 0) {
    view.markers = findMarkers([...selected, ...(live ?? [])], request.markers, request.prompt);
  }
  return view;
}
