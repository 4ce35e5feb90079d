/**
 * `lisa session watch`: one process that follows every session of the scope and reports each
 * change of state (and each session that appears or disappears) as one event, until
 * `--until` is met or the timeout passes. Each round is one live pass over the fleet
 * (`gatherLiveSessions`: the listing and captures of each server, `/proc` reads, the status
 * classifier) every {@link WATCH_INTERVAL_MS}: a change visible to `status` is reported within
 * about that interval plus one pass. The servers are read over one tmux control-mode client
 * each (`src/tmux/control.ts`), opened after the first round and kept for the whole watch, so a
 * round forks no process; a server whose client closed (its session ended) is read with a
 * one-shot tmux call that round, and a new client is opened on another of its sessions. The wait
 * between rounds ends early when a done file, hooks log or meta changes (a file watch on the
 * runtime dir) or a server reports its sessions changed, so those changes are seen at once.
 */
import type { Deps } from "../../base/deps.ts";
import { TERMINAL_STATES } from "../../base/types.ts";
import type { CpuSample, SessionStateName } from "../../base/types.ts";
import { resolveProject, sessionKey } from "../session/mod.ts";
import { gatherLiveSessions, type ListedSession } from "./list.ts";
import { ControlChannel } from "../../tmux/control.ts";
import { STDOUT_CLOSED_EXIT_CODE } from "../../base/io.ts";

/** Time between two rounds of watch. */
export const WATCH_INTERVAL_MS = 400;

/** Options of {@link watchSessions}. */
export interface WatchOptions {
  projectRoot?: string;
  allSockets?: boolean;
  /** Only these sessions (resolved: server and full name); all of the scope when absent. */
  sessions?: { session: string; socketPath: string }[];
  /**
   * The states that meet the condition: `waiting_input`, `terminal`, any session state, or
   * several of them (a session meets it in any one).
   */
  until?: string | readonly string[];
  /** `all`: every watched session must get to one of them; `any` (default): the first one. */
  quantifier?: "any" | "all";
  timeoutSeconds?: number;
  /** Stop early (a closed stdout, a signal); checked between rounds. */
  stopped?: () => boolean;
}

/** One line of the stream. */
export interface WatchEvent {
  type: "appeared" | "changed" | "disappeared" | "until_met" | "timeout" | "stopped";
  at: string;
  session?: string;
  alias?: string | null;
  /** The session's project (two projects may each have a session of one name). */
  projectRoot?: string | null;
  from?: SessionStateName | null;
  to?: SessionStateName | null;
  waitingFor?: string | null;
  reason?: string | null;
  exitCode?: number | null;
  /** until_met: the sessions that met the condition. */
  sessions?: { session: string; alias: string | null; state: SessionStateName | null }[];
}

/** Exit code of a watch stopped (Ctrl-C) before its `--until` condition was met. */
export const WATCH_STOPPED_EXIT = 130;

/**
 * How watch ended: 0 the condition was met (or no condition and stopped), 2 timeout, 130
 * stopped before the condition was met.
 */
export interface WatchOutcome {
  exitCode: number;
  last: WatchEvent;
}

/**
 * True when `state` satisfies `until`, or one of the states `until` lists (`terminal` = any
 * terminal state). Pure.
 */
export function meets(state: SessionStateName | null, until: string | readonly string[]): boolean {
  if (state === null) return false;
  if (typeof until !== "string") return until.some((u) => meets(state, u));
  if (until === "terminal") return TERMINAL_STATES.includes(state);
  return state === until;
}

/**
 * Watches (see the module doc), calling `emit` for each event. Returns when the condition is
 * met (exit 0), on timeout (exit 2), or when `stopped()` says so (exit 0 without `--until`,
 * else {@link WATCH_STOPPED_EXIT}).
 */
