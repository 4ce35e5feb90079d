/**
 * Reading a session's pane and the `lisa session capture` core function. The pure parts
 * (cleaning, offsets, markers) live in `capture_view.ts`; this file adds the one tmux call and the
 * cursor file.
 *
 * Every capture reads the whole history (`-S -`), because it issues a `nextOffset` and an
 * offset's line count must count the same lines a later delta sees (the whole history): a count
 * taken from a partial capture sends the anchor search to an older identical window in
 * repetitive output. Measured cost at the 50 000-row history limit: ~35 ms of tmux and ~30 ms
 * of cleaning; a short history costs what a partial capture did.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError, SessionNotFoundError, UsageError } from "../../base/errors.ts";
import { resolvePath } from "../../base/paths.ts";
import {
  captureResult,
  cleanCapture,
  type DeltaInfo,
  type MarkerSummary,
  offsetMode,
  type PaneFacts,
  paneGeometry,
  parseOffset,
} from "./capture_view.ts";
import { locateSession, type SessionLocation } from "../session/mod.ts";
import {
  formatOf,
  isMissingTarget,
  isNoServer,
  type PaneIds,
  paneTarget,
  parseFormat,
  Tmux,
} from "../../tmux/tmux.ts";
import { writeFileAtomic } from "../../store/atomic.ts";
import { readTranscript, type TranscriptMessage, transcriptText } from "./transcript.ts";
import { findMarkers } from "./markers.ts";

/**
 * Pane facts read with the capture. `session_name` is checked against the session asked for:
 * `display-message` answers a missing target with empty fields instead of failing (tmux 3.3a).
 */
export const PANE_INFO_FIELDS = [
  "pane_dead",
  "pane_dead_status",
  "history_size",
  "history_limit",
  "alternate_on",
  "pane_height",
  "cursor_y",
  "session_name",
] as const;

/**
 * argv of `capture-pane` for the session's pane (`ids` from its meta, {@link paneTarget}):
 * joined lines (`-J`), from `start` rows into history (`"all"` = the whole history) to the
 * bottom of the screen. Chain it with other commands through `Tmux.run`.
 */
export function capturePaneArgs(
  session: string,
  start: number | "all",
  ids: PaneIds | undefined,
): string[] {
  return [
    "capture-pane",
    "-p",
    "-J",
    "-t",
    paneTarget(session, ids),
    "-S",
    start === "all" ? "-" : `-${start}`,
  ];
}

/** argv of the `display-message` that prints {@link PANE_INFO_FIELDS} (one line). */
export function paneInfoArgs(session: string, ids: PaneIds | undefined): string[] {
  return [
    "display-message",
    "-p",
    "-t",
    paneTarget(session, ids),
    "-F",
    formatOf(PANE_INFO_FIELDS),
  ];
}

/** A pane read by {@link readPane}. */
export interface PaneRead {
  /** Raw `capture-pane -p -J` output. */
  text: string;
  paneDead: boolean;
  /** tmux's exit status of a dead pane (null while alive or when tmux lost it). */
  deadStatus: number | null;
  /** What offsets need to know about the pane. */
  facts: PaneFacts;
  /** The session tmux read the facts of ("" when it found no pane). */
  session: string;
}

function count(text: string | undefined): number {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : 0;
}

/**
 * Splits the output of `capture-pane` chained before `display-message` ({@link paneInfoArgs})
 * into the pane text and its facts. The capture comes first so a pane that dies in between is
 * never reported alive with a `Pane is dead` row in its text.
 */
export function parsePaneRead(stdout: string): PaneRead {
  const body = stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout;
  const cut = body.lastIndexOf("\n");
  const info = parseFormat(body.slice(cut + 1), PANE_INFO_FIELDS)[0];
  const status = info?.pane_dead_status ?? "";
  const paneDead = info?.pane_dead === "1";
  return {
    text: cut < 0 ? "" : body.slice(0, cut + 1),
    paneDead,
    deadStatus: /^\d+$/.test(status) ? Number(status) : null,
    facts: {
      dead: paneDead,
      height: count(info?.pane_height),
      cursorY: count(info?.cursor_y),
      historySize: count(info?.history_size),
      historyLimit: count(info?.history_limit),
      alternateOn: info?.alternate_on === "1",
    },
    session: info?.session_name ?? "",
  };
}

/**
 * Reads the pane of `session` (`ids` from its meta, {@link paneTarget}) in one tmux invocation.
 * Throws SessionNotFoundError when the pane, its session or the server is gone,
 * CommandFailedError-like LisaError `tmux_failed` otherwise.
 */
export async function readPane(
  tmux: Tmux,
  session: string,
  start: number | "all",
  ids: PaneIds | undefined,
): Promise<PaneRead> {
  const res = await tmux.run([capturePaneArgs(session, start, ids), paneInfoArgs(session, ids)]);
  if (!res.success) {
    if (isMissingTarget(res.stderr) || isNoServer(res.stderr)) {
      throw new SessionNotFoundError(session);
    }
    throw new LisaError(
      "tmux_failed",
      `tmux capture-pane failed: ${res.stderr.trim() || `exit ${res.code}`}`,
      {
        details: { session },
      },
    );
  }
  const read = parsePaneRead(res.stdout);
  if (read.session !== session) throw new SessionNotFoundError(session);
  return read;
}

