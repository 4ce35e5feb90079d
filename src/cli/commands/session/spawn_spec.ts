/** `lisa session spawn`: its flags, help and loader (the implementation is `spawn.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session spawn`. */
export const spawnFlags = {
  agent: F.agent,
  mode: F.mode,
  prompt: F.prompt,
  promptFile: F.promptFile,
  command: F.command,
  agentArgs: F.agentArgs,
  model: F.model,
  session: F.session,
  tag: F.tag,
  projectRoot: F.projectRoot,
  width: F.width,
  height: F.height,
  dangerouslySkipPermissions: F.dangerouslySkipPermissions,
  hooks: F.hooks,
  nestedPolicy: F.nestedPolicy,
  nestingIntent: F.nestingIntent,
  worktree: F.worktree,
  branch: F.branch,
  base: F.base,
  dryRun: F.dryRun,
  json: F.json,
  detectNested: F.detectNestedFlag,
  cleanupAllHashes: F.cleanupAllHashes,
  host: F.host,
};

/** `lisa session spawn`. */
export const spawnVerb = {
  route: "session spawn",
  brief: "start an agent (or any command) in a new tmux session",
  flags: spawnFlags,
  load: () => lazyImport(new URL("./spawn.ts", import.meta.url)),
} satisfies VerbSpec;
