/** `lisa session smoke`: its flags, help and loader (the implementation is `smoke.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session smoke`. */
export const smokeFlags = {
  levels: F.levels,
  projectRoot: F.projectRoot,
  keepSessions: F.keepSessions,
  timeoutSeconds: F.timeoutSeconds,
  json: F.json,
  reportMin: F.reportMin,
  promptStyle: F.promptStyle,
  matrixFile: F.matrixFile,
  model: F.model,
  pollInterval: F.pollInterval,
  maxPolls: F.maxPolls,
  host: F.host,
};

/** `lisa session smoke`. */
export const smokeVerb = {
  route: "session smoke",
  brief: "nested self-test: L1 spawns L2 … LN (lisa itself, no agent), each monitors its " +
    "child and passes the markers up",
  flags: smokeFlags,
  load: () => lazyImport(new URL("./smoke.ts", import.meta.url)),
} satisfies VerbSpec;
