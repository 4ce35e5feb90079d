/** `lisa cleanup`: its flags, help and loader (the implementation is `cleanup.ts`). */
import * as F from "../flags.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { VerbSpec } from "../verb_spec.ts";

/** The flags of `lisa cleanup`. */
export const cleanupFlags = {
  dryRun: F.dryRun,
  projectOnly: F.projectOnly,
  projectRoot: F.projectRoot,
  json: F.json,
};

/** `lisa cleanup`. */
export const cleanupVerb = {
  route: "cleanup",
  brief: "remove stale lisa sockets, artifacts of gone sessions and old startup scripts; " +
    "never kills a server",
  flags: cleanupFlags,
  load: () => lazyImport(new URL("./cleanup.ts", import.meta.url)),
} satisfies VerbSpec;
