/**
 * Lean path for `lisa session list` (an overview people and orchestrators poll): parses its
 * flags without commander (~25 ms of start-up). It understands exactly the flags of the full
 * verb; for anything else it returns null and the full CLI handles the call.
 */
import type { Deps } from "../base/deps.ts";
import { LisaError } from "../base/errors.ts";
import { listSessionsOf } from "../core/inventory/list.ts";
import { parseLeanFlags } from "./lean_args.ts";
import { printList } from "./list_render.ts";
import { reportError } from "./output.ts";

/** Runs list when argv (after `session list`) is fully understood; otherwise returns null. */
export async function fastList(argv: string[], deps: Deps): Promise<number | null> {
  const f = parseLeanFlags(argv, {
    values: ["--project-root"],
    booleans: ["--json", "--project-only", "--all-sockets"],
  });
  if (f === null) return null;
  const json = f["--json"] === true;
  try {
    const result = await listSessionsOf(deps, {
      projectRoot: typeof f["--project-root"] === "string" ? f["--project-root"] : undefined,
      projectOnly: f["--project-only"] === true,
      allSockets: f["--all-sockets"] === true,
    });
    printList(deps.io, result, json, deps.now());
    return 0;
  } catch (error) {
    if (!(error instanceof LisaError)) return null; // the full CLI reports it as usual
    reportError(deps.io, json, error, "lisa session list --help");
    return error.exitCode;
  }
}
