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
 * A pane whose exit status tmux lost (SIGCHLD, tmux 3.3a) gets the server nudged once and the
 * socket read again, as `status` does.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { CPU_SECOND_SAMPLE_MS } from "./cpu.ts";
import { missingProbe, type PaneProbe, parseProbe, STATUS_PANE_FIELDS } from "./gather.ts";
import { STATUS_CAPTURE_LINES } from "./gather.ts";
import {
  evaluateSession,
  finishEvaluation,
  lostExitStatus,
  needsSecondSample,
  readPrelude,
  resample,
  SIGCHLD_SETTLE_MS,
  type StatusOutcome,
  type StatusPrelude,
} from "./status.ts";
import { sessionKey, type SessionLocation } from "../session/locate.ts";
import type { ControlChannel } from "../../tmux/control.ts";
import type { CpuSample } from "../../base/types.ts";
import { samplesAfterPoll } from "./record.ts";
import { pathExists } from "../../store/atomic.ts";
import {
  formatOf,
  isMissingTarget,
  isNoServer,
  paneTarget,
  parseFormat,
  Tmux,
} from "../../tmux/tmux.ts";

/** Pane fields of the batch probe: which pane is the session's, then what status reads. */
const BATCH_FIELDS = ["window_active", "pane_active", ...STATUS_PANE_FIELDS] as const;

/** Marks where one session's capture starts in the chained output. */
const CAPTURE_MARK = "\x1e__LISA_CAPTURE__:";

/** What one tmux server said: each session's probe (captures where asked). */
export interface SocketReading {
  socketPath: string;
  /** False when tmux failed in another way than "no server" (then `sessions` is empty). */
  reachable: boolean;
  /** True when no server runs on the socket. */
  serverGone: boolean;
  /** Every session of the server (lisa's or not) with its active pane's probe. */
  sessions: Map<string, PaneProbe>;
  /** Sessions whose probe holds a capture. */
  captured: Set<string>;
}

/** The commands of one batch: the listing, then a marked capture of each of `captures`. */
export function batchCommands(captures: readonly string[]): string[][] {
  const out: string[][] = [["list-panes", "-a", "-F", formatOf(BATCH_FIELDS)]];
  for (const s of captures) {
    out.push(["display-message", "-p", `${CAPTURE_MARK}${s}`]);
    out.push([
      "capture-pane",
      "-p",
      "-J",
      "-t",
      paneTarget(s),
      "-S",
      `-${STATUS_CAPTURE_LINES}`,
    ]);
  }
  return out;
}

/**
 * Parses a batch's stdout into the listing and each marked capture. The listing is the text
 * before the first mark; a capture runs to the next mark. Pure.
 */
export function parseBatch(
  stdout: string,
): { sessions: Map<string, PaneProbe>; captures: Map<string, string> } {
  const first = stdout.indexOf(CAPTURE_MARK);
  const listing = first < 0 ? stdout : stdout.slice(0, first);
  const sessions = new Map<string, PaneProbe>();
  for (const line of listing.split("\n")) {
    if (line === "") continue;
    const row = parseFormat(line, BATCH_FIELDS)[0];
    if (row === undefined || row.window_active !== "1" || row.pane_active !== "1") continue;
    const fields = STATUS_PANE_FIELDS.map((f) => row[f]).join("\x1f");
    const probe = parseProbe(
      { success: true, code: 0, stdout: fields + "\n", stderr: "" },
      row.session_name,
    );
    if (probe.exists) sessions.set(row.session_name, probe);
  }
  const captures = new Map<string, string>();
  if (first >= 0) {
    const parts = stdout.slice(first + CAPTURE_MARK.length).split(CAPTURE_MARK);
    for (const part of parts) {
      const nl = part.indexOf("\n");
      if (nl < 0) {
        captures.set(part, "");
        continue;
      }
      captures.set(part.slice(0, nl), part.slice(nl + 1));
    }
  }
  return { sessions, captures };
}

async function runBatch(
  tmux: Tmux,
  captures: readonly string[],
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
  wanted: readonly string[],
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
    captured: new Set(),
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
  const parsed = parseBatch(r.stdout);
  reading.sessions = parsed.sessions;
  const apply = (captures: Map<string, string>, complete: boolean) => {
    for (const [session, text] of captures) {
      const probe = reading.sessions.get(session);
      // The last mark of a broken chain is the missing session's: no capture followed it.
      if (probe === undefined || (!complete && !text)) continue;
      probe.rawCapture = text;
      reading.captured.add(session);
    }
  };
  apply(parsed.captures, r.ok);
  if (!r.ok) {
    const rest = wanted.filter((s) => reading.sessions.has(s) && !reading.captured.has(s));
    if (rest.length > 0) {
      try {
        const again = await runBatch(tmux, rest);
        if (again.ok) apply(parseBatch(again.stdout).captures, true);
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
  wanted: readonly string[],
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
  wanted.forEach((s, i) => {
    const r = replies[i + 1];
    if (r?.ok) stdout += `${CAPTURE_MARK}${s}\n${r.output}`;
  });
  const parsed = parseBatch(stdout);
  const reading: SocketReading = {
    socketPath: channel.socketPath,
    reachable: true,
    serverGone: false,
    sessions: parsed.sessions,
    captured: new Set(),
  };
  for (const [session, text] of parsed.captures) {
    const probe = reading.sessions.get(session);
    if (probe === undefined) continue;
    probe.rawCapture = text;
    reading.captured.add(session);
  }
  return reading;
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
  const read = (socket: string, wanted: readonly string[]) =>
    readSocket(deps, socket, wanted, options.channels?.get(socket));
  // With `wanted` known up front, tmux answers while the metas and preludes are read.
  const early = options.wanted === undefined
    ? null
    : new Map([...options.wanted].map(([socket, w]) => [socket, read(socket, w)]));
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
    const wanted = options.wanted?.get(socket) ??
      group.filter((l) => !screenSettled(preludeOf(l))).map((l) => l.session);
    let reading = await (early?.get(socket) ?? read(socket, wanted));
    const lost = [...reading.sessions].find(([name, probe]) => {
      const p = preludes.get(sessionKey(socket, name));
      return p !== undefined && lostExitStatus(probe, p.done);
    });
    if (lost !== undefined) {
      try {
        Deno.kill(lost[1].serverPid!, "SIGCHLD");
        await deps.sleep(SIGCHLD_SETTLE_MS);
        reading = await read(socket, wanted);
      } catch { /* keep the first reading */ }
    }
    readings.set(socket, reading);
  }));

  const chosen = options.choose ? options.choose(readings) : [...candidates];
  const evals = await Promise.all(chosen.map((loc) => {
    const prelude = preludeOf(loc);
    const reading = readings.get(loc.socketPath);
    if (reading !== undefined && !reading.reachable) prelude.failures.push("tmux");
    const probe = reading?.sessions.get(loc.session) ?? missingProbe(reading?.serverGone);
    return evaluateSession(deps, loc, prelude, probe, reading?.captured.has(loc.session) ?? false);
  }));
  const second = evals.filter(needsSecondSample);
  if (second.length > 0) {
    await deps.sleep(CPU_SECOND_SAMPLE_MS);
    for (const ev of second) resample(deps, ev);
  }
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
