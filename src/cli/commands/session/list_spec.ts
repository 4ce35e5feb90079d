/** `lisa session list`: its flags, help and loader (the implementation is `list.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session list`. */
export const listFlags = {
  projectOnly: F.projectOnly,
  allSockets: F.allSockets,
  projectRoot: F.projectRoot,
  json: F.json,
  wide: F.wide,
  watch: F.watchTable,
  jsonMin: F.jsonMin,
  stale: F.stale,
  prunePreview: F.prunePreview,
  deltaJson: F.deltaJson,
  cursorFile: F.cursorFile,
  withNextAction: F.withNextAction,
  host: F.host,
  allHosts: F.allHosts,
};

/** `lisa session list`. */
export const listVerb = {
  route: "session list",
  brief: "list lisa sessions",
  flags: listFlags,
  load: () => lazyImport(new URL("./list.ts", import.meta.url)),
} satisfies VerbSpec;
