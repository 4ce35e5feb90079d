/** `lisa doctor`: its flags, help and loader (the implementation is `doctor.ts`). */
import * as F from "../flags.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { VerbSpec } from "../verb_spec.ts";

/** The flags of `lisa doctor`. */
export const doctorFlags = { json: F.json };

/** `lisa doctor`. */
export const doctorVerb = {
  route: "doctor",
  brief: "check tmux, claude, codex, the runtime dir and LISA_* variables",
  flags: doctorFlags,
  load: () => lazyImport(new URL("./doctor.ts", import.meta.url)),
} satisfies VerbSpec;
