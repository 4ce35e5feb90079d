/** `lisa version`: version, commit when known, Deno version (`-v`: V8, TypeScript, platform). */
import type { LisaContext } from "../context.ts";
import { printJson } from "../output.ts";
import type { FlagsOf } from "../verb_spec.ts";
import type { versionFlags } from "./version_spec.ts";
import { versionInfo } from "../../base/version.ts";

/** Prints lisa's version. */
export default function version(this: LisaContext, flags: FlagsOf<typeof versionFlags>): void {
  const info = versionInfo(this.deps);
  const more = flags.verbose
    ? { v8: Deno.version.v8, typescript: Deno.version.typescript, platform: Deno.build.target }
    : {};
  if (flags.json) printJson(this.deps.io, { ok: true, ...info, ...more });
  else {
    this.deps.io.out(
      `lisa ${info.version}${info.commit ? ` (${info.commit})` : ""} deno ${info.deno}\n`,
    );
    for (const [k, v] of Object.entries(more)) this.deps.io.out(`${k} ${v}\n`);
  }
}