/** Options of {@link capture}. */
export interface CaptureOptions {
  session: string;
  projectRoot?: string;
  /** At most this many lines (default 200; a delta is not capped unless this is given). */
  lines?: number;
  /** Read the pane even where a transcript exists (claude). */
  raw?: boolean;
  /** The pane text exactly as tmux shows it: no noise filtering, lisa's markers kept. */
  verbatim?: boolean;
  keepNoise?: boolean;
  /**
   * Offset token from an earlier capture's `nextOffset` (or a plain line count), or a time
   * (`@unix` seconds, RFC 3339): then the whole capture when the pane changed after it, else "".
   */
  deltaFrom?: string;
  /** File that keeps the offset between calls (read when present, rewritten after). */
  cursorFile?: string;
  markers?: readonly string[];
}

/** What {@link capture} returns (the JSON payload of `capture --json`). */
export interface CaptureOutcome {
  session: string;
  /** Where the text comes from: the tmux pane, or claude's transcript file. */
  source: "pane" | "transcript";
  /** The captured text (pane lines, or the transcript's messages as `role: text`). */
  capture: string;
  /** Number of returned lines. */
  lines: number;
  /** Opaque offset token for the next `--delta-from` / cursor file. */
  nextOffset: string;
  paneDead: boolean;
  truncated: boolean;
  delta?: DeltaInfo & { source: "flag" | "cursor_file" };
  /**
   * With a delta: the bottom lines still being redrawn (joined by "\n"), which the delta
   * leaves out until they stop changing; "" when none.
   */
  live?: string;
  markers?: MarkerSummary;
  cursorFile?: string;
  /** With `--delta-from`: `offset` (a nextOffset token or line count) or `timestamp`. */
  deltaMode?: "offset" | "timestamp";
  /** Transcript source: claude's session id and the messages. */
  claudeSession?: string;
  messages?: TranscriptMessage[];
  messageCount?: number;
}

/** A `--delta-from` time (`@unix` seconds or RFC 3339), in ms; undefined for an offset. */
export function deltaTime(text: string): number | undefined {
  const t = text.trim();
  const unix = /^@(\d+(?:\.\d+)?)$/.exec(t);
  if (unix) return Number(unix[1]) * 1000;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i.test(t)) {
    return undefined;
  }
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A `--delta-from` value: a time (`@unix`, RFC 3339) or an offset (nextOffset, line count). */
export type DeltaFrom = { kind: "time"; sinceMs: number } | { kind: "offset"; token: string };

/** Reads `--delta-from`; throws `invalid_argument` for what is neither a time nor an offset. */
export function parseDeltaFrom(text: string): DeltaFrom {
  const sinceMs = deltaTime(text);
  if (sinceMs !== undefined) return { kind: "time", sinceMs };
  if (parseOffset(text) !== undefined) return { kind: "offset", token: text };
  throw new UsageError(
    `--delta-from expects a nextOffset token, a line count, @unix seconds or an RFC 3339 ` +
      `time, got "${text}"`,
  );
}

/** Reads a cursor file's token (relative paths from cwd); undefined when missing or empty. */
export function readCursorFile(deps: Deps, path: string): string | undefined {
  return readCursor(resolvePath(deps.cwd, path));
}

/** Writes `token` to a cursor file atomically (refusing a symlink or a non-file). */
export function writeCursorFile(deps: Deps, path: string, token: string): void {
  const full = resolvePath(deps.cwd, path);
  readCursor(full);
  writeCursor(full, token);
}

/** Reads the cursor file's token; undefined when the file is missing or empty. */
function readCursor(path: string): string | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new LisaError("cursor_file_error", `Cannot read cursor file "${path}": ${error}`, {
      cause: error,
    });
  }
  if (info.isSymlink) {
    throw new UsageError(
      `Cursor file "${path}" is a symlink; refusing to use it`,
      "cursor_file_unsafe",
      {
        cursorFile: path,
      },
    );
  }
  if (!info.isFile) {
    throw new UsageError(`Cursor file "${path}" is not a regular file`, "cursor_file_unsafe", {
      cursorFile: path,
    });
  }
  const token = new TextDecoder().decode(Deno.readFileSync(path)).trim();
  return token === "" ? undefined : token;
}

function writeCursor(path: string, token: string): void {
  try {
    writeFileAtomic(path, `${token}\n`);
  } catch (error) {
    throw new LisaError("cursor_file_error", `Cannot write cursor file "${path}": ${error}`, {
      cause: error,
      details: { cursorFile: path },
    });
  }
}

