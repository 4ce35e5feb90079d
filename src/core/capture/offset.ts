/**
 * Offsets for incremental capture (`nextOffset` / `--delta-from`): pure logic, no tmux.
 *
 * The problem: an agent's UI (claude, codex, anything drawn with ink or curses) keeps a block
 * of rows at the bottom of the screen that it redraws in place — an input box, a spinner, a
 * status line — and inserts new transcript rows ABOVE it. A programme that prints progress
 * with `\r`, or grows a row without a newline, rewrites its last row. Anchoring a delta on the
 * last rows of the text (the footer) therefore finds nothing new; anchoring on line counts
 * breaks when rows move. So an offset remembers the bottom of the text row by row, as the
 * reader has received it, and a delta is a diff against that memory.
 *
 * An offset token (`o2.<lines>.<historySize>.<mode>.<live>.<rows>`) holds:
 * - `lines`: the number of lines of the text when it was issued (where its window ends);
 * - `historySize`: tmux's `history_size` then (a smaller one now means rows were dropped);
 * - `mode`: which cleaning produced the lines (`c` cleaned, `n` noise kept, `r` raw);
 * - `live`: how many of the last lines were the live region (step 3 below);
 * - `rows`: for the last rows of the text (the visible screen plus {@link ANCHOR_ROWS} rows of
 *   history above it), a 32-bit hash of each row AS THE READER LAST RECEIVED IT, or 0 for a row
 *   the reader has not received yet (base64url, 4 bytes a row);
 * - and, for a token issued while the pane showed its alternate screen (a pager, an editor),
 *   `~` followed by the normal screen's window as the reader last had it
 *   (`<lines>.<historySize>.<live>.<rows>`, empty when it had none): a delta taken once the
 *   normal screen is back continues from that window, so the normal screen is not new again.
 *   While the alternate screen shows, the normal screen's history above it (frozen meanwhile)
 *   is held back for that return, where it comes once. After a reset, or when the number of
 *   alternate rows is unknown, nothing is carried.
 *
 * A delta from a token:
 * 1. places the token's window in the current text: at its old position when tmux cannot have
 *    dropped history rows since (rows in history never change, and a cleared screen is
 *    scrolled into history, so rows keep their index), otherwise by its first
 *    {@link ANCHOR_ROWS} rows, which lay in history and cannot have changed. An anchor found
 *    nowhere, or in several places where rows may have been dropped (60 000 identical lines
 *    past the history limit), is a reset with a reason: never a silent loss or repeat;
 * 2. diffs the rest of the window against the rest of the text (common subsequence of greatest
 *    weight, a row with text outweighing blank rows; matches as late as possible, so rows
 *    inserted above a footer are the new ones). A row of the window that is not matched,
 *    followed in the same gap by a new row, was redrawn in place (pairs are made from the
 *    bottom up: footers stay at the bottom);
 * 3. the **live region** is the bottom of the text that is still being redrawn: the trailing
 *    run of rows that are not new, once one of them was redrawn (a footer whose spinner
 *    turns is live as a whole), and stays so while it stays at the bottom; and the row the
 *    cursor stands on when it is the last row (a line still being written). A dead pane has
 *    no live region;
 * 4. returns, in order, every new or redrawn row above the live region (rows unchanged since
 *    the reader received them are not repeated), and the live region's current text apart.
 *
 * So a row printed above a redrawn footer is returned exactly once; a spinner, a `\r` progress
 * bar or a row growing without a newline is not repeated on every poll — its text is in `live`
 * — and is returned once with its final text when a row follows it or the programme ends;
 * identical lines are counted, never merged. What a capture returns in `text` counts as
 * received (a plain capture returns everything, including rows still being drawn; a row of it
 * that changes later is returned again with its new text).
 */

/** Rows of history above the screen kept in a token to find it again. */
export const ANCHOR_ROWS = 8;
/** Screen height assumed when tmux did not say. */
const DEFAULT_SCREEN_ROWS = 50;
/** A token never keeps more rows than this (a very tall pane). */
export const MAX_WINDOW_ROWS = 512;
/** Stored for a row the reader has not received. */
const UNRECEIVED = 0;