export async function watchSessions(
  deps: Deps,
  options: WatchOptions,
  emit: (e: WatchEvent) => void,
): Promise<WatchOutcome> {
  const project = resolveProject(deps, options.projectRoot);
  const startMs = deps.now().getTime();
  const deadline = options.timeoutSeconds === undefined
    ? Infinity
    : startMs + options.timeoutSeconds * 1000;
  // Sessions are keyed by server and name: two projects may each run a session of one name.
  const keyOf = (r: { session: string; socketPath: string }) => sessionKey(r.socketPath, r.session);
  const only = options.sessions ? new Set(options.sessions.map(keyOf)) : null;
  let known = new Map<string, ListedSession>();
  let watched: Set<string> | null = only;
  const at = () => deps.now().toISOString();
  const channels = new Map<string, ControlChannel>();
  // CPU samples stay in this process between rounds: a sample a second per session would
  // otherwise rewrite every session's state file every second.
  const cpuMemory = new Map<string, CpuSample[]>();
  const waker = new Waker(deps, project.runtimeDir);
  try {
    return await loop();
  } finally {
    waker.close();
    await Promise.all([...channels.values()].map((c) => c.close()));
  }

  async function loop(): Promise<WatchOutcome> {
    for (let round = 0;; round++) {
      const all = await gatherLiveSessions(
        deps,
        project,
        { allSockets: options.allSockets },
        channels,
        cpuMemory,
      );
      await keepChannels(channels, all, () => waker.wake(), project.runtimeDir);
      const rows = all.filter((r) => only === null || only.has(keyOf(r)));
      const now = new Map(rows.map((r) => [keyOf(r), r]));
      emitChanges(known, rows, now, { emit, at, keyOf });
      known = now;
      // Without --session: the sessions listed by the first round that found any (a watch
      // started before the first spawn waits for it); with --any, any session that appears later
      // counts too.
      if (watched === null || (only === null && watched.size === 0)) {
        watched = new Set(rows.map(keyOf));
      } else if (only === null && options.quantifier !== "all") {
        for (const r of rows) watched.add(keyOf(r));
      }
      const met = untilMet(options, watched, now, at);
      if (met !== null) {
        emit(met);
        return { exitCode: 0, last: met };
      }
      if (deps.io.outClosed) {
        // The reader left (a pipe closed after a line could not be written): nobody is
        // watching, so stop now rather than at the timeout, or never without one (as monitor).
        return { exitCode: STDOUT_CLOSED_EXIT_CODE, last: { type: "stopped", at: at() } };
      }
      if (options.stopped?.()) {
        const last: WatchEvent = { type: "stopped", at: at() };
        emit(last);
        // Stopped before an --until condition was met: not a success (130, as after SIGINT).
        return { exitCode: options.until === undefined ? 0 : WATCH_STOPPED_EXIT, last };
      }
      // The last round is at the deadline itself: a state reached in the last interval counts.
      const left = deadline - deps.now().getTime();
      if (left <= 0) {
        const last: WatchEvent = { type: "timeout", at: at() };
        emit(last);
        return { exitCode: 2, last };
      }
      await waker.wait(Math.min(WATCH_INTERVAL_MS, left));
    }
  }
}

/** One event per session that appeared, changed state (or what it waits for) or disappeared. */
function emitChanges(
  known: ReadonlyMap<string, ListedSession>,
  rows: readonly ListedSession[],
  now: ReadonlyMap<string, ListedSession>,
  out: {
    emit: (e: WatchEvent) => void;
    at: () => string;
    keyOf: (r: ListedSession) => string;
  },
): void {
  const { emit, at, keyOf } = out;
  for (const r of rows) {
    const before = known.get(keyOf(r));
    if (before === undefined) {
      emit({ ...fields(r), type: "appeared", at: at(), from: null, to: r.state });
    } else if (before.state !== r.state || before.waitingFor !== r.waitingFor) {
      emit({ ...fields(r), type: "changed", at: at(), from: before.state, to: r.state });
    }
  }
  for (const [key, before] of known) {
    if (!now.has(key)) {
      // Gone is not_found, as status and --until read it; what it waited for went with it.
      emit({
        ...fields(before),
        type: "disappeared",
        at: at(),
        from: before.state,
        to: "not_found",
        waitingFor: null,
        reason: null,
      });
    }
  }
}

