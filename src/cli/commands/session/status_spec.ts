/** `lisa session status`: its flags, help and loader (the implementation is `status.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session status`. */
export const statusFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  json: F.json,
  jsonMin: F.jsonMin,
  failNotFound: F.failNotFound,
  agent: F.agent,
  mode: F.mode,
  host: F.host,
};

/** `lisa session status`. */
export const statusVerb = {
  route: "session status",
  brief: "classify a session: state, reason, exit code, and the signals seen",
  flags: statusFlags,
  load: () => lazyImport(new URL("./status.ts", import.meta.url)),
} satisfies VerbSpec;
