/** `lisa skill show`: its flags, help and loader (the implementation is `show.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa skill show`. */
export const skillShowFlags = { json: F.json };

/** `lisa skill show`. */
export const skillShowVerb = {
  route: "skill show",
  brief: "print the SKILL.md that skill install writes (--json: its name, description, size)",
  flags: skillShowFlags,
  load: () => lazyImport(new URL("./show.ts", import.meta.url)),
} satisfies VerbSpec;
