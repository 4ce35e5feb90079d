/** `lisa session kill-all`: end every lisa session (of the project, or of every server). */
import type { LisaContext } from "../../context.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { killAllFlags } from "./kill_all_spec.ts";
import { killAllSessions } from "../../../core/kill/mod.ts";
import { printKillOutcome } from "./kill.ts";

/** Kills every listed session tree. */
export default async function killAll(
  this: LisaContext,
  flags: FlagsOf<typeof killAllFlags>,
): Promise<void> {
  // Printed through `announce`: when lisa runs inside a session, its terminal goes last.
  await killAllSessions(this.deps, {
    projectRoot: flags.projectRoot,
    projectOnly: flags.projectOnly ?? false,
    cleanupAllHashes: flags.cleanupAllHashes,
    announce: (result) => {
      const noun = `session${result.count === 1 ? "" : "s"}`;
      printKillOutcome(this, flags.json ?? false, result, `killed ${result.count} ${noun}`);
    },
  });
}
