/** `lisa session explain`: status plus the last events, to see why a session is where it is. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import { statusText } from "../../status_render.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { explainFlags } from "./explain_spec.ts";
import { parseSince } from "../../../base/duration.ts";
import { explainSession } from "../../../core/monitor/mod.ts";

/** Prints the status and the recent events of a session. */
export default async function explain(
  this: LisaContext,
  flags: FlagsOf<typeof explainFlags>,
): Promise<void> {
  const deps = this.deps;
  const sinceMs = flags.since === undefined
    ? undefined
    : parseSince(flags.since, deps.now().getTime());
  const result = await explainSession(deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    events: flags.events ?? flags.recent,
    sinceMs,
  });
  if (flags.jsonMin) {
    printJson(deps.io, {
      session: result.session,
      status: result.status,
      sessionState: result.sessionState,
      reason: result.classificationReason,
      recent: result.events,
    });
    return;
  }
  if (flags.json) {
    printJson(deps.io, { ...result });
    return;
  }
  const { events, eventFile: _file, decision, ...report } = result;
  deps.io.out(statusText(report));
  deps.io.out("decision:\n");
  for (const d of decision) {
    const mark = d.role === "decided" ? "→" : d.role === "overruled" ? "✗" : " ";
    deps.io.out(
      `  ${mark} ${d.signal.padEnd(18)}${d.said}${d.role === "considered" ? "" : ` (${d.role})`}\n`,
    );
  }
  deps.io.out(events.length === 0 ? "events: none\n" : "events:\n");
  for (const e of events) {
    const state = e.state ? ` ${e.state}` : "";
    deps.io.out(`  ${e.at}  ${e.type.padEnd(10)}${state} (${e.reason})\n`);
  }
}
