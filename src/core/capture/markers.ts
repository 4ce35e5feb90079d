/**
 * Marker search over captured lines (`capture --markers`, monitor `--until-marker`), ignoring
 * lines that only echo the session's prompt: an agent's input box shows the prompt, and a
 * marker named in the prompt must not count before the agent itself prints it.
 */

/** Result of a marker search. */
export interface MarkerSummary {
  /** Markers seen at least once, in the order asked. */
  found: string[];
  /** Markers not seen, in the order asked. */
  missing: string[];
  /** Occurrences of each marker outside echo lines. */
  counts: Record<string, number>;
  /** Each of those occurrences, in the order of the text (one per count). */
  hits: MarkerHit[];
}

/**
 * Where one occurrence of a marker is in the searched text (its lines joined by "\n"): `line`
 * counts from 1; `start` and `end` (exclusive) are offsets in characters (Unicode code points,
 * so a Python `text[start:end]` is the marker) from the start of the text.
 */
export interface MarkerHit {
  marker: string;
  line: number;
  start: number;
  end: number;
}

// Box drawing and prompt/bullet glyphs that frame an echoed prompt in agent UIs and shells.
const LEAD_RE = /^[\s│┃║|╭╮╰╯─━┌┐└┘├┤>›❯»$#⏺●•▌▶]+/;
const TRAIL_RE = /[\s│┃║|╭╮╰╯─━┌┐└┘├┤]+$/;

/** A line without its frame (box borders, prompt glyphs, spaces), whitespace collapsed. */
export function lineCore(line: string): string {
  return line.replace(LEAD_RE, "").replace(TRAIL_RE, "").replace(/\s+/g, " ");
}

function normalizePrompt(prompt: string): string {
  return prompt.replace(/\s+/g, " ").trim();
}

/** True when `line`, with every marker cut out, still has letters or digits in its core. */
function hasMoreThanMarkers(line: string, markers: readonly string[]): boolean {
  let rest = line;
  for (const m of markers) if (m !== "") rest = rest.split(m).join(" ");
  return /[\p{L}\p{N}]/u.test(lineCore(rest));
}

/**
 * An echo test for single lines of `lines` (see {@link echoLines}); line cores are computed on
 * demand, so testing a few lines of a long history stays cheap.
 */
function echoTester(
  lines: readonly string[],
  prompt: string | null | undefined,
  markers: readonly string[],
): (i: number) => boolean {
  const p = prompt ? normalizePrompt(prompt) : "";
  if (p === "") return () => false;
  const cores = new Map<number, string>();
  const core = (i: number) => {
    let c = cores.get(i);
    if (c === undefined) cores.set(i, c = lineCore(lines[i]));
    return c;
  };
  const fragment = (i: number) => core(i) !== "" && p.includes(core(i));
  const joins = (a: number, b: number) =>
    a >= 0 && b < lines.length && fragment(a) && fragment(b) &&
    (p.includes(`${core(a)} ${core(b)}`) || p.includes(core(a) + core(b)));
  return (i) =>
    fragment(i) && (hasMoreThanMarkers(lines[i], markers) || joins(i - 1, i) || joins(i, i + 1));
}

/**
 * Which of `lines` are echoes of `prompt`. A line is an echo when its core ({@link lineCore})
 * is a non-empty part of the prompt and either says more than the markers alone, or continues
 * the prompt together with the line directly above or below (the prompt wrapped by the agent's
 * input box). So an agent answering with just `DONE_42` counts even when the prompt asked for
 * `DONE_42`, while `> …then print DONE_42` and a wrapped `DONE_42` piece of it do not.
 * Limitation: when the whole prompt is only the marker, its echo cannot be told from an answer.
 */
export function echoLines(
  lines: readonly string[],
  prompt: string | null | undefined,
  markers: readonly string[] = [],
): boolean[] {
  const isEcho = echoTester(lines, prompt, markers);
  return lines.map((_, i) => isEcho(i));
}

/** Where `needle` occurs in `haystack` (UTF-16 indexes), occurrences not overlapping. */
function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (
    let at = haystack.indexOf(needle);
    at >= 0;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    out.push(at);
  }
  return out;
}

