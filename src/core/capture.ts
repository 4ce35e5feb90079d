/**
 * Pure capture logic shared by `capture`, `snapshot`, `monitor` and `status`: cleaning pane
 * text, content-anchored offsets (`nextOffset` / `--delta-from`), and marker search.
 *
 * Offsets are opaque tokens `"<lineCount>:<anchor>:<lastLen>"`: the number of lines of the
 * cleaned full text, a 12-hex hash of its last {@link ANCHOR_LINES} non-empty lines, and the
 * length of its last line. A later delta finds that window again by content (so it survives
 * scrolling and history trimming) and returns what follows it, plus whatever the last anchor
 * line grew by. The full text is the pane's WHOLE history: the line count is where the anchor
 * search starts, and a count taken from a partial capture would start it too early, at an
 * older identical window of repetitive output. Trailing blank rows are trimmed before any
 * offset is computed, so an offset never points into the empty part of the screen (DESIGN §9.5).
 */
import { md5Hex } from "./md5.ts";
import { filterNoise, hideLisaMarkers } from "./capture_noise.ts";
import { findMarkers, type MarkerSummary } from "./capture_markers.ts";

export { echoLines, findMarkers, lineCore, type MarkerSummary } from "./capture_markers.ts";
export { filterNoise, hideLisaMarkers } from "./capture_noise.ts";

/** Lines returned by a plain capture when `--lines` is not given. */
export const DEFAULT_CAPTURE_LINES = 200;
/** Non-empty lines hashed into an offset's anchor. */
export const ANCHOR_LINES = 3;

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

/** A parsed offset token. */
export interface Offset {
  /** Lines of the cleaned full text when the offset was issued. */
  lineCount: number;
  /** Anchor hash and last-line length; absent for a plain line count. */
  anchor?: { hash: string; lastLen: number };
}

/** Parses an offset token (or a plain line count); returns undefined when it is neither. */
export function parseOffset(token: string): Offset | undefined {
  const t = token.trim();
  if (/^\d+$/.test(t)) {
    const lineCount = Number(t);
    return Number.isSafeInteger(lineCount) ? { lineCount } : undefined;
  }
  const m = /^(\d+):([0-9a-f]{12}):(\d+)$/.exec(t);
  if (m === null) return undefined;
  const lineCount = Number(m[1]);
  const lastLen = Number(m[3]);
  if (!Number.isSafeInteger(lineCount) || lineCount < 1 || lastLen < 1) return undefined;
  return { lineCount, anchor: { hash: m[2], lastLen } };
}

/** Hash of the window ending at line `i` (its first `lastLen` chars), or undefined. */
function windowHash(lines: readonly string[], i: number, lastLen: number): string | undefined {
  if (lines[i].length < lastLen) return undefined;
  const parts = [lines[i].slice(0, lastLen)];
  for (let j = i - 1; j >= 0 && parts.length < ANCHOR_LINES; j--) {
    if (lines[j] !== "") parts.unshift(lines[j]);
  }
  return md5Hex(parts.join("\n")).slice(0, 12);
}

/**
 * The offset token of `lines` (all of them, the whole history): see the module doc. `"0"` for
 * no text.
 */
export function makeOffset(lines: readonly string[]): string {
  const n = lines.length;
  if (n === 0 || lines[n - 1] === "") return String(n);
  return `${n}:${windowHash(lines, n - 1, lines[n - 1].length)}:${lines[n - 1].length}`;
}

/** Where a delta starts in the current lines. */
export type DeltaStart =
  | { found: true; line: number; column: number }
  | { found: false; reason: "anchor_not_found" | "offset_beyond_end" | "invalid_offset" };

/**
 * Finds where the text after `offset` starts in `lines`: the line after the anchor, or the grown
 * part of the anchor's last line (`column` > 0 on that line). The anchor is looked for first
 * where the line count says it should be, then at earlier lines (history trimmed at the top),
 * then at later ones; the nearest match wins, so repeated identical windows resolve to the
 * expected position.
 */
