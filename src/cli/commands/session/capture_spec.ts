/** `lisa session capture`: its flags, help and loader (the implementation is `capture.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session capture`. */
export const captureFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  lines: F.lines,
  raw: F.raw,
  keepNoise: F.keepNoise,
  stripNoise: F.stripNoise,
  deltaFrom: F.deltaFrom,
  cursorFile: F.cursorFile,
  markers: F.markers,
  json: F.json,
  jsonMin: F.jsonMin,
  markersJson: F.markersJson,
  stripBanner: F.stripBanner,
  verbatim: F.verbatim,
  host: F.host,
};

/** `lisa session capture`. */
export const captureVerb = {
  route: "session capture",
  brief: "print a session's pane text, or only what appeared since an earlier capture",
  flags: captureFlags,
  load: () => lazyImport(new URL("./capture.ts", import.meta.url)),
} satisfies VerbSpec;
