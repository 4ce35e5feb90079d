/** `lisa completions`: its flags, help and loader (the implementation is `completions.ts`). */
import * as F from "../flags.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { VerbSpec } from "../verb_spec.ts";

/** The flags of `lisa completions`. */
export const completionsFlags = {};

/** `lisa completions`. */
export const completionsVerb = {
  route: "completions",
  brief: "print a shell completion script (bash, zsh or fish)",
  fullDescription: "Load it with: source <(lisa completions bash)  (zsh: source " +
    "<(lisa completions zsh); fish: lisa completions fish | source). Session names " +
    "complete from the live sessions (each once: its alias, or its name when that is what " +
    "was typed); history show's from history. The scripts ask lisa for them with " +
    "`lisa completions sessions|history [prefix]`.",
  flags: completionsFlags,
  mcp: false,
  positional: {
    kind: "tuple",
    parameters: [{
      brief: "the shell: bash, zsh or fish",
      placeholder: "bash|zsh|fish",
      parse: F.oneOf(["bash", "zsh", "fish", "sessions", "history"]),
    }, {
      brief: "with sessions or history: only the sessions whose alias or name starts with it",
      placeholder: "prefix",
      parse: F.parseText,
      optional: true,
    }],
  },
  load: () => lazyImport(new URL("./completions.ts", import.meta.url)),
} satisfies VerbSpec;
