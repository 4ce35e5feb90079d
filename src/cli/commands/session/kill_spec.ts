/** `lisa session kill`: its flags, help and loader (the implementation is `kill.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session kill`. */
export const killFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  cleanupAllHashes: F.cleanupAllHashes,
  json: F.json,
  host: F.host,
};

/** `lisa session kill`. */
export const killVerb = {
  route: "session kill",
  brief: "end a session: its descendants first, every process of its pane, its artifacts " +
    "(the event log is kept)",
  flags: killFlags,
  load: () => lazyImport(new URL("./kill.ts", import.meta.url)),
} satisfies VerbSpec;
