/** `lisa session kill-all`: its flags, help and loader (the implementation is `kill_all.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session kill-all`. */
export const killAllFlags = {
  projectOnly: F.projectOnly,
  cleanupAllHashes: F.cleanupAllHashes,
  projectRoot: F.projectRoot,
  json: F.json,
  host: F.host,
};

/** `lisa session kill-all`. */
export const killAllVerb = {
  route: "session kill-all",
  brief: "end every lisa session on every lisa tmux server (or only the project's)",
  flags: killAllFlags,
  load: () => lazyImport(new URL("./kill_all.ts", import.meta.url)),
} satisfies VerbSpec;
