/** `lisa session snapshot`: its flags, help and loader (the implementation is `snapshot.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session snapshot`. */
export const snapshotFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  lines: F.lines,
  markers: F.markers,
  keepNoise: F.keepNoise,
  deltaFrom: F.deltaFrom,
  json: F.json,
  jsonMin: F.jsonMin,
  stripNoise: F.stripNoise,
  failNotFound: F.failNotFound,
  markersJson: F.markersJson,
  agent: F.agent,
  mode: F.mode,
  host: F.host,
};

/** `lisa session snapshot`. */
export const snapshotVerb = {
  route: "session snapshot",
  brief: "a session's status and its pane text (with nextOffset and markers) at once",
  flags: snapshotFlags,
  load: () => lazyImport(new URL("./snapshot.ts", import.meta.url)),
} satisfies VerbSpec;