/** The `until_met` event once `--until` holds for the watched sessions (any or all); else null. */
function untilMet(
  options: WatchOptions,
  watched: ReadonlySet<string>,
  now: ReadonlyMap<string, ListedSession>,
  at: () => string,
): WatchEvent | null {
  const until = options.until;
  if (until === undefined || watched.size === 0) return null;
  // A watched session that is gone is not_found (terminal), listed with --session or not:
  // `--until terminal --all` must not wait forever on a killed session.
  const state = (key: string) => now.get(key)?.state ?? "not_found";
  const met = [...watched].filter((k) => meets(state(k), until));
  const done = options.quantifier === "all" ? met.length === watched.size : met.length > 0;
  if (!done) return null;
  return {
    type: "until_met",
    at: at(),
    sessions: met.map((k) => ({
      // A key ends with the session's name (names hold no newline).
      session: k.slice(k.lastIndexOf("\n") + 1),
      alias: now.get(k)?.alias ?? null,
      state: state(k),
    })),
  };
}

/**
 * One open control channel per server that has sessions (attached to a running one when there
 * is one); channels of servers without sessions, or closed ones, are dropped.
 */
async function keepChannels(
  channels: Map<string, ControlChannel>,
  rows: readonly ListedSession[],
  onChange: () => void,
  /** lisa's private runtime dir: the channels' captures are written there (src/tmux/control.ts). */
  captureDir: string,
): Promise<void> {
  const bySocket = new Map<string, ListedSession[]>();
  for (const r of rows) bySocket.set(r.socketPath, [...(bySocket.get(r.socketPath) ?? []), r]);
  for (const [socket, channel] of channels) {
    const names = bySocket.get(socket)?.map((r) => r.session) ?? [];
    if (channel.closed || !names.includes(channel.session)) {
      channels.delete(socket);
      await channel.close();
    }
  }
  for (const [socket, list] of bySocket) {
    if (channels.has(socket)) continue;
    const target = list.find((r) => r.alive) ?? list[0];
    const channel = ControlChannel.open(socket, target.session, { onChange, captureDir });
    if (channel !== null) channels.set(socket, channel);
  }
}

function fields(r: ListedSession): Partial<WatchEvent> {
  return {
    session: r.session,
    alias: r.alias,
    projectRoot: r.projectRoot,
    waitingFor: r.waitingFor,
    reason: r.classificationReason,
    exitCode: r.exitCode,
  };
}

/** Artifacts whose change can change a session's answer at once (not lisa's own poll files). */
const WAKE_FILE_RE = /-(done\.txt|hooks\.jsonl|meta\.json)$/;

/** Rounds never start closer together than this, however many wake-ups arrive. */
export const WATCH_MIN_GAP_MS = 50;

/**
 * Ends the wait between two rounds early when something happened: a done file, hooks log or
 * meta changed in the runtime dir (inotify through `Deno.watchFs`), or a tmux server said its
 * sessions changed (control-mode notification). Falls back to the plain interval when the dir
 * cannot be watched.
 */
class Waker {
  private watcher: Deno.FsWatcher | null = null;
  private pending = false;
  private resolve: (() => void) | null = null;

  constructor(private readonly deps: Deps, dir: string) {
    try {
      this.watcher = Deno.watchFs(dir, { recursive: false });
      (async () => {
        for await (const event of this.watcher!) {
          if (event.paths.some((p) => WAKE_FILE_RE.test(p))) this.wake();
        }
      })().catch(() => {});
    } catch {
      this.watcher = null;
    }
  }

  /** Ends the current (or the next) wait. */
  wake(): void {
    this.pending = true;
    this.resolve?.();
  }

  /** Waits `ms`, or less when woken (but at least {@link WATCH_MIN_GAP_MS}). */
  async wait(ms: number): Promise<void> {
    await this.deps.sleep(WATCH_MIN_GAP_MS);
    if (this.pending) {
      this.pending = false;
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.resolve = resolve;
      timer = setTimeout(resolve, Math.max(0, ms - WATCH_MIN_GAP_MS));
    });
    clearTimeout(timer);
    this.resolve = null;
    this.pending = false;
  }

  close(): void {
    try {
      this.watcher?.close();
    } catch { /* already closed */ }
  }
}
