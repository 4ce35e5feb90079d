/** `lisa session detect-nested`: its flags, help and loader (the implementation is `detect_nested.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session detect-nested`. */
export const detectNestedFlags = {
  prompt: F.prompt,
  agent: F.agent,
  mode: F.mode,
  nestedPolicy: F.nestedPolicy,
  nestingIntent: F.nestingIntent,
  json: F.json,
  agentArgs: F.agentArgs,
  model: F.model,
  projectRoot: F.projectRoot,
  rewrite: F.rewrite,
  why: F.why,
  host: F.host,
};

/** `lisa session detect-nested`. */
export const detectNestedVerb = {
  route: "session detect-nested",
  brief: "show whether a prompt would make spawn add the codex sandbox bypass",
  flags: detectNestedFlags,
  load: () => lazyImport(new URL("./detect_nested.ts", import.meta.url)),
} satisfies VerbSpec;