/**
 * `lisa session capture`: the pane's text (last `lines` lines, or the delta since an offset or
 * a time), its `nextOffset`, and marker counts; for a claude session without `raw`, a delta or a
 * cursor file, its transcript's messages instead when claude has written one (`source`
 * says which). Throws `session_not_found` when the session is gone,
 * `invalid_argument` for a malformed `--delta-from`, `cursor_file_unsafe` for a symlinked
 * cursor file. A cursor file holding garbage resets the delta instead of failing.
 */
export async function capture(deps: Deps, options: CaptureOptions): Promise<CaptureOutcome> {
  if (options.deltaFrom !== undefined) parseDeltaFrom(options.deltaFrom);
  const located = await locateSession(deps, options.session, options.projectRoot);
  // An alias or a prefix of one stands for the full name, which tmux and the payload need.
  const session = located.session;
  if (!options.raw && options.deltaFrom === undefined && options.cursorFile === undefined) {
    const transcript = readTranscript(deps, located.meta);
    if (transcript !== null) return await transcriptCapture(deps, options, located, transcript);
  }
  const cursorPath = options.cursorFile === undefined
    ? undefined
    : resolvePath(deps.cwd, options.cursorFile);
  let deltaFrom = options.deltaFrom;
  let source: "flag" | "cursor_file" = "flag";
  if (deltaFrom === undefined && cursorPath !== undefined) {
    deltaFrom = readCursor(cursorPath);
    source = "cursor_file";
  } else if (cursorPath !== undefined) {
    readCursor(cursorPath); // still refuse a symlink before writing next to it
  }

  const tmux = new Tmux(
    deps.runner,
    located.socketPath,
    deps.config.cmdTimeoutSeconds * 1000,
  );
  // The whole history: nextOffset must count the lines a later delta reads (module doc).
  const read = await readPane(tmux, session, "all", located.meta);
  const all = cleanCapture(read.text, {
    raw: options.verbatim,
    keepNoise: options.keepNoise,
    paneDead: read.paneDead,
  });
  // A time: the whole capture when the pane changed since then, else nothing.
  const since = deltaFrom === undefined ? undefined : deltaTime(deltaFrom);
  const changedAfter = since === undefined
    ? undefined
    : (await paneActivityMs(tmux, session, located.meta)) > since;

  const view = captureResult(all, {
    lines: options.lines,
    deltaFrom: since === undefined ? deltaFrom : undefined,
    markers: options.markers,
    prompt: located.meta?.prompt ?? null,
    geometry: paneGeometry(read.facts, read.text, all),
    mode: offsetMode({ raw: options.verbatim, keepNoise: options.keepNoise }),
  });
  if (changedAfter === false) {
    view.text = "";
    view.lines = [];
    view.truncated = false;
  }
  if (cursorPath !== undefined) writeCursor(cursorPath, view.nextOffset);
  const outcome: CaptureOutcome = {
    session,
    source: "pane",
    capture: view.text,
    lines: view.lines.length,
    nextOffset: view.nextOffset,
    paneDead: read.paneDead,
    truncated: view.truncated,
  };
  if (deltaFrom !== undefined) outcome.deltaMode = since === undefined ? "offset" : "timestamp";
  if (view.delta !== undefined) outcome.delta = { ...view.delta, source };
  if (view.live !== undefined) outcome.live = view.live.join("\n");
  if (view.markers !== undefined) outcome.markers = view.markers;
  if (cursorPath !== undefined) outcome.cursorFile = cursorPath;
  return outcome;
}

/** A claude session's capture from its transcript (the session must still exist). */
async function transcriptCapture(
  deps: Deps,
  options: CaptureOptions,
  located: SessionLocation,
  transcript: NonNullable<ReturnType<typeof readTranscript>>,
): Promise<CaptureOutcome> {
  const session = located.session;
  // The session must still exist, like a pane capture.
  await readPane(
    new Tmux(deps.runner, located.socketPath, deps.config.cmdTimeoutSeconds * 1000),
    session,
    0,
    located.meta,
  );
  const messages = options.lines === undefined
    ? transcript.messages
    : transcript.messages.slice(-options.lines);
  const text = transcriptText(messages);
  const out: CaptureOutcome = {
    session,
    source: "transcript",
    capture: text,
    lines: text === "" ? 0 : text.split("\n").length,
    nextOffset: "",
    paneDead: false,
    truncated: messages.length < transcript.messages.length,
    claudeSession: transcript.claudeSession,
    messages,
    messageCount: messages.length,
  };
  if (options.markers !== undefined && options.markers.length > 0) {
    out.markers = findMarkers(
      messages.filter((m) => m.role === "assistant").flatMap((m) => m.text.split("\n")),
      options.markers,
    );
  }
  return out;
}

/**
 * When the window of the session's pane (`ids` from its meta) last had output (tmux
 * `window_activity`), in ms; 0 if unknown.
 */
export async function paneActivityMs(
  tmux: Tmux,
  session: string,
  ids: PaneIds | undefined,
): Promise<number> {
  const res = await tmux.run([
    ["display-message", "-p", "-t", paneTarget(session, ids), "-F", "#{window_activity}"],
  ]);
  const secs = Number(res.stdout.trim());
  return res.success && Number.isFinite(secs) ? secs * 1000 : 0;
}
