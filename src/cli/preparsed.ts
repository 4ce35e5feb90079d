/**
 * A verb run without stricli: its argv is pre-parsed against the flags the command table declares
 * for it (`preparse.ts`), and its implementation runs as the table would run it, with the same
 * error reporting (`failure.ts`). Anything the pre-parser does not fully understand (help, a typo,
 * a flag without its value) returns null, and `main.ts` hands the call to the full command line.
 * Only the verbs orchestrators poll take this path (`fast_status.ts`, `fast_list.ts`): stricli's
 * start-up would put them over their budget (DESIGN §7). Nothing is declared twice.
 */
import type { LisaContext } from "./context.ts";
import { helpCommandOf, reportFailure, wantsJson } from "./failure.ts";
import { preparse, type Spec } from "./preparse.ts";
import { realDeps } from "./real_deps.ts";
import type { FlagsOf } from "./verb_spec.ts";

/** Runs `impl` of `route` when `argv` (after the route's words) is understood; otherwise null. */
export async function runPreparsed<S extends Readonly<Record<string, Spec>>>(
  route: readonly string[],
  spec: S,
  impl: (this: LisaContext, flags: FlagsOf<S>) => void | Promise<void>,
  argv: string[],
  env: Record<string, string>,
): Promise<number | null> {
  const flags = preparse(argv, spec);
  if (flags === null) return null;
  // A call for another host (`--host`, `NAME:` before the session) goes through the command
  // line, which hands it to that host's lisa.
  if (flags.host !== undefined || String(flags.session ?? "").includes(":")) return null;
  const deps = realDeps(env);
  const json = wantsJson(argv);
  const context: LisaContext = {
    process: { stdout: { write: (s) => deps.io.out(s) }, stderr: { write: (s) => deps.io.err(s) } },
    deps,
    json,
    exitCode: 0,
  };
  try {
    await impl.call(context, flags as FlagsOf<S>);
  } catch (error) {
    context.exitCode = reportFailure(deps, json, error, helpCommandOf([...route]));
  }
  return context.exitCode;
}