const SURROGATE = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;
const SURROGATES = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Code points in `text` (a surrogate pair is one character). */
function codePoints(text: string): number {
  return text.length - (text.match(SURROGATES)?.length ?? 0);
}

/** One hit found at UTF-16 index `at` of line `index`, before its offsets are known. */
interface RawHit {
  marker: string;
  index: number;
  at: number;
}

/**
 * The hits with their line numbers and code-point offsets in `lines` joined by "\n", ordered
 * by position (then marker). Only the lines up to the last hit are measured, and only lines
 * holding a surrogate pair (where UTF-16 and code points differ) are counted character by
 * character. Linear in the hits: a one-letter marker can hit everywhere in a long history.
 */
function placed(lines: readonly string[], raw: readonly RawHit[]): MarkerHit[] {
  if (raw.length === 0) return [];
  const last = raw.reduce((max, h) => Math.max(max, h.index), 0);
  const lineStart: number[] = [];
  for (let i = 0, offset = 0; i <= last; i++) {
    lineStart.push(offset);
    offset += codePoints(lines[i]) + 1;
  }
  const hits = raw.map((h) => {
    const line = lines[h.index];
    const column = SURROGATE.test(line) ? codePoints(line.slice(0, h.at)) : h.at;
    const start = lineStart[h.index] + column;
    return { marker: h.marker, line: h.index + 1, start, end: start + codePoints(h.marker) };
  });
  return hits.sort((a, b) =>
    a.start - b.start || (a.marker < b.marker ? -1 : a.marker > b.marker ? 1 : 0)
  );
}

/**
 * Looks for each marker (plain, case-sensitive substring) in `lines`, skipping echo lines of
 * `prompt` ({@link echoLines}). Empty markers are ignored.
 */
export function findMarkers(
  lines: readonly string[],
  markers: readonly string[],
  prompt?: string | null,
): MarkerSummary {
  const wanted = [...new Set(markers.filter((m) => m !== ""))];
  // Only lines holding a marker are tested for echoes (monitor searches the whole history).
  const isEcho = echoTester(lines, prompt, wanted);
  const counts: Record<string, number> = {};
  for (const m of wanted) counts[m] = 0;
  const raw: RawHit[] = [];
  lines.forEach((line, i) => {
    const found = wanted.map((m) => occurrences(line, m));
    if (found.every((at) => at.length === 0) || isEcho(i)) return;
    wanted.forEach((m, k) => {
      counts[m] += found[k].length;
      for (const at of found[k]) raw.push({ marker: m, index: i, at });
    });
  });
  return {
    found: wanted.filter((m) => counts[m] > 0),
    missing: wanted.filter((m) => counts[m] === 0),
    counts,
    hits: placed(lines, raw),
  };
}

/** What {@link markerFields} adds to the summary. */
export interface MarkerFieldOptions {
  /** `markerCounts` (default true). */
  counts?: boolean;
  /** `markerHits`, each stamped with this time (when the text was read). */
  hitsAt?: Date;
}

/**
 * A marker summary under the older Go lisa's field names: `markers` (asked, in order),
 * `markerMatches` (marker → seen), `foundMarkers`, `missingMarkers`, with `counts`
 * `markerCounts` (occurrences outside echo lines), and with `hitsAt` `markerHits` (each
 * occurrence: `marker`, `line`, `start`, `end`, `at`; see {@link MarkerHit}).
 */
export function markerFields(
  summary: MarkerSummary,
  options: MarkerFieldOptions = {},
): Record<string, unknown> {
  const asked = Object.keys(summary.counts);
  const at = options.hitsAt?.toISOString();
  return {
    markers: asked,
    markerMatches: Object.fromEntries(asked.map((m) => [m, summary.counts[m] > 0])),
    foundMarkers: summary.found,
    missingMarkers: summary.missing,
    ...(options.counts ?? true ? { markerCounts: summary.counts } : {}),
    ...(at !== undefined ? { markerHits: summary.hits.map((h) => ({ ...h, at })) } : {}),
  };
}