/** Which cleaning produced the lines an offset counts. */
export type OffsetMode = "c" | "n" | "r";

/** Facts about the pane that offsets need (from `display-message`). */
export interface PaneGeometry {
  /** The pane's process ended: nothing is still being drawn. */
  dead: boolean;
  /** Rows of the visible screen (0: unknown). */
  height: number;
  /** Rows in tmux's history (`history_size`). */
  historySize: number;
  /** tmux's `history_limit` (0: unknown). */
  historyLimit: number;
  /** The cursor stands on the last non-blank line of the text, which is still being written. */
  cursorOnLastLine: boolean;
  /**
   * The pane shows its alternate screen (a pager, an editor, a full-screen programme); undefined
   * when tmux was not asked.
   */
  alternateOn?: boolean;
  /**
   * On the alternate screen: how many of the last lines are its rows (the rest is the normal
   * screen's history, frozen while the alternate screen shows); undefined when unknown.
   */
  alternateLines?: number;
}

/** A geometry that says nothing (tests, panes read without their facts). */
export const UNKNOWN_GEOMETRY: PaneGeometry = {
  dead: false,
  height: 0,
  historySize: 0,
  historyLimit: 0,
  cursorOnLastLine: false,
};

/** A parsed offset. */
export type Offset =
  /** A plain line count (`--delta-from 120`): the lines after the first N. */
  | { kind: "count"; lineCount: number }
  | {
    kind: "window";
    lineCount: number;
    historySize: number;
    mode: OffsetMode;
    /** How many of the last lines were still being redrawn (the live region). */
    liveRows: number;
    /** The last line was being written where the cursor stood (no newline after it yet). */
    cursorLine: boolean;
    /** Row hashes as received (0: not received), the last `rows.length` lines. */
    rows: Uint32Array;
    /**
     * Issued while the pane showed its alternate screen: `carry` is the normal screen's window
     * as the reader last had it (null when it never had one), which a delta taken once the
     * normal screen is back continues from (see {@link computeDelta}).
     */
    alt?: { carry: WindowOffset | null };
  };

/** An offset that remembers rows. */
export type WindowOffset = Extract<Offset, { kind: "window" }>;

