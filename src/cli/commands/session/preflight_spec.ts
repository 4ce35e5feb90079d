/** `lisa session preflight`: its flags, help and loader (the implementation is `preflight.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session preflight`. */
export const preflightFlags = {
  projectRoot: F.projectRoot,
  agent: F.agent,
  model: F.model,
  autoModel: F.autoModel,
  autoModelCandidates: F.autoModelCandidates,
  fast: F.fast,
  json: F.json,
  host: F.host,
};

/** `lisa session preflight`. */
export const preflightVerb = {
  route: "session preflight",
  brief: "an orchestrator's first step: environment checks plus a self-check of the " +
    "contracts it relies on (exit 0 ready, 1 not)",
  flags: preflightFlags,
  load: () => lazyImport(new URL("./preflight.ts", import.meta.url)),
} satisfies VerbSpec;
