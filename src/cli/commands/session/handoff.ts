/** `lisa session handoff`: a compact transfer payload for another orchestrator loop. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { handoffFlags } from "./handoff_spec.ts";
import { handoffSession } from "../../../core/monitor/mod.ts";

/** Prints the handoff (JSON, compact JSON, or a few lines of text). */
export default async function handoff(
  this: LisaContext,
  flags: FlagsOf<typeof handoffFlags>,
): Promise<void> {
  const h = await handoffSession(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    events: flags.events,
    deltaFrom: flags.deltaFrom,
    cursorFile: flags.cursorFile,
  });
  const { output: _output, ...payload } = h;
  const io = this.deps.io;
  if (flags.jsonMin) {
    const { waitingFor: _w, exitCode: _e, cursorFile: _c, ...min } = payload;
    printJson(io, min);
  } else if (flags.json) printJson(io, payload);
  else {
    io.out(`${h.session}: ${h.sessionState} (${h.reason}); next: ${h.nextAction}\n`);
    for (const e of h.recent) io.out(`  ${e.at} ${e.type} ${e.state ?? "-"} (${e.reason})\n`);
    if (h.summary !== "") io.out(`${h.summary}\n`);
  }
}
