/** `lisa skill install`: lisa's SKILL.md where claude and codex read skills. */
import { warn } from "../../../base/io.ts";
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { skillInstallFlags } from "./install_spec.ts";
import { UsageError } from "../../../base/errors.ts";
import { AGENTS } from "../../../base/types.ts";
import { installSkill, type TargetReport } from "../../../core/skill/mod.ts";

/** What a person reads for each target (`--dry-run`: what would happen). */
function line(t: TargetReport, dryRun: boolean): string {
  const verb = {
    create: ["created", "would create"],
    update: ["updated", "would update"],
    none: ["unchanged", "unchanged"],
    replace: ["replaced", "would replace"],
    refuse: ["refused", "would refuse"],
  }[t.action][dryRun ? 1 : 0];
  const was = t.action === "replace" ? ` (it held a ${t.state} file)` : "";
  return `${verb.padEnd(13)} ${t.path}  [${t.agent}, ${t.scope}]${was}\n`;
}

/** Installs the skill; a refusal or failure is an error (exit 1) that wrote nothing. */
export default async function install(
  this: LisaContext,
  flags: FlagsOf<typeof skillInstallFlags>,
): Promise<void> {
  if (flags.scope !== "project" && flags.projectRoot !== undefined) {
    throw new UsageError(
      "--project-root applies to --scope project; the user scope installs under HOME",
      "conflicting_options",
    );
  }
  const report = await installSkill(this.deps, {
    agents: flags.agent === "all" ? AGENTS : [flags.agent],
    scope: flags.scope,
    projectRoot: flags.projectRoot,
    force: flags.force ?? false,
    dryRun: flags.dryRun ?? false,
  });
  const io = this.deps.io;
  for (const copy of report.otherCopies) {
    warn(
      io,
      `${copy.agent} also reads ${copy.path} (${copy.state}), a second skill ` +
        `named lisa; lisa leaves it alone: remove it if it is an older copy`,
    );
  }
  if (flags.json) {
    printJson(io, { ...report });
    return;
  }
  for (const t of report.targets) io.out(line(t, report.dryRun));
}
