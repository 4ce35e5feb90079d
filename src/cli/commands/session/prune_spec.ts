/** `lisa session prune`: its flags, help and loader (the implementation is `prune.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session prune`. */
export const pruneFlags = {
  olderThan: F.olderThan,
  dryRun: F.dryRun,
  force: F.force,
  projectRoot: F.projectRoot,
  allProjects: F.allProjects,
  json: F.json,
  host: F.host,
};

/** `lisa session prune`. */
export const pruneVerb = {
  route: "session prune",
  brief: "remove the files of finished or gone sessions older than --older-than (never a " +
    "live one), and event logs past retention",
  flags: pruneFlags,
  load: () => lazyImport(new URL("./prune.ts", import.meta.url)),
} satisfies VerbSpec;
