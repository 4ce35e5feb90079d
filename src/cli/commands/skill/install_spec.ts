/** `lisa skill install`: its flags, help and loader (the implementation is `install.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa skill install`. */
export const skillInstallFlags = {
  agent: F.skillAgent,
  scope: F.scope,
  projectRoot: F.projectRoot,
  force: F.force,
  dryRun: F.dryRun,
  json: F.json,
};

/** `lisa skill install`. */
export const skillInstallVerb = {
  route: "skill install",
  brief: "install lisa's skill (SKILL.md) where claude and codex read skills, so they know " +
    "how to drive lisa; never overwrites a file it did not write without --force",
  fullDescription: "Paths: claude ~/.claude/skills/lisa/SKILL.md ($CLAUDE_CONFIG_DIR/skills " +
    "when set), codex ~/.agents/skills/lisa/SKILL.md; with --scope project, " +
    "<project>/.claude/skills/lisa/ and <project>/.agents/skills/lisa/. The file carries a " +
    "line with its SHA-256: a file without it, or edited since, is not lisa's, and is only " +
    "replaced with --force. Installing again over lisa's own file updates it.",
  flags: skillInstallFlags,
  load: () => lazyImport(new URL("./install.ts", import.meta.url)),
} satisfies VerbSpec;
