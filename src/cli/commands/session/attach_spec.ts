/** `lisa session attach`: its flags, help and loader (the implementation is `attach.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session attach`. */
export const attachFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  readOnly: F.readOnly,
  json: F.json,
  host: F.host,
};

/** `lisa session attach`. */
export const attachVerb = {
  route: "session attach",
  brief: "attach this terminal to a live session (inside tmux: opens a new window)",
  fullDescription: "The session is a full name, an alias or an unambiguous prefix of an " +
    "alias, given as an argument or with --session; left out, the one running session of the " +
    "project (several: asked on a terminal). Detach with the tmux prefix then d.",
  flags: attachFlags,
  mcp: false,
  positional: {
    kind: "tuple",
    parameters: [{
      brief: "session name, alias or alias prefix",
      placeholder: "session",
      parse: F.parseText,
      optional: true,
      completes: "sessions",
    }],
  },
  load: () => lazyImport(new URL("./attach.ts", import.meta.url)),
} satisfies VerbSpec;
