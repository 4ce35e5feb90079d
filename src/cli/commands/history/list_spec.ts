/** `lisa history list`: its flags, help and loader (the implementation is `list.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa history list`. */
export const historyListFlags = {
  projectRoot: F.projectRoot,
  allProjects: F.allProjects,
  since: F.since,
  agent: F.agent,
  json: F.json,
};

/** `lisa history list`. */
export const historyListVerb = {
  route: "history list",
  brief: "sessions lisa ran (alias, agent, project, start, duration, turns, final state)",
  flags: historyListFlags,
  load: () => lazyImport(new URL("./list.ts", import.meta.url)),
} satisfies VerbSpec;
