/** `lisa session name`: its flags, help and loader (the implementation is `name.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session name`. */
export const nameFlags = {
  agent: F.agent,
  mode: F.mode,
  tag: F.tag,
  projectRoot: F.projectRoot,
  json: F.json,
  host: F.host,
};

/** `lisa session name`. */
export const nameVerb = {
  route: "session name",
  brief: "print the session name spawn would use",
  flags: nameFlags,
  load: () => lazyImport(new URL("./name.ts", import.meta.url)),
} satisfies VerbSpec;
