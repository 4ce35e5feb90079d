/** `lisa session guard`: its flags, help and loader (the implementation is `guard.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session guard`. */
export const guardFlags = {
  sharedTmux: F.sharedTmux,
  command: F.command,
  json: F.json,
  enforce: F.enforce,
  adviceOnly: F.adviceOnly,
  projectRoot: F.projectRoot,
  host: F.host,
};

/** `lisa session guard`. */
export const guardVerb = {
  route: "session guard",
  brief: "check whether a planned cleanup/kill command is risky for the default tmux " +
    "server (read-only; exit 1 when risky)",
  flags: guardFlags,
  load: () => lazyImport(new URL("./guard.ts", import.meta.url)),
} satisfies VerbSpec;
