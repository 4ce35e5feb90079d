/** `lisa session diff`: its flags, help and loader (the implementation is `diff.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session diff`. */
export const diffFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  stat: F.stat,
  json: F.json,
  host: F.host,
};

/** `lisa session diff`. */
export const diffVerb = {
  route: "session diff",
  brief: "what a --worktree session's agent changed since its base: its branch's commits " +
    "plus uncommitted and untracked files",
  flags: diffFlags,
  positional: F.sessionPositional,
  load: () => lazyImport(new URL("./diff.ts", import.meta.url)),
} satisfies VerbSpec;