/** 32-bit FNV-1a of a row, never {@link UNRECEIVED}. */
export function rowHash(row: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < row.length; i++) {
    h ^= row.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) || 1;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function encodeRows(rows: Uint32Array): string {
  const bytes = new Uint8Array(rows.length * 4);
  const view = new DataView(bytes.buffer);
  rows.forEach((h, i) => view.setUint32(i * 4, h));
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += B64[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

function decodeRows(text: string): Uint32Array | undefined {
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const ch of text) {
    const v = B64.indexOf(ch);
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (bytes.length % 4 !== 0) return undefined;
  const view = new DataView(new Uint8Array(bytes).buffer);
  const rows = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < rows.length; i++) rows[i] = view.getUint32(i * 4);
  return rows;
}

/** Serialises an offset (a count offset as its plain number). */
export function formatOffset(offset: Offset): string {
  if (offset.kind === "count") return String(offset.lineCount);
  const body = (o: WindowOffset) =>
    `${o.lineCount}.${o.historySize}.${o.liveRows}${o.cursorLine ? "c" : ""}.${encodeRows(o.rows)}`;
  const { lineCount, historySize, mode, liveRows, cursorLine, rows, alt } = offset;
  const live = `${liveRows}${cursorLine ? "c" : ""}`;
  // `~` marks a token of the alternate screen, followed by the normal screen's window if any.
  const tail = alt === undefined ? "" : `~${alt.carry === null ? "" : body(alt.carry)}`;
  return `o2.${lineCount}.${historySize}.${mode}.${live}.${encodeRows(rows)}${tail}`;
}

/** Parses an offset token or a plain line count; undefined when it is neither. */
export function parseOffset(token: string): Offset | undefined {
  const t = token.trim();
  if (/^\d+$/.test(t)) {
    const lineCount = Number(t);
    return Number.isSafeInteger(lineCount) ? { kind: "count", lineCount } : undefined;
  }
  const m =
    /^o2\.(\d+)\.(\d+)\.([cnr])\.(\d+c?\.[A-Za-z0-9_-]*)(?:~((?:\d+\.\d+\.\d+c?\.[A-Za-z0-9_-]*)?))?$/
      .exec(t);
  if (m === null) return undefined;
  const mode = m[3] as OffsetMode;
  const main = parseWindow(`${m[1]}.${m[2]}.${m[4]}`, mode);
  if (main === undefined) return undefined;
  if (m[5] === undefined) return main;
  if (m[5] === "") return { ...main, alt: { carry: null } };
  const carry = parseWindow(m[5], mode);
  return carry === undefined ? undefined : { ...main, alt: { carry } };
}

/** Parses `lines.history.live[c].rows` of a token; undefined when it is not sound. */
function parseWindow(text: string, mode: OffsetMode): WindowOffset | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)(c?)\.([A-Za-z0-9_-]*)$/.exec(text);
  if (m === null) return undefined;
  const lineCount = Number(m[1]);
  const historySize = Number(m[2]);
  const liveRows = Number(m[3]);
  const rows = decodeRows(m[5]);
  if (
    rows === undefined || !Number.isSafeInteger(lineCount) || !Number.isSafeInteger(historySize) ||
    rows.length > lineCount || rows.length > MAX_WINDOW_ROWS || liveRows > rows.length
  ) return undefined;
  return { kind: "window", lineCount, historySize, mode, liveRows, cursorLine: m[4] === "c", rows };
}

/**
 * The normal screen's window a token issued now should carry: none on the normal screen (or
 * when tmux was not asked); on the alternate screen, the one `previous` carried, or `previous`
 * itself when it was taken on the normal screen.
 */
export function carryFor(
  previous: Offset | undefined,
  geometry: PaneGeometry,
): WindowOffset | null | undefined {
  if (geometry.alternateOn !== true) return undefined;
  // Without the number of alternate rows, the history above them cannot be held back for the
  // return (see computeDelta), so no window is carried (as before carrying existed).
  if (geometry.alternateLines === undefined) return null;
  if (previous === undefined || previous.kind !== "window") return null;
  if (previous.alt !== undefined) return previous.alt.carry;
  return previous;
}

/** How many bottom lines a token keeps for a pane of `height` rows. */
function windowSize(lineCount: number, height: number): number {
  const screen = height > 0 ? height : DEFAULT_SCREEN_ROWS;
  return Math.min(lineCount, screen + ANCHOR_ROWS, MAX_WINDOW_ROWS);
}

/**
 * The token of `lines` where the reader has received every line (a plain capture, a monitor,
 * a snapshot, a reset delta), except the live ones in `live.pending`, stored with the hash the
 * reader has of them (0: never received); `live.liveRows` counts the live region.
 */
export function offsetOf(
  lines: readonly string[],
  geometry: PaneGeometry,
  mode: OffsetMode,
  live: { pending: ReadonlyMap<number, number>; liveRows: number } = {
    pending: new Map(),
    liveRows: 0,
  },
  carry?: WindowOffset | null,
): string {
  const w = windowSize(lines.length, geometry.height);
  const rows = new Uint32Array(w);
  const start = lines.length - w;
  for (let i = 0; i < w; i++) {
    rows[i] = live.pending.get(start + i) ?? rowHash(lines[start + i]);
  }
  return formatOffset({
    kind: "window",
    lineCount: lines.length,
    historySize: geometry.historySize,
    mode,
    liveRows: Math.min(live.liveRows, w),
    cursorLine: geometry.cursorOnLastLine && !geometry.dead && w > 0,
    rows,
    ...(geometry.alternateOn === true ? { alt: { carry: carry ?? null } } : {}),
  });
}

