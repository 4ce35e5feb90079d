/**
 * Live states of many sessions at once (`list`, `tree --with-state`, `watch`): per tmux server
 * ONE invocation — `list-panes -a` with the facts `status` reads of each pane, chained with a
 * `capture-pane` of each session that needs screen evidence — then, per session, the same
 * prelude, process pass (`/proc`, no `ps` on Linux), classifier and recording as `status`
 * (`status.ts`). The subprocess count does not grow with the number of sessions; the one CPU
 * second sample, when some answers hinge on CPU, is a single wait for all of them.
 *
 * The captured sessions come from the metas (which name their socket): tmux stops a chain at
 * the first failing command, so a meta whose tmux session vanished ends the captures there; the
 * listed sessions left without one are captured in one more call (rare: kill removes metas).
 *
 * Each session is read at its own pane (the ids its meta recorded, `paneTarget`), never at the
 * pane tmux calls active: a window the agent or a person opened in the session changes which
 * one that is. The listing holds every pane, so the probe is picked by id once the metas are
 * read; captures asked before the metas (list's names) target each session's first pane, and
 * a session whose pane is not that one is captured again, exactly, in one more call.
 * A pane whose exit status tmux lost (SIGCHLD, tmux 3.3a) gets the server nudged once and the
 * socket read again, as `status` does.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { missingProbe, type PaneProbe, parseProbe, STATUS_PANE_FIELDS } from "./gather.ts";
import { STATUS_CAPTURE_LINES } from "./gather.ts";
import {
  evaluateSession,
  finishEvaluation,
  lostExitStatus,
  readPrelude,
  secondPass,
  SIGCHLD_SETTLE_MS,
  type StatusOutcome,
  type StatusPrelude,
} from "./status.ts";
import { sessionKey, type SessionLocation } from "../session/mod.ts";
import type { ControlChannel } from "../../tmux/control.ts";
import type { CpuSample } from "../../base/types.ts";
import { samplesAfterPoll } from "./poll_record.ts";
import { pathExists } from "../../store/atomic.ts";
import {
  formatOf,
  hasPaneIds,
  isMissingTarget,
  isNoServer,
  type PaneIds,
  paneTarget,
  parseFormat,
  Tmux,
} from "../../tmux/tmux.ts";

/**
 * Pane fields of the batch probe: which pane it is (ids; the first window's top-left pane is
 * what a target without ids resolves to), then what status reads.
 */
const BATCH_FIELDS = [
  "window_index",
  "window_id",
  "pane_id",
  "pane_at_top",
  "pane_at_left",
  ...STATUS_PANE_FIELDS,
] as const;

/** Marks where one session's capture starts in the chained output. */
const CAPTURE_MARK = "\x1e__LISA_CAPTURE__:";

/** One pane of a listing: its session, its ids, and its probe (without a capture). */
export interface ListedPane {
  session: string;
  windowId: string;
  paneId: string;
  probe: PaneProbe;
}

/** A capture of a batch, and the pane it read (null when that is not known). */
export interface PaneCapture {
  paneId: string | null;
  text: string;
}

/** What one tmux server said: its panes, and the captures asked for. */
export interface SocketReading {
  socketPath: string;
  /** False when tmux failed in another way than "no server" (then `sessions` is empty). */
  reachable: boolean;
  /** True when no server runs on the socket. */
  serverGone: boolean;
  /**
   * Every session of the server (lisa's or not) with its first pane's probe (first window,
   * top-left pane): session-wide facts (created, listed); a session's own pane is
   * {@link paneOf}'s.
   */
  sessions: Map<string, PaneProbe>;
  /** Every pane of the server by pane id (`%N`). */
  panes: Map<string, ListedPane>;
  /** Captures by session name. */
  captures: Map<string, PaneCapture>;
}

/** A session whose screen a batch captures, at its own pane when its ids are known. */
export interface CaptureWant {
  session: string;
  ids?: PaneIds;
}

/** The commands of one batch: the listing, then a marked capture of each of `captures`. */
export function batchCommands(captures: readonly CaptureWant[]): string[][] {
  const out: string[][] = [["list-panes", "-a", "-F", formatOf(BATCH_FIELDS)]];
  for (const c of captures) {
    out.push(["display-message", "-p", `${CAPTURE_MARK}${c.session}`]);
    out.push([
      "capture-pane",
      "-p",
      "-J",
      "-t",
      paneTarget(c.session, c.ids),
      "-S",
      `-${STATUS_CAPTURE_LINES}`,
    ]);
  }
  return out;
}

