/** `lisa session context-pack`: its flags, help and loader (the implementation is `context_pack.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session context-pack`. */
export const contextPackFlags = {
  for: F.forSession,
  session: F.session,
  projectRoot: F.projectRoot,
  agent: F.agent,
  mode: F.mode,
  events: F.events,
  lines: F.lines,
  tokenBudget: F.tokenBudget,
  strategy: F.strategy,
  json: F.json,
  jsonMin: F.jsonMin,
  host: F.host,
};

/** `lisa session context-pack`. */
export const contextPackVerb = {
  route: "session context-pack",
  brief: "a handoff that fits a --token-budget: state, recent events and the output's tail",
  flags: contextPackFlags,
  load: () => lazyImport(new URL("./context_pack.ts", import.meta.url)),
} satisfies VerbSpec;
