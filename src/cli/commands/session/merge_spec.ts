/** `lisa session merge`: its flags, help and loader (the implementation is `merge.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session merge`. */
export const mergeFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  squash: F.squash,
  message: F.message,
  force: F.force,
  json: F.json,
  host: F.host,
};

/** `lisa session merge`. */
export const mergeVerb = {
  route: "session merge",
  brief: "commit a --worktree session's pending work and merge its branch into the main " +
    "checkout's current branch (a conflict aborts: exit 2)",
  flags: mergeFlags,
  positional: F.sessionPositional,
  load: () => lazyImport(new URL("./merge.ts", import.meta.url)),
} satisfies VerbSpec;
