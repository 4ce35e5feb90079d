/** `lisa session turns`: its flags, help and loader (the implementation is `turns.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session turns`. */
export const turnsFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  json: F.json,
  host: F.host,
};

/** `lisa session turns`. */
export const turnsVerb = {
  route: "session turns",
  brief: "list a session's turns (prompt, outcome, reply, tools) from history",
  flags: turnsFlags,
  load: () => lazyImport(new URL("./turns.ts", import.meta.url)),
} satisfies VerbSpec;
