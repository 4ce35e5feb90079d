/** `lisa session smoke`: a deterministic nested run L1 → … → LN with lisa itself. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { smokeFlags } from "./smoke_spec.ts";
import { runSmoke } from "../../../core/upkeep/mod.ts";
import { LisaError } from "../../../base/errors.ts";
import { resolvePath } from "../../../base/paths.ts";

function readMatrix(cwd: string, path: string): string {
  try {
    return Deno.readTextFileSync(resolvePath(cwd, path));
  } catch (error) {
    throw new LisaError("invalid_argument", `Cannot read --matrix-file "${path}": ${error}`, {
      usage: true,
      cause: error,
    });
  }
}

/** Runs the smoke; exit 0 when every level's marker reached L1 (and every probe held), else 1. */
export default async function smoke(
  this: LisaContext,
  flags: FlagsOf<typeof smokeFlags>,
): Promise<void> {
  const r = await runSmoke(this.deps, {
    levels: flags.levels,
    projectRoot: flags.projectRoot,
    keepSessions: flags.keepSessions === true,
    timeoutSeconds: flags.timeoutSeconds,
    pollIntervalSeconds: flags.pollInterval,
    maxPolls: flags.maxPolls,
    promptStyle: flags.promptStyle,
    matrix: flags.matrixFile === undefined
      ? undefined
      : readMatrix(this.deps.cwd, flags.matrixFile),
    model: flags.model,
  });
  this.exitCode = r.ok ? 0 : 1;
  const io = this.deps.io;
  if (flags.reportMin) {
    printJson(io, {
      ok: r.ok,
      errorCode: r.errorCode,
      finalState: r.finalState,
      missingMarkers: r.missingMarkers,
      ...(r.failedMatrix && r.failedMatrix.length > 0 ? { failedMatrix: r.failedMatrix } : {}),
      // Compact when it passes; a failure still says why (a CI log is all there is to read).
      ...(r.ok ? {} : { error: r.error ?? null }),
      ...(!r.ok && r.output !== undefined ? { output: r.output } : {}),
    });
    return;
  }
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
