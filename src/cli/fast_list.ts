/**
 * `lisa session list` without stricli, like `fast_status.ts`: orchestrators poll the fleet, so
 * its start-up counts (DESIGN §7: ≤ 1.8× the floor with 20 live sessions). argv is pre-parsed
 * against the flags the command table declares for list; anything the pre-parser does not fully
 * understand (help, `--watch` without a value, a typo) returns null and `main.ts` hands the call
 * to the full command line. The live-state modules are imported statically here, so the whole
 * graph loads at once (the verb's own lazy import of them then finds them loaded).
 */
import type { LisaContext } from "./context.ts";
import list from "./commands/session/list.ts";
import { helpCommandOf, reportFailure, wantsJson } from "./failure.ts";
import { preparse } from "./preparse.ts";
import { realDeps } from "./real_deps.ts";
import { listFlags } from "./verbs.ts";
import "../core/status/fleet.ts";

/** Runs list when argv (after `session list`) is fully understood; otherwise null. */
export async function fastList(
  argv: string[],
  env: Record<string, string>,
): Promise<number | null> {
  const flags = preparse(argv, listFlags);
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
    await list.call(context, flags as Parameters<typeof list>[0]);
  } catch (error) {
    context.exitCode = reportFailure(deps, json, error, helpCommandOf(["session", "list"]));
  }
  return context.exitCode;
}
