/** `lisa session preflight`: environment plus a self-check of the contracts. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { preflightFlags } from "./preflight_spec.ts";
import { runPreflight } from "../../../core/upkeep/mod.ts";

/** Prints the preflight report; exit 0 when ready, 1 when not. */
export default async function preflight(
  this: LisaContext,
  flags: FlagsOf<typeof preflightFlags>,
): Promise<void> {
  const r = await runPreflight(this.deps, {
    projectRoot: flags.projectRoot,
    agent: flags.agent,
    model: flags.model,
    autoModel: flags.autoModel,
    autoModelCandidates: flags.autoModelCandidates,
    fast: flags.fast,
  });
  this.exitCode = r.ok ? 0 : 1;
  const io = this.deps.io;
  if (flags.json) {
    printJson(io, { ...r });
    return;
  }
  for (const t of r.environment.tools) {
    io.out(`${t.name}: ${t.found ? (t.version ?? "found") : "not found"}\n`);
  }
  for (const c of r.contracts.checks) io.out(`contract ${c.name}: ${c.detail}\n`);
  if (r.model) io.out(`model: ${r.model.name} (${r.model.source}, not probed)\n`);
  io.out(r.ok ? "ready\n" : `not ready: ${r.environment.problems.join("; ") || "contracts"}\n`);
}
