/** `lisa session explain`: its flags, help and loader (the implementation is `explain.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session explain`. */
export const explainFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  events: F.events,
  since: F.since,
  json: F.json,
  jsonMin: F.jsonMin,
  recent: F.recent,
  agent: F.agent,
  mode: F.mode,
  host: F.host,
};

/** `lisa session explain`. */
export const explainVerb = {
  route: "session explain",
  brief: "show a session's status and its recent events (transitions, lifecycle)",
  flags: explainFlags,
  load: () => lazyImport(new URL("./explain.ts", import.meta.url)),
} satisfies VerbSpec;
