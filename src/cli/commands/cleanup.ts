/** `lisa cleanup`: remove stale lisa sockets, artifacts and scripts. Never kills a server. */
import type { LisaContext } from "../context.ts";
import { printJson } from "../output.ts";
import type { FlagsOf } from "../verb_spec.ts";
import type { cleanupFlags } from "./cleanup_spec.ts";
import { runCleanup } from "../../core/upkeep/mod.ts";
import { resolveProject } from "../../core/session/mod.ts";

/** Runs the cleanup; exit 1 when something could not be removed. */
export default async function cleanup(
  this: LisaContext,
  flags: FlagsOf<typeof cleanupFlags>,
): Promise<void> {
  const deps = this.deps;
  const projectHash = flags.projectOnly ? resolveProject(deps, flags.projectRoot).hash : undefined;
  const report = await runCleanup(deps, { dryRun: flags.dryRun === true, projectHash });
  this.exitCode = report.errors.length > 0 ? 1 : 0;
  if (flags.json) {
    const r = report.removed;
    const count = r.sockets.length + r.artifacts.length + r.scripts.length;
    const k = report.kept;
    printJson(deps.io, {
      ok: report.errors.length === 0,
      ...report,
      // The older Go lisa's counters (it killed servers; lisa never does, so those stay 0).
      scanned: count + k.sockets.length + k.artifacts.length + k.scripts.length,
      wouldRemove: report.dryRun ? count : 0,
      killedServers: 0,
      wouldKillServers: 0,
      keptActive: report.liveSessions.length,
    });
    return;
  }
  const io = deps.io;
  const verb = report.dryRun ? "would remove" : "removed";
  const r = report.removed;
  io.out(
    `${verb}: ${r.sockets.length} socket(s), ${r.artifacts.length} artifact(s), ` +
      `${r.scripts.length} script(s); live sessions kept: ${report.liveSessions.length}\n`,
  );
  for (const p of [...r.sockets, ...r.artifacts, ...r.scripts]) io.out(`  ${p}\n`);
  for (const u of report.unknownSockets) {
    io.err(`lisa: kept ${u.path}: its server could not be asked (${u.error})\n`);
  }
  for (const e of report.errors) io.err(`lisa: could not remove ${e.path}: ${e.error}\n`);
}
