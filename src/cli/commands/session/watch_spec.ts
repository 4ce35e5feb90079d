/** `lisa session watch`: its flags, help and loader (the implementation is `watch.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session watch`. */
export const watchFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  allSockets: F.allSockets,
  until: F.until,
  any: F.anyFlag,
  all: F.allFlag,
  timeoutSeconds: F.timeoutSeconds,
  json: F.json,
};

/** `lisa session watch`. */
export const watchVerb = {
  route: "session watch",
  brief: "one JSON line per state change of any session; with --until, exit 0 when met, " +
    "2 on --timeout-seconds",
  flags: watchFlags,
  load: () => lazyImport(new URL("./watch.ts", import.meta.url)),
} satisfies VerbSpec;
