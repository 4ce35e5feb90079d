/**
 * `lisa session status` without stricli: its argv is pre-parsed against the flags the command
 * table declares for it (`preparse.ts`), and its implementation (`commands/session/status.ts`)
 * runs as the table would run it, with the same error reporting (`failure.ts`). Anything the pre-parser does not understand (help, a typo)
 * returns null, and `main.ts` hands the call to the full command line. The only lean path:
 * status is polled constantly, and stricli's start-up would put it over its budget (DESIGN §7).
 */
import type { LisaContext } from "./context.ts";
import status from "./commands/session/status.ts";
import { helpCommandOf, reportFailure, wantsJson } from "./failure.ts";
import { preparse } from "./preparse.ts";
import { realDeps } from "./real_deps.ts";
import { statusFlags } from "./verbs.ts";

/**
 * Runs status when argv (after `session status`) is fully understood; otherwise null. The
 * implementation is imported statically: this module is the one graph the call loads.
 */
export async function fastStatus(
  argv: string[],
  env: Record<string, string>,
): Promise<number | null> {
  const flags = preparse(argv, statusFlags);
  if (flags === null) return null;
  const deps = realDeps(env);
  const json = wantsJson(argv);
  const context: LisaContext = {
    process: { stdout: { write: (s) => deps.io.out(s) }, stderr: { write: (s) => deps.io.err(s) } },
    deps,
    json,
    exitCode: 0,
  };
  try {
    await status.call(context, flags as Parameters<typeof status>[0]);
  } catch (error) {
    context.exitCode = reportFailure(deps, json, error, helpCommandOf(["session", "status"]));
  }
  return context.exitCode;
}
