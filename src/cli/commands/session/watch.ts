/** `lisa session watch`: a stream of state changes, optionally until a condition is met. */
import type { LisaContext } from "../../context.ts";
import { UsageError } from "../../../base/errors.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { watchFlags } from "./watch_spec.ts";
import { locateSession } from "../../../core/session/mod.ts";
import { type WatchEvent, watchSessions } from "../../../core/inventory/mod.ts";

function human(e: WatchEvent): string {
  if (e.type === "until_met") {
    return `${e.at} until met: ${
      (e.sessions ?? []).map((s) => `${s.alias ?? s.session} ${s.state}`).join(", ")
    }\n`;
  }
  if (e.type === "timeout" || e.type === "stopped") return `${e.at} ${e.type}\n`;
  const need = e.to === "waiting_input" && e.waitingFor ? ` (${e.waitingFor})` : "";
  return `${e.at} ${e.alias ?? e.session} ${e.type}: ${e.from ?? "-"} -> ${e.to ?? "-"}${need}\n`;
}

/** Streams events; exit 0 when --until is met, 2 on --timeout-seconds. */
export default async function watch(
  this: LisaContext,
  flags: FlagsOf<typeof watchFlags>,
): Promise<void> {
  const deps = this.deps;
  if (flags.any && flags.all) throw new UsageError("--any and --all exclude each other");
  if ((flags.any || flags.all) && flags.until === undefined) {
    throw new UsageError("--any and --all need --until");
  }
  const sessions = flags.session === undefined
    ? undefined
    : [await locateSession(deps, flags.session, flags.projectRoot)];
  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    const outcome = await watchSessions(deps, {
      projectRoot: flags.projectRoot,
      allSockets: flags.allSockets ?? false,
      sessions,
      until: flags.until,
      quantifier: flags.all ? "all" : "any",
      timeoutSeconds: flags.timeoutSeconds,
      stopped: () => stop || deps.io.outClosed,
    }, (e) => {
      deps.io.out(flags.json ? JSON.stringify(e) + "\n" : human(e));
    });
    this.exitCode = outcome.exitCode;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
}