export function findDeltaStart(lines: readonly string[], offset: Offset | undefined): DeltaStart {
  if (offset === undefined) return { found: false, reason: "invalid_offset" };
  const { lineCount, anchor } = offset;
  if (anchor === undefined) {
    return lineCount <= lines.length
      ? { found: true, line: lineCount, column: 0 }
      : { found: false, reason: "offset_beyond_end" };
  }
  const matches = (i: number) => windowHash(lines, i, anchor.lastLen) === anchor.hash;
  const hint = Math.min(lineCount - 1, lines.length - 1);
  for (let i = hint; i >= 0; i--) {
    if (matches(i)) return startAfter(lines, i, anchor.lastLen);
  }
  for (let i = hint + 1; i < lines.length; i++) {
    if (matches(i)) return startAfter(lines, i, anchor.lastLen);
  }
  return { found: false, reason: "anchor_not_found" };
}

function startAfter(lines: readonly string[], i: number, lastLen: number): DeltaStart {
  return lines[i].length > lastLen
    ? { found: true, line: i, column: lastLen }
    : { found: true, line: i + 1, column: 0 };
}

/** The lines from a {@link DeltaStart} on (the grown part of a line first). */
function linesFrom(lines: readonly string[], line: number, column: number): string[] {
  if (column === 0) return lines.slice(line);
  return [lines[line].slice(column), ...lines.slice(line + 1)];
}

/** What to return from cleaned lines. */
export interface CaptureRequest {
  /** Return at most the last N lines (default {@link DEFAULT_CAPTURE_LINES}; for a delta: all). */
  lines?: number;
  /** Offset token: return only what appeared since it was issued. */
  deltaFrom?: string;
  /** Markers to look for in the returned lines. */
  markers?: readonly string[];
  /** The session's prompt: lines echoing it do not count for markers. */
  prompt?: string | null;
}

/** Delta facts of a capture. */
export interface DeltaInfo {
  /** The offset the delta was taken from. */
  from: string;
  /** True when the offset could not be placed and the whole text was returned instead. */
  reset: boolean;
  /** Why it reset: `anchor_not_found`, `offset_beyond_end` or `invalid_offset`. */
  reason?: string;
}

/** The result of {@link captureResult}. */
export interface CaptureView {
  /** The returned lines joined by "\n" (no trailing newline). */
  text: string;
  lines: string[];
  /** True when older lines were left out to honour `lines`. */
  truncated: boolean;
  /** Offset token of the full text, for the next `--delta-from`. */
  nextOffset: string;
  delta?: DeltaInfo;
  markers?: MarkerSummary;
}

/**
 * Selects what a capture returns from the cleaned full text `all` ({@link cleanCapture}):
 * the last `lines` lines, or with `deltaFrom` the text since that offset (capped by `lines`
 * only when given). When the offset cannot be placed, the whole text comes back with
 * `delta.reset`. `nextOffset` always describes `all`, which must be the whole history.
 */
export function captureResult(all: readonly string[], request: CaptureRequest = {}): CaptureView {
  let selected: string[];
  let delta: DeltaInfo | undefined;
  let limit = request.lines;
  if (request.deltaFrom !== undefined) {
    const start = findDeltaStart(all, parseOffset(request.deltaFrom));
    if (start.found) {
      selected = linesFrom(all, start.line, start.column);
      delta = { from: request.deltaFrom, reset: false };
    } else {
      selected = [...all];
      delta = { from: request.deltaFrom, reset: true, reason: start.reason };
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
    nextOffset: makeOffset(all),
  };
  if (delta !== undefined) view.delta = delta;
  if (request.markers !== undefined && request.markers.length > 0) {
    view.markers = findMarkers(selected, request.markers, request.prompt);
  }
  return view;
}
