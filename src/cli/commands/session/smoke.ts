/** `lisa session smoke`: a deterministic nested run L1 → … → LN with lisa itself. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { intArg } from "../../options.ts";
import { DEFAULT_SMOKE_LEVELS, MAX_SMOKE_LEVELS, runSmoke } from "../../../core/upkeep/smoke.ts";

/** Registers `lisa session smoke`. Exits 0 when every level's marker reached L1, else 1. */
export function registerSmoke(session: Command, ctx: CliContext): void {
  session
    .command("smoke")
    .description(
      "nested self-test: L1 spawns L2 … LN (lisa itself, no agent), each monitors its child " +
        "and passes the markers up",
    )
    .option(
      "--levels <n>",
      `nesting depth, 1-${MAX_SMOKE_LEVELS}`,
      intArg(1, MAX_SMOKE_LEVELS),
      DEFAULT_SMOKE_LEVELS,
    )
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--keep-sessions", "do not kill the smoke sessions at the end")
    .option("--timeout-seconds <n>", "overall limit", intArg(5, 3600), 120)
    .option("--json", "print the JSON summary")
    .action(async (opts) => {
      const r = await runSmoke(ctx.deps, {
        levels: opts.levels,
        projectRoot: opts.projectRoot,
        keepSessions: opts.keepSessions === true,
        timeoutSeconds: opts.timeoutSeconds,
      });
      ctx.exitCode = r.ok ? 0 : 1;
      if (opts.json) {
        printJson(ctx.deps.io, { ...r });
        return;
      }
      const io = ctx.deps.io;
      io.out(
        `smoke ${r.ok ? "ok" : "FAILED"}: ${r.levels} level(s), ` +
          `${r.markers.length}/${r.levels} markers, ${(r.durationMs / 1000).toFixed(1)} s\n`,
      );
      if (r.missingMarkers.length > 0) io.out(`missing: ${r.missingMarkers.join(", ")}\n`);
      if (r.error) io.err(`lisa: smoke: ${r.error}\n`);
      for (const line of r.output ?? []) io.err(`  | ${line}\n`);
      if (r.keptSessions) io.out(`kept sessions: ${r.sessions.join(" ")}\n`);
    });
}
