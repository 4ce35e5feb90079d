/**
 * `lisa session watch --all-hosts`: this machine's watch (in this process) and each host's own
 * `lisa session watch --json` (over ssh, for as long as the watch runs) merged into one stream,
 * each event naming its `host` (null here). A host that cannot be reached, or whose stream
 * breaks, is reported once (`{"type": "host_unreachable", host, errorCode, error}`) and the
 * others go on. `--until` holds across the fleet: with `any`, the first source that meets it
 * ends the watch; with `all`, every source still connected must meet it. A timeout, Ctrl-C or a
 * closed stdout ends every stream (each remote watch is ended with its connection).
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import {
  WATCH_STOPPED_EXIT,
  type WatchEvent,
  type WatchOptions,
  type WatchOutcome,
  watchSessions,
} from "./watch.ts";
import { type HostEntry, runOnHost } from "../hosts/mod.ts";

/** One line of the merged stream: a watch event with its host, or a host that was lost. */
export type FleetWatchEvent =
  | (WatchEvent & { host: string | null })
  | {
    type: "host_unreachable";
    at: string;
    host: string;
    errorCode: string;
    error: string;
  };

/** Options of {@link watchAllHosts}: the local watch's, and the hosts to add. */
export interface WatchAllOptions extends Omit<WatchOptions, "sessions"> {
  hosts: readonly HostEntry[];
}

/** Extra seconds a remote watch is given past the deadline, in case its connection is lost. */
const REMOTE_GRACE_SECONDS = 10;

/** The `session watch` arguments of each host's lisa for `options`. Pure. */
export function remoteWatchArgs(options: WatchAllOptions): string[] {
  return [
    "session",
    "watch",
    "--json",
    ...(options.allSockets ? ["--all-sockets"] : []),
    // Several states go as the CLI takes them: comma-separated.
    ...(options.until !== undefined ? ["--until", [options.until].flat().join(",")] : []),
    ...(options.quantifier === "all" ? ["--all"] : []),
    ...(options.timeoutSeconds !== undefined
      ? ["--timeout-seconds", String(options.timeoutSeconds + REMOTE_GRACE_SECONDS)]
      : []),
  ];
}

/** Each complete line of a stream of text chunks, handed to `each`. */
function lineSplitter(each: (line: string) => void): (text: string) => void {
  let pending = "";
  return (text) => {
    pending += text;
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.trim() !== "") each(line);
      nl = pending.indexOf("\n");
    }
  };
}

/** One fleet watch under way: where each source stands, and its one end. */
class FleetWatch {
  /** Ends every remote watch (their ssh connections) once the watch is over. */
  readonly stop = new AbortController();
  outcome: WatchOutcome | null = null;
  #settle: () => void = () => {};
  /** Resolves when the watch is over ({@link outcome} is set). */
  readonly settled = new Promise<void>((resolve) => this.#settle = resolve);
  // Each source (null: this machine): still streaming, met `--until` (its sessions), or lost.
  readonly #sources: Map<string | null, "live" | "met" | "lost">;
  readonly #met = new Map<string | null, NonNullable<WatchEvent["sessions"]>>();

  constructor(
    readonly deps: Deps,
    readonly options: WatchAllOptions,
    readonly emit: (e: FleetWatchEvent) => void,
  ) {
    this.#sources = new Map(
      [null, ...options.hosts.map((h) => h.name)].map((s) => [s, "live" as const]),
    );
  }

  /** Now, as events say it. */
  at(): string {
    return this.deps.now().toISOString();
  }

  /** Ends the watch with `last` (the first end wins). */
  finish(last: WatchEvent, exitCode: number): void {
    if (this.outcome !== null) return;
    this.outcome = { exitCode, last };
    this.emit({ ...last, host: null });
    this.stop.abort();
    this.#settle();
  }

