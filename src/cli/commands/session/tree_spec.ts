/** `lisa session tree`: its flags, help and loader (the implementation is `tree.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session tree`. */
export const treeFlags = {
  projectRoot: F.projectRoot,
  allHashes: F.allHashes,
  activeOnly: F.activeOnly,
  withState: F.withState,
  flat: F.flat,
  delta: F.delta,
  json: F.json,
  session: F.session,
  jsonMin: F.jsonMin,
  deltaJson: F.deltaJson,
  cursorFile: F.cursorFile,
  host: F.host,
  allHosts: F.allHosts,
};

/** `lisa session tree`. */
export const treeVerb = {
  route: "session tree",
  brief: "show sessions as a tree of parent/child links (from metadata)",
  flags: treeFlags,
  load: () => lazyImport(new URL("./tree.ts", import.meta.url)),
} satisfies VerbSpec;