/** Why a delta could not be placed: it then returns the whole text. */
export type ResetReason =
  | "invalid_offset"
  | "offset_beyond_end"
  | "anchor_not_found"
  | "history_trimmed"
  | "mode_changed";

/** The outcome of {@link computeDelta}. */
export type DeltaOutcome =
  | {
    reset: false;
    /** Indexes of the lines to return, ascending. */
    returned: number[];
    /** First line of the live region (`lines.length` when none). */
    liveStart: number;
    /** The token to hand out next. */
    nextOffset: string;
  }
  | { reset: true; reason: ResetReason };

/** Kind of a line of the current text relative to the token's window. */
const SAME = 1;
const REDRAWN = 2;
const NEW = 3;

/** True when tmux may have dropped history rows since the token was issued. */
function rowsMayHaveBeenDropped(geometry: PaneGeometry, historyThen: number): boolean {
  if (geometry.historySize < historyThen) return true; // trimmed or cleared
  // tmux trims a tenth of the limit once the history is full, so a history that was ever
  // trimmed holds at least 90 % of the limit; below that nothing was dropped.
  if (geometry.historyLimit <= 0) return true;
  return geometry.historySize >= Math.floor(geometry.historyLimit * 0.9);
}

/**
 * Where the token's window starts in `lines`, and how many of its rows match there exactly
 * from the top; null when it cannot be placed (see the module doc, step 1).
 */
function placeWindow(
  lines: readonly string[],
  hash: (i: number) => number,
  offset: Extract<Offset, { kind: "window" }>,
  geometry: PaneGeometry,
): { start: number } | { reason: ResetReason } {
  const rows = offset.rows;
  const expected = offset.lineCount - rows.length;
  const anchor = Math.min(ANCHOR_ROWS, rows.length);
  const anchored = (p: number) => {
    if (p < 0 || p + anchor > lines.length) return false;
    for (let i = 0; i < anchor; i++) {
      if (rows[i] === UNRECEIVED || rows[i] !== hash(p + i)) return false;
    }
    return true;
  };
  if (!rowsMayHaveBeenDropped(geometry, offset.historySize)) {
    // A window that was the whole text has nothing above it that could have moved.
    if (expected === 0 || anchored(expected)) return { start: expected };
    // Not where it must be (a pane resized, a history cleared): the nearest place wins.
    for (let d = 1; d <= lines.length; d++) {
      if (anchored(expected - d)) return { start: expected - d };
      if (anchored(expected + d)) return { start: expected + d };
    }
    return { reason: "anchor_not_found" };
  }
  // Of a text that was empty, nothing is left to tell how much was dropped.
  if (anchor === 0) return { reason: "history_trimmed" };
  // Rows may have been dropped at the top: the window moved up by an unknown amount.
  const found: number[] = [];
  for (let p = Math.min(expected, lines.length - anchor); p >= 0 && found.length < 2; p--) {
    if (anchored(p)) found.push(p);
  }
  if (found.length === 0) return { reason: "history_trimmed" };
  if (found.length === 1) return { start: found[0] };
  return { reason: "history_trimmed" }; // the anchor repeats: the drop cannot be measured
}

/** Hash of an empty row. */
const BLANK = rowHash("");
/**
 * Weight of a matched row with text against a matched blank row. Blank rows are the commonest
 * and say nothing about where a row went: an agent that rewrites a row and then inserts it lower
 * (codex draws the last line of a reply first, then the whole reply below it) would otherwise
 * have its rows matched for the blanks around them, and a row the reader has been given would
 * come back. MAX_WINDOW_ROWS × this fits the table's 16 bits.
 */
const TEXT_WEIGHT = 64;

/**
 * Matches `old` (hashes) against `cur` (hashes) by a common subsequence of greatest weight (a
 * row with text outweighs any number of blank rows it could cost, up to {@link TEXT_WEIGHT})
 * whose matches lie as late as possible in `cur`. Returns, for each index of `cur`, the index
 * of `old` it matches, or -1.
 */
