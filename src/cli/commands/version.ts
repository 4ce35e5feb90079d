/** `lisa version`: version, commit when known, Deno version. */
import type { LisaContext } from "../context.ts";
import { printJson } from "../output.ts";
import type { FlagsOf, versionFlags } from "../verbs.ts";
import { versionInfo } from "../../base/version.ts";

/** Prints lisa's version. */
export default function version(this: LisaContext, flags: FlagsOf<typeof versionFlags>): void {
  const info = versionInfo(this.deps);
  if (flags.json) printJson(this.deps.io, { ok: true, ...info });
  else {
    this.deps.io.out(
      `lisa ${info.version}${info.commit ? ` (${info.commit})` : ""} deno ${info.deno}\n`,
    );
  }
}
