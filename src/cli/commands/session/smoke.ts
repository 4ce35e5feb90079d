/** `lisa session smoke`: a deterministic nested run L1 → … → LN with lisa itself. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf, smokeFlags } from "../../verbs.ts";
import { runSmoke } from "../../../core/upkeep/smoke.ts";

/** Runs the smoke; exit 0 when every level's marker reached L1, else 1. */
export default async function smoke(
  this: LisaContext,
  flags: FlagsOf<typeof smokeFlags>,
): Promise<void> {
  const r = await runSmoke(this.deps, {
    levels: flags.levels,
    projectRoot: flags.projectRoot,
    keepSessions: flags.keepSessions === true,
    timeoutSeconds: flags.timeoutSeconds,
  });
  this.exitCode = r.ok ? 0 : 1;
  const io = this.deps.io;
  if (flags.json) {
    printJson(io, { ...r });
    return;
  }
  io.out(
    `smoke ${r.ok ? "ok" : "FAILED"}: ${r.levels} level(s), ` +
      `${r.markers.length}/${r.levels} markers, ${(r.durationMs / 1000).toFixed(1)} s\n`,
  );
  if (r.missingMarkers.length > 0) io.out(`missing: ${r.missingMarkers.join(", ")}\n`);
  if (r.error) io.err(`lisa: smoke: ${r.error}\n`);
  for (const line of r.output ?? []) io.err(`  | ${line}\n`);
  if (r.keptSessions) io.out(`kept sessions: ${r.sessions.join(" ")}\n`);
}