function lateLcs(old: Uint32Array, cur: Uint32Array): Int32Array {
  const a = old.length;
  const b = cur.length;
  const width = b + 1;
  const weight = (h: number) => (h === BLANK ? 1 : TEXT_WEIGHT);
  // f[i][j] = best weight of old[0, i) against cur[0, j); a ≤ MAX_WINDOW_ROWS keeps it bounded.
  const f = new Uint16Array((a + 1) * width);
  for (let i = 1; i <= a; i++) {
    const row = i * width;
    const prev = row - width;
    const oi = old[i - 1];
    const w = weight(oi);
    for (let j = 1; j <= b; j++) {
      const skip = Math.max(f[prev + j], f[row + j - 1]);
      f[row + j] = oi !== UNRECEIVED && oi === cur[j - 1]
        ? Math.max(f[prev + j - 1] + w, skip)
        : skip;
    }
  }
  const match = new Int32Array(b).fill(-1);
  let i = a;
  let j = b;
  while (i > 0 && j > 0) {
    const oi = old[i - 1];
    if (
      oi !== UNRECEIVED && oi === cur[j - 1] &&
      f[i * width + j] === f[(i - 1) * width + j - 1] + weight(oi)
    ) {
      match[j - 1] = i - 1;
      i--;
      j--;
    } else if (f[(i - 1) * width + j] >= f[i * width + j - 1]) i--;
    else j--;
  }
  return match;
}

/**
 * The delta of `lines` since `offset` (see the module doc). `mode` is how `lines` were
 * cleaned; a token of another mode resets.
 */
export function computeDelta(
  lines: readonly string[],
  offset: Offset,
  geometry: PaneGeometry,
  mode: OffsetMode,
): DeltaOutcome {
  const n = lines.length;
  if (offset.kind === "count") {
    if (offset.lineCount > n) return { reset: true, reason: "offset_beyond_end" };
    const returned = Array.from({ length: n - offset.lineCount }, (_, k) => offset.lineCount + k);
    return {
      reset: false,
      returned,
      liveStart: n,
      nextOffset: offsetOf(lines, geometry, mode, undefined, carryFor(offset, geometry)),
    };
  }
  if (offset.mode !== mode) return { reset: true, reason: "mode_changed" };
  // Back from the alternate screen (a pager or an editor closed): the normal screen is as it
  // was, and the reader continues from the normal window it had then, not from the rows the
  // alternate screen showed (which would make every row above them read as new).
  if (offset.alt?.carry && geometry.alternateOn === false) {
    return computeDelta(lines, offset.alt.carry, geometry, mode);
  }
  const carry = carryFor(offset, geometry);
  const cache = new Map<number, number>();
  const hash = (i: number) => {
    let h = cache.get(i);
    if (h === undefined) cache.set(i, h = rowHash(lines[i]));
    return h;
  };
  const placed = placeWindow(lines, hash, offset, geometry);
  if ("reason" in placed) return { reset: true, reason: placed.reason };
  const start = placed.start;
  const rows = offset.rows;
  const diffed = diffWindow(offset, hash, start, n);
  const { kind, was, from } = diffed;
  const liveStart = liveStartOf(geometry, diffed, start, n, rows.length - offset.liveRows);

  // On the alternate screen with a normal window to return to, the normal screen's history
  // above the alternate rows is not returned here: the delta taken once the normal screen is
  // back returns it, from the carried window (else it would come twice).
  const firstReturned = carry && geometry.alternateLines !== undefined
    ? Math.max(from, n - geometry.alternateLines)
    : from;
  const returned: number[] = [];
  for (let i = firstReturned; i < liveStart; i++) if (kind[i - start] !== SAME) returned.push(i);
  // Live lines the reader has not received as they are now keep the hash it has (0: none).
  const pending = new Map<number, number>();
  for (let i = Math.max(liveStart, start); i < n; i++) {
    const x = i - start;
    if (kind[x] === NEW) pending.set(i, UNRECEIVED);
    else if (kind[x] === REDRAWN) pending.set(i, rows[was[x]]);
  }
  return {
    reset: false,
    returned,
    liveStart,
    nextOffset: offsetOf(lines, geometry, mode, { pending, liveRows: n - liveStart }, carry),
  };
}

