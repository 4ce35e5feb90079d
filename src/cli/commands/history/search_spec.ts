/** `lisa history search`: its flags, help and loader (the implementation is `search.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa history search`. */
export const historySearchFlags = { json: F.json };

/** `lisa history search`. */
export const historySearchVerb = {
  route: "history search",
  brief: "full-text search of prompts and replies (every word must match)",
  flags: historySearchFlags,
  positional: {
    kind: "tuple",
    parameters: [{ brief: "words (quote several)", placeholder: "words", parse: F.parseText }],
  },
  load: () => lazyImport(new URL("./search.ts", import.meta.url)),
} satisfies VerbSpec;
