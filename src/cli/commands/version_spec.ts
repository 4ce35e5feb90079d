/** `lisa version`: its flags, help and loader (the implementation is `version.ts`). */
import * as F from "../flags.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { VerbSpec } from "../verb_spec.ts";

/** The flags of `lisa version`. */
export const versionFlags = { json: F.json, verbose: F.verbose };

/** `lisa version`. */
export const versionVerb = {
  route: "version",
  brief: "print lisa's version, commit and Deno version",
  flags: versionFlags,
  aliases: { v: "verbose" },
  load: () => lazyImport(new URL("./version.ts", import.meta.url)),
} satisfies VerbSpec;
