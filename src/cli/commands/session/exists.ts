/** `lisa session exists`: exit 0 when the session exists, 1 when not. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { existsFlags } from "./exists_spec.ts";
import { sessionExists } from "../../../core/inventory/mod.ts";

/** Prints whether the session exists; exit 0 when it does, 1 when not. */
export default async function exists(
  this: LisaContext,
  flags: FlagsOf<typeof existsFlags>,
): Promise<void> {
  const result = await sessionExists(
    this.deps,
    needed(flags.session, "--session"),
    flags.projectRoot,
  );
  if (flags.json) printJson(this.deps.io, { ...result });
  else this.deps.io.out(`${result.exists}\n`);
  this.exitCode = result.exists ? 0 : 1;
}
