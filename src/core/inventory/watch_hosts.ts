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

/** Watches this machine and `options.hosts` as one (see the module doc). */
export async function watchAllHosts(
  deps: Deps,
  options: WatchAllOptions,
  emit: (e: FleetWatchEvent) => void,
): Promise<WatchOutcome> {
  const at = () => deps.now().toISOString();
  const stop = new AbortController();
  let outcome: WatchOutcome | null = null;
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => settle = resolve);
  // Each source (null: this machine): still streaming, met `--until` (its sessions), or lost.
  const sources = new Map<string | null, "live" | "met" | "lost">(
    [null, ...options.hosts.map((h) => h.name)].map((s) => [s, "live"]),
  );
  const met = new Map<string | null, NonNullable<WatchEvent["sessions"]>>();

  const finish = (last: WatchEvent, exitCode: number) => {
    if (outcome !== null) return;
    outcome = { exitCode, last };
    emit({ ...last, host: null });
    stop.abort();
    settle();
  };
  const checkAll = () => {
    if (options.until === undefined || options.quantifier !== "all" || met.size === 0) return;
    if ([...sources.values()].every((state) => state !== "live")) {
      finish({ type: "until_met", at: at(), sessions: [...met.values()].flat() }, 0);
    }
  };
  const lost = (host: string, errorCode: string, error: string) => {
    // A stream that ends after its host met --until is done, not lost.
    if (outcome !== null || sources.get(host) !== "live") return;
    sources.set(host, "lost");
    emit({ type: "host_unreachable", at: at(), host, errorCode, error });
    checkAll();
  };
  const onEvent = (host: string | null, e: WatchEvent) => {
    if (outcome !== null) return;
    if (e.type === "until_met") {
      const sessions = (e.sessions ?? []).map((s) => ({ host, ...s }));
      if (options.quantifier !== "all") finish({ ...e, sessions }, 0);
      else {
        met.set(host, sessions);
        sources.set(host, "met");
        checkAll();
      }
      return;
    }
    if (e.type === "timeout" || e.type === "stopped") {
      if (host === null) {
        finish(e, e.type === "timeout" ? 2 : options.until === undefined ? 0 : WATCH_STOPPED_EXIT);
      } else lost(host, "host_unreachable", `Host "${host}": its watch ended (${e.type})`);
      return;
    }
    emit({ host, ...e });
  };

  const local = watchSessions(deps, {
    ...options,
    timeoutSeconds: undefined,
    stopped: () => outcome !== null || options.stopped?.() === true,
  }, (e) => onEvent(null, e)).then((o) => {
    // Returned on its own: its --until was met (handled above), or the reader left.
    if (outcome === null && o.last.type !== "until_met") finish(o.last, o.exitCode);
  });

  const remotes = options.hosts.map(async (host) => {
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
        lost(
          host.name,
          typeof d.errorCode === "string" ? d.errorCode : "host_lisa_failed",
          `Host "${host.name}": ${typeof d.error === "string" ? d.error : "its watch failed"}`,
        );
      } else onEvent(host.name, d as unknown as WatchEvent);
    };
    try {
      const r = await runOnHost(deps, host, remoteWatchArgs(options), {
        timeoutMs: Infinity,
        onStdout: lineSplitter(onLine),
        onStderr: lineSplitter((line) => deps.io.err(`${host.name}: ${line}\n`)),
        signal: stop.signal,
      });
      if (!stop.signal.aborted) {
        lost(
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
      if (options.stopped?.() === true || stop.signal.aborted) return;
      const code = error instanceof LisaError ? error.code : "host_unreachable";
      lost(host.name, code, message);
    }
  });

  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.timeoutSeconds !== undefined) {
    timer = setTimeout(
      () => finish({ type: "timeout", at: at() }, 2),
      options.timeoutSeconds * 1000,
    );
  }
  try {
    await settled;
  } finally {
    clearTimeout(timer);
    stop.abort();
    await Promise.allSettled([local, ...remotes]);
  }
  return outcome!;
}
