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

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (
    let at = haystack.indexOf(needle);
    at >= 0;
    at = haystack.indexOf(needle, at + needle.length)
  ) {
    n++;
  }
  return n;
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
  lines.forEach((line, i) => {
    const found = wanted.map((m) => countOccurrences(line, m));
    if (found.every((n) => n === 0) || isEcho(i)) return;
    wanted.forEach((m, k) => counts[m] += found[k]);
  });
  return {
    found: wanted.filter((m) => counts[m] > 0),
    missing: wanted.filter((m) => counts[m] === 0),
    counts,
  };
}

/**
 * A marker summary under the older Go lisa's field names: `markers` (asked, in order),
 * `markerMatches` (marker → seen), `foundMarkers`, `missingMarkers`, and with `counts`
 * `markerCounts` (occurrences outside echo lines).
 */
export function markerFields(summary: MarkerSummary, counts = true): Record<string, unknown> {
  const asked = Object.keys(summary.counts);
  return {
    markers: asked,
    markerMatches: Object.fromEntries(asked.map((m) => [m, summary.counts[m] > 0])),
    foundMarkers: summary.found,
    missingMarkers: summary.missing,
    ...(counts ? { markerCounts: summary.counts } : {}),
  };
}