  /** With `--all`: the end once no source streams on and one met `--until`. */
  #checkAll(): void {
    const { until, quantifier } = this.options;
    if (until === undefined || quantifier !== "all" || this.#met.size === 0) return;
    if ([...this.#sources.values()].every((state) => state !== "live")) {
      this.finish(
        { type: "until_met", at: this.at(), sessions: [...this.#met.values()].flat() },
        0,
      );
    }
  }

  /** A host whose stream broke: reported once, and the others go on. */
  lost(host: string, errorCode: string, error: string): void {
    // A stream that ends after its host met --until is done, not lost.
    if (this.outcome !== null || this.#sources.get(host) !== "live") return;
    this.#sources.set(host, "lost");
    this.emit({ type: "host_unreachable", at: this.at(), host, errorCode, error });
    this.#checkAll();
  }

  /** An event of a source (null: this machine). */
  onEvent(host: string | null, e: WatchEvent): void {
    if (this.outcome !== null) return;
    if (e.type === "until_met") {
      const sessions = (e.sessions ?? []).map((s) => ({ host, ...s }));
      if (this.options.quantifier !== "all") this.finish({ ...e, sessions }, 0);
      else {
        this.#met.set(host, sessions);
        this.#sources.set(host, "met");
        this.#checkAll();
      }
      return;
    }
    if (e.type === "timeout" || e.type === "stopped") {
      if (host !== null) {
        this.lost(host, "host_unreachable", `Host "${host}": its watch ended (${e.type})`);
      } else if (e.type === "timeout") this.finish(e, 2);
      else this.finish(e, this.options.until === undefined ? 0 : WATCH_STOPPED_EXIT);
      return;
    }
    this.emit({ host, ...e });
  }
}

/** One host's own `lisa session watch --json`, over ssh, its lines fed to the fleet watch. */
async function watchHost(w: FleetWatch, host: HostEntry): Promise<void> {
  const { deps, options } = w;
  const onLine = (line: string) => {
    let doc: unknown;
    try {
      doc = JSON.parse(line);
    } catch {
      deps.io.err(`${host.name}: ${line}\n`);
      return;
    }
    const d = doc as Record<string, unknown>;
    if (d.ok === false) {
      w.lost(
        host.name,
        typeof d.errorCode === "string" ? d.errorCode : "host_lisa_failed",
        `Host "${host.name}": ${typeof d.error === "string" ? d.error : "its watch failed"}`,
      );
    } else w.onEvent(host.name, d as unknown as WatchEvent);
  };
  try {
    const r = await runOnHost(deps, host, remoteWatchArgs(options), {
      timeoutMs: Infinity,
      onStdout: lineSplitter(onLine),
      onStderr: lineSplitter((line) => deps.io.err(`${host.name}: ${line}\n`)),
      signal: w.stop.signal,
    });
    if (!w.stop.signal.aborted) {
      w.lost(
        host.name,
        "host_unreachable",
        `Host "${host.name}": its watch ended (exit ${r.code})`,
      );
    }
  } catch (error) {
    // Ctrl-C reaches the ssh clients too ("Killed by signal 2"): that is the watch stopping,
    // not a lost host, once this process has seen the signal as well.
    const message = (error as Error).message;
    if (/Killed by signal/.test(message)) await deps.sleep(200);
    if (options.stopped?.() === true || w.stop.signal.aborted) return;
    const code = error instanceof LisaError ? error.code : "host_unreachable";
    w.lost(host.name, code, message);
  }
}

/** Watches this machine and `options.hosts` as one (see the module doc). */
export async function watchAllHosts(
  deps: Deps,
  options: WatchAllOptions,
  emit: (e: FleetWatchEvent) => void,
): Promise<WatchOutcome> {
  const w = new FleetWatch(deps, options, emit);
  const local = watchSessions(deps, {
    ...options,
    timeoutSeconds: undefined,
    stopped: () => w.outcome !== null || options.stopped?.() === true,
  }, (e) => w.onEvent(null, e)).then((o) => {
    // Returned on its own: its --until was met (handled above), or the reader left.
    if (w.outcome === null && o.last.type !== "until_met") w.finish(o.last, o.exitCode);
  });
  const remotes = options.hosts.map((host) => watchHost(w, host));
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.timeoutSeconds !== undefined) {
    timer = setTimeout(
      () => w.finish({ type: "timeout", at: w.at() }, 2),
      options.timeoutSeconds * 1000,
    );
  }
  try {
    await w.settled;
  } finally {
    clearTimeout(timer);
    w.stop.abort();
    await Promise.allSettled([local, ...remotes]);
  }
  return w.outcome!;
}
