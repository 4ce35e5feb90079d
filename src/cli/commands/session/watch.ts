/** `lisa session watch`: a stream of state changes, optionally until a condition is met. */
import type { LisaContext } from "../../context.ts";
import { UsageError } from "../../../base/errors.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { watchFlags } from "./watch_spec.ts";
import { locateSession } from "../../../core/session/mod.ts";
import {
  type FleetWatchEvent,
  watchAllHosts,
  type WatchEvent,
  watchSessions,
} from "../../../core/inventory/mod.ts";
import { usableHosts } from "../../../core/hosts/mod.ts";

/** A session as a person addresses it: its alias (or name), `host:` first on another host. */
function named(s: { session?: string; alias?: string | null; host?: string | null }): string {
  const name = s.alias ?? s.session ?? "-";
  return s.host ? `${s.host}:${name}` : name;
}

function human(e: WatchEvent | FleetWatchEvent): string {
  if (e.type === "host_unreachable") return `${e.at} host ${e.host} unreachable: ${e.error}\n`;
  if (e.type === "until_met") {
    return `${e.at} until met: ${
      (e.sessions ?? []).map((s) => `${named(s)} ${s.state}`).join(", ")
    }\n`;
  }
  if (e.type === "timeout" || e.type === "stopped") return `${e.at} ${e.type}\n`;
  const need = e.to === "waiting_input" && e.waitingFor ? ` (${e.waitingFor})` : "";
  return `${e.at} ${named(e)} ${e.type}: ${e.from ?? "-"} -> ${e.to ?? "-"}${need}\n`;
}

/** Streams events; exit 0 when --until is met, 2 on --timeout-seconds. */
export default async function watch(
  this: LisaContext,
  flags: FlagsOf<typeof watchFlags>,
): Promise<void> {
  const deps = this.deps;
  if (flags.any && flags.all) {
    throw new UsageError("--any and --all exclude each other", "conflicting_options");
  }
  if ((flags.any || flags.all) && flags.until === undefined) {
    throw new UsageError("--any and --all need --until", "missing_argument", { flag: "--until" });
  }
  if (flags.allHosts && (flags.session !== undefined || flags.sessions !== undefined)) {
    throw new UsageError(
      "--session and --sessions do not go with --all-hosts (use HOST:NAME, or --host, for one " +
        "host's sessions)",
      "conflicting_options",
    );
  }
  const named = [...(flags.session === undefined ? [] : [flags.session]), ...flags.sessions ?? []];
  const sessions = named.length === 0 ? undefined : await locateAll(deps, named, flags.projectRoot);
  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  Deno.addSignalListener("SIGINT", onSignal);
  const options = {
    projectRoot: flags.projectRoot,
    allSockets: flags.allSockets ?? false,
    until: flags.until,
    quantifier: flags.all ? "all" as const : "any" as const,
    timeoutSeconds: flags.timeoutSeconds,
    stopped: () => stop || deps.io.outClosed,
  };
  const print = (e: WatchEvent | FleetWatchEvent) => {
    deps.io.out(flags.json ? JSON.stringify(e) + "\n" : human(e));
  };
  try {
    if (flags.allHosts) {
      const hosts = usableHosts(deps);
      this.exitCode = (await watchAllHosts(deps, { ...options, hosts }, print)).exitCode;
      return;
    }
    const outcome = await watchSessions(deps, { ...options, sessions }, print);
    this.exitCode = outcome.exitCode;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
}

/** Each named session located once (server and full name); a name given twice counts once. */
async function locateAll(
  deps: LisaContext["deps"],
  names: readonly string[],
  projectRoot: string | undefined,
): Promise<{ session: string; socketPath: string }[]> {
  const out = new Map<string, { session: string; socketPath: string }>();
  for (const name of names) {
    const loc = await locateSession(deps, name, projectRoot);
    out.set(`${loc.socketPath}\0${loc.session}`, loc);
  }
  return [...out.values()];
}
