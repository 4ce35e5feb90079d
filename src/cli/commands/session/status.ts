/** `lisa session status`: one session's state, the reason, and the signals behind it. */
import type { LisaContext } from "../../context.ts";
import { lazyImport } from "../../../base/lazy.ts";
import { printStatus, statusExitCode } from "../../status_render.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { statusFlags } from "./status_spec.ts";
import { sessionStatus } from "../../../core/status/mod.ts";

/** Prints the session's status; exit 0 for any state (1 for not_found with --fail-not-found). */
export default async function status(
  this: LisaContext,
  flags: FlagsOf<typeof statusFlags>,
): Promise<void> {
  const { report } = await sessionStatus(this.deps, {
    session: flags.session ?? await pickOnly(this, flags.projectRoot),
    projectRoot: flags.projectRoot,
  });
  printStatus(this.deps.io, report, { json: flags.json, jsonMin: flags.jsonMin });
  this.exitCode = statusExitCode(report, flags.failNotFound ?? false);
}

/** The one running session when --session is left out (never asks: status is for scripts). */
async function pickOnly(ctx: LisaContext, projectRoot: string | undefined): Promise<string> {
  const { pickSession } = await lazyImport<typeof import("./status_pick.ts")>(
    new URL("./status_pick.ts", import.meta.url),
  );
  return await pickSession(ctx.deps, undefined, projectRoot);
}
