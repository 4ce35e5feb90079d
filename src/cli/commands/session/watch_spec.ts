/** `lisa session watch`: its flags, help and loader (the implementation is `watch.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session watch`. */
export const watchFlags = {
  session: F.session,
  sessions: F.sessions,
  projectRoot: F.projectRoot,
  allSockets: F.allSockets,
  until: F.until,
  any: F.anyFlag,
  all: F.allFlag,
  timeoutSeconds: F.timeoutSeconds,
  json: F.json,
  host: F.host,
  allHosts: F.allHosts,
};

/** `lisa session watch`. */
export const watchVerb = {
  route: "session watch",
  brief: "one JSON line per state change of any session; with --until, exit 0 when met, " +
    "2 on --timeout-seconds",
  flags: watchFlags,
  mcp: {
    require: ["until"],
    note: "As a tool it returns once until is met (the until_met event) or timeoutSeconds " +
      "passes (the timeout event, not an error); the events before it are in events",
  },
  load: () => lazyImport(new URL("./watch.ts", import.meta.url)),
} satisfies VerbSpec;