/** True when `a` comes before `b` as tmux's first pane of a session (`^.{top-left}`). */
function firstOf(a: { index: number; topLeft: boolean }, b: { index: number; topLeft: boolean }) {
  return a.index < b.index || (a.index === b.index && a.topLeft && !b.topLeft);
}

/**
 * Parses a batch's stdout into the listing and each marked capture. The listing is the text
 * before the first mark; a capture runs to the next mark. `wants` (the batch's captures)
 * tells which pane each capture read. Pure.
 */
export function parseBatch(
  stdout: string,
  wants: readonly CaptureWant[] = [],
): {
  sessions: Map<string, PaneProbe>;
  panes: Map<string, ListedPane>;
  captures: Map<string, PaneCapture>;
} {
  const first = stdout.indexOf(CAPTURE_MARK);
  const listing = first < 0 ? stdout : stdout.slice(0, first);
  const sessions = new Map<string, PaneProbe>();
  const panes = new Map<string, ListedPane>();
  const firsts = new Map<string, { index: number; topLeft: boolean; paneId: string }>();
  for (const line of listing.split("\n")) {
    if (line === "") continue;
    const row = parseFormat(line, BATCH_FIELDS)[0];
    if (row === undefined) continue;
    const fields = STATUS_PANE_FIELDS.map((f) => row[f]).join("\x1f");
    const probe = parseProbe(
      { success: true, code: 0, stdout: fields + "\n", stderr: "" },
      row.session_name,
    );
    if (!probe.exists) continue;
    const session = row.session_name;
    panes.set(row.pane_id, { session, windowId: row.window_id, paneId: row.pane_id, probe });
    const here = {
      index: Number(row.window_index),
      topLeft: row.pane_at_top === "1" && row.pane_at_left === "1",
      paneId: row.pane_id,
    };
    const before = firsts.get(session);
    if (before === undefined || firstOf(here, before)) {
      firsts.set(session, here);
      sessions.set(session, probe);
    }
  }
  const captures = new Map<string, PaneCapture>();
  const read = (session: string, text: string) => {
    const want = wants.find((w) => w.session === session);
    const paneId = hasPaneIds(want?.ids) ? want.ids.paneId : firsts.get(session)?.paneId ?? null;
    captures.set(session, { paneId, text });
  };
  if (first >= 0) {
    const parts = stdout.slice(first + CAPTURE_MARK.length).split(CAPTURE_MARK);
    for (const part of parts) {
      const nl = part.indexOf("\n");
      if (nl < 0) {
        read(part, "");
        continue;
      }
      read(part.slice(0, nl), part.slice(nl + 1));
    }
  }
  return { sessions, panes, captures };
}

/**
 * The probe of `session`'s own pane in `reading` (the pane of `ids`, from its meta; without
 * ids, its first pane), with its capture when the batch captured that very pane. A pane that
 * is not listed, or is listed under another session or window, is missing.
 */
export function paneOf(
  reading: SocketReading | undefined,
  session: string,
  ids: PaneIds | undefined,
): { probe: PaneProbe; captured: boolean } {
  const gone = { probe: missingProbe(reading?.serverGone), captured: false };
  if (reading === undefined) return gone;
  let pane: { probe: PaneProbe; paneId: string } | undefined;
  if (hasPaneIds(ids)) {
    const listed = reading.panes.get(ids.paneId);
    // In whichever window of the session it is now (a person may have moved it).
    if (listed?.session === session) pane = listed;
  } else {
    const probe = reading.sessions.get(session);
    const listed = [...reading.panes.values()].find((p) => p.probe === probe);
    if (probe !== undefined && listed !== undefined) pane = { probe, paneId: listed.paneId };
  }
  if (pane === undefined) return gone;
  const capture = reading.captures.get(session);
  if (capture === undefined || capture.paneId !== pane.paneId) {
    return { probe: { ...pane.probe }, captured: false };
  }
  return { probe: { ...pane.probe, rawCapture: capture.text }, captured: true };
}

