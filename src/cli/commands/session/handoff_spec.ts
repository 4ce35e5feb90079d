/** `lisa session handoff`: its flags, help and loader (the implementation is `handoff.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session handoff`. */
export const handoffFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  agent: F.agent,
  mode: F.mode,
  events: F.events,
  deltaFrom: F.deltaFrom,
  cursorFile: F.cursorFile,
  json: F.json,
  jsonMin: F.jsonMin,
  host: F.host,
};

/** `lisa session handoff`. */
export const handoffVerb = {
  route: "session handoff",
  brief: "a compact transfer payload: state, reason, nextAction, nextOffset, recent output " +
    "and events (incremental with --cursor-file)",
  flags: handoffFlags,
  load: () => lazyImport(new URL("./handoff.ts", import.meta.url)),
} satisfies VerbSpec;
