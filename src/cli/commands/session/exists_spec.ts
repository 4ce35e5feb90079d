/** `lisa session exists`: its flags, help and loader (the implementation is `exists.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session exists`. */
export const existsFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  json: F.json,
  host: F.host,
};

/** `lisa session exists`. */
export const existsVerb = {
  route: "session exists",
  brief: "exit 0 when the session exists, 1 when it does not",
  flags: existsFlags,
  load: () => lazyImport(new URL("./exists.ts", import.meta.url)),
} satisfies VerbSpec;