async function runBatch(
  tmux: Tmux,
  captures: readonly CaptureWant[],
): Promise<{ ok: boolean; noServer: boolean; stdout: string; stderr: string }> {
  const r = await tmux.run(batchCommands(captures));
  return {
    ok: r.success,
    noServer: !r.success && isNoServer(r.stderr) && r.stdout === "",
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

/**
 * Reads one tmux server: one invocation (listing + captures of `wanted` sessions), one more only
 * when a wanted session turned out missing before the others were captured. `wanted` names the
 * sessions whose screen matters; listed sessions outside it get no capture.
 */
export async function readSocket(
  deps: Deps,
  socketPath: string,
  wanted: readonly CaptureWant[],
  channel?: ControlChannel,
): Promise<SocketReading> {
  if (channel !== undefined && !channel.closed) {
    const read = await readViaChannel(channel, wanted);
    if (read !== null) return read;
  }
  const tmux = new Tmux(deps.runner, socketPath, deps.config.cmdTimeoutSeconds * 1000);
  const reading: SocketReading = {
    socketPath,
    reachable: true,
    serverGone: false,
    sessions: new Map(),
    panes: new Map(),
    captures: new Map(),
  };
  if (!pathExists(socketPath)) {
    // No socket, no server (a lost session's server took it along): tmux would only say so.
    reading.serverGone = true;
    return reading;
  }
  let r;
  try {
    r = await runBatch(tmux, wanted);
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") throw error;
    reading.reachable = false;
    return reading;
  }
  if (r.noServer) {
    reading.serverGone = true;
    return reading;
  }
  if (!r.ok && !isMissingTarget(r.stderr)) {
    reading.reachable = false;
    return reading;
  }
  const parsed = parseBatch(r.stdout, wanted);
  reading.sessions = parsed.sessions;
  reading.panes = parsed.panes;
  const apply = (captures: Map<string, PaneCapture>, complete: boolean) => {
    for (const [session, capture] of captures) {
      // The last mark of a broken chain is the missing session's: no capture followed it.
      if (!reading.sessions.has(session) || (!complete && !capture.text)) continue;
      reading.captures.set(session, capture);
    }
  };
  apply(parsed.captures, r.ok);
  if (!r.ok) {
    const rest = wanted.filter((w) =>
      reading.sessions.has(w.session) && !reading.captures.has(w.session)
    );
    if (rest.length > 0) {
      try {
        const again = await runBatch(tmux, rest);
        if (again.ok) apply(parseBatch(again.stdout, rest).captures, true);
      } catch { /* those sessions are classified without their screen */ }
    }
  }
  return reading;
}

/**
 * Reads a server over its control channel (no process forked): the listing and each capture
 * as separate commands, so a missing session fails alone. Null when the channel failed.
 */
async function readViaChannel(
  channel: ControlChannel,
  wanted: readonly CaptureWant[],
): Promise<SocketReading | null> {
  const commands = batchCommands(wanted).filter((c) => c[0] !== "display-message");
  let replies;
  try {
    replies = await channel.run(commands);
  } catch {
    return null;
  }
  if (!replies[0]?.ok) return null;
  let stdout = replies[0].output;
  wanted.forEach((w, i) => {
    const r = replies[i + 1];
    if (r?.ok) stdout += `${CAPTURE_MARK}${w.session}\n${r.output}`;
  });
  const parsed = parseBatch(stdout, wanted);
  return {
    socketPath: channel.socketPath,
    reachable: true,
    serverGone: false,
    sessions: parsed.sessions,
    panes: parsed.panes,
    captures: new Map([...parsed.captures].filter(([s]) => parsed.sessions.has(s))),
  };
}

/** True when the session's screen cannot change its answer or its records any more. */
function screenSettled(prelude: StatusPrelude): boolean {
  const st = prelude.prev;
  return st.outputWritten && (st.lastState === "completed" || st.lastState === "crashed");
}

/** Options of {@link fleetStatuses}. */
export interface FleetOptions {
  /**
   * Sessions to read (their sockets are read; their screens captured when they matter). A
   * function is called after the tmux calls of `wanted` started.
   */
  candidates: readonly SessionLocation[] | (() => readonly SessionLocation[]);
  /**
   * The sessions to capture on each socket, known before any meta is read: the servers are then
   * asked at once (every socket here is read), and the candidates' files read meanwhile.
   */
  wanted?: ReadonlyMap<string, readonly string[]>;
  /** More sockets to read (their sessions reach `choose` through the readings). */
  sockets?: readonly string[];
  /**
   * The sessions to classify once the servers answered (default: every candidate). Sessions
   * returned here that were not candidates are classified without a capture.
   */
  choose?: (readings: Map<string, SocketReading>) => SessionLocation[];
  /** Open control channels by socket (watch): their servers are read without a fork. */
  channels?: ReadonlyMap<string, ControlChannel>;
  /**
   * CPU samples kept by the caller between calls, by {@link sessionKey} (watch): used as stored
   * samples, updated after each call, and new samples alone then write no state file.
   */
  cpuMemory?: Map<string, CpuSample[]>;
}

/**
 * The live status of the chosen sessions, as `status` would report each at this moment
 * (recorded like a status poll), keyed by {@link sessionKey} (server and name). One tmux
 * invocation per socket (see the module doc); the readings are returned too.
 */
export async function fleetStatuses(
  deps: Deps,
  options: FleetOptions,
): Promise<{ outcomes: Map<string, StatusOutcome>; readings: Map<string, SocketReading> }> {
  const preludes = new Map<string, StatusPrelude>();
  const preludeOf = (l: SessionLocation) => {
    const key = sessionKey(l.socketPath, l.session);
    let p = preludes.get(key);
    if (p === undefined) {
      preludes.set(key, p = readPrelude(deps, l, options.cpuMemory?.get(key)));
    }
    return p;
  };
  const read = (socket: string, wanted: readonly CaptureWant[]) =>
    readSocket(deps, socket, wanted, options.channels?.get(socket));
  // With `wanted` known up front, tmux answers while the metas and preludes are read (each
  // session's first pane: its ids are in the metas not read yet).
  const early = options.wanted === undefined ? null : new Map(
    [...options.wanted].map((
      [socket, w],
    ) => [socket, read(socket, w.map((session) => ({ session })))]),
  );
  const candidates = typeof options.candidates === "function"
    ? options.candidates()
    : options.candidates;
  const bySocket = new Map<string, SessionLocation[]>();
  for (const s of options.sockets ?? []) bySocket.set(s, []);
  for (const l of candidates) {
    bySocket.set(l.socketPath, [...(bySocket.get(l.socketPath) ?? []), l]);
  }
  if (early !== null) { for (const l of candidates) preludeOf(l); }

  const readings = new Map<string, SocketReading>();
  await Promise.all([...bySocket].map(async ([socket, group]) => {
    const first = early?.get(socket);
    readings.set(
      socket,
      await readServer(deps, socket, group, { options, preludeOf, read, first }),
    );
  }));

  const chosen = options.choose ? options.choose(readings) : [...candidates];
  const evals = await Promise.all(chosen.map((loc) => {
    const prelude = preludeOf(loc);
    const reading = readings.get(loc.socketPath);
    if (reading !== undefined && !reading.reachable) prelude.failures.push("tmux");
    const { probe, captured } = paneOf(reading, loc.session, loc.meta);
    return evaluateSession(deps, loc, prelude, probe, captured);
  }));
  await secondPass(deps, evals);
  const outcomes = new Map<string, StatusOutcome>();
  const memory = options.cpuMemory;
  for (const ev of evals) {
    const key = sessionKey(ev.loc.socketPath, ev.loc.session);
    outcomes.set(key, await finishEvaluation(deps, ev, memory !== undefined));
    memory?.set(key, samplesAfterPoll(ev.prelude.prev, ev.facts));
  }
  if (memory !== undefined) {
    for (const name of memory.keys()) if (!outcomes.has(name)) memory.delete(name);
  }
  return { outcomes, readings };
}

/**
 * One server's reading for the sessions of `group`: the captures of the screens not settled;
 * again after SIGCHLD when tmux lost a dead pane's status; and each session's own pane when the
 * capture took another pane of it.
 */
async function readServer(
  deps: Deps,
  socket: string,
  group: readonly SessionLocation[],
  how: {
    options: FleetOptions;
    preludeOf: (l: SessionLocation) => StatusPrelude;
    read: (socket: string, wanted: readonly CaptureWant[]) => Promise<SocketReading>;
    /** A reading asked for before the metas were read (`options.wanted`). */
    first: Promise<SocketReading> | undefined;
  },
): Promise<SocketReading> {
  const { options, preludeOf, read } = how;
  const screens = group.filter((l) => !screenSettled(preludeOf(l)));
  const wanted = options.wanted?.get(socket)?.map((session) => ({ session })) ??
    screens.map((l) => ({ session: l.session, ids: l.meta }));
  let reading = await (how.first ?? read(socket, wanted));
  const lost = group.map((l) => paneOf(reading, l.session, l.meta).probe).find((probe, i) =>
    lostExitStatus(probe, preludeOf(group[i]).done)
  );
  if (lost !== undefined) {
    try {
      Deno.kill(lost.serverPid!, "SIGCHLD");
      await deps.sleep(SIGCHLD_SETTLE_MS);
      reading = await read(socket, wanted);
    } catch { /* keep the first reading */ }
  }
  // A capture of a session's first pane that is not its own pane: read its pane exactly.
  const missed = screens.filter((l) => {
    const seen = paneOf(reading, l.session, l.meta);
    return seen.probe.exists && !seen.captured;
  });
  if (missed.length > 0 && wanted.some((w) => missed.some((l) => l.session === w.session))) {
    try {
      const again = await read(socket, missed.map((l) => ({ session: l.session, ids: l.meta })));
      for (const [session, capture] of again.captures) reading.captures.set(session, capture);
    } catch { /* classified without their screen */ }
  }
  return reading;
}
