/** `lisa history show`: its flags, help and loader (the implementation is `show.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa history show`. */
export const historyShowFlags = { json: F.json };

/** `lisa history show`. */
export const historyShowVerb = {
  route: "history show",
  brief: "one session turn by turn: prompt, tools, reply, durations (and plans)",
  flags: historyShowFlags,
  positional: {
    kind: "tuple",
    parameters: [{
      brief: "session name, alias, or a run id from history list --json (an earlier run of a name)",
      placeholder: "session",
      parse: F.parseText,
      completes: "history",
    }],
  },
  load: () => lazyImport(new URL("./show.ts", import.meta.url)),
} satisfies VerbSpec;