/** Each line from the window's start on: its kind and the window row it was (-1: a new one). */
interface LineKinds {
  kind: Uint8Array;
  was: Int32Array;
  /** The first line diffed: the window's rows above it stood in place. */
  from: number;
}

/**
 * Step 2 of the module doc: the window's rows still in place from its top stand; the rest is
 * diffed against the lines below them.
 */
function diffWindow(
  offset: Extract<Offset, { kind: "window" }>,
  hash: (i: number) => number,
  start: number,
  n: number,
): LineKinds {
  const rows = offset.rows;
  let k = 0;
  while (
    k < rows.length && start + k < n && rows[k] !== UNRECEIVED && rows[k] === hash(start + k)
  ) k++;
  const from = start + k;
  const old = rows.subarray(k);
  const cur = new Uint32Array(n - from);
  for (let j = 0; j < cur.length; j++) cur[j] = hash(from + j);
  const match = lateLcs(old, cur);

  const kind = new Uint8Array(n - start).fill(SAME);
  const was = new Int32Array(n - start).fill(-1);
  for (let i = 0; i < k; i++) was[i] = i;
  // A gap between two matches holds old rows [oa, ob) and new lines [ja, jb) (indexes into
  // `old` / `cur`): as many of its new lines as it has old rows were redrawn in place, the
  // rest are new. A footer stays at the bottom while rows appear above it, so the pairs are
  // made bottom-up; but a last line that was still being written (the cursor stood on it)
  // was finished where it stood and new lines came below it, so a gap holding it pairs
  // top-down.
  let ja = 0;
  let oa = 0;
  const closeGap = (jb: number, ob: number) => {
    const pairs = Math.min(jb - ja, ob - oa);
    const topDown = offset.cursorLine && ob === old.length && ob > oa;
    for (let j = ja; j < jb; j++) kind[k + j] = NEW;
    for (let t = 0; t < pairs; t++) {
      const j = topDown ? ja + t : jb - 1 - t;
      kind[k + j] = REDRAWN;
      was[k + j] = k + (topDown ? oa + t : ob - 1 - t);
    }
  };
  for (let j = 0; j < cur.length; j++) {
    if (match[j] < 0) continue;
    closeGap(j, match[j]);
    was[k + j] = k + match[j];
    ja = j + 1;
    oa = match[j] + 1;
  }
  closeGap(cur.length, old.length);
  return { kind, was, from };
}

/**
 * Step 3 of the module doc, the live region: the trailing run of lines that are not new —
 * within the diffed part, all of it once a line of it was redrawn; further up, from the first
 * line that was live already (a window row at or past `oldLiveFrom`) — and the line the cursor
 * stands on. `n` when the pane is dead.
 */
function liveStartOf(
  geometry: PaneGeometry,
  lines: LineKinds,
  start: number,
  n: number,
  oldLiveFrom: number,
): number {
  const { kind, was, from } = lines;
  let liveStart = n;
  if (geometry.dead) return liveStart;
  let t = n;
  while (t > start && kind[t - 1 - start] !== NEW) t--;
  for (let i = Math.max(t, from); i < n; i++) {
    if (kind[i - start] === REDRAWN) {
      liveStart = Math.max(t, from);
      break;
    }
  }
  for (let i = t; i < liveStart; i++) {
    if (was[i - start] >= oldLiveFrom) {
      liveStart = i;
      break;
    }
  }
  if (geometry.cursorOnLastLine && n > 0) liveStart = Math.min(liveStart, n - 1);
  return liveStart;
}
