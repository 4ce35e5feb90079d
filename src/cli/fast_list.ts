/**
 * `lisa session list` pre-parsed (`preparsed.ts`): orchestrators poll the fleet as they poll a
 * status. The live-state modules (status's face) are imported statically here, so the whole graph
 * loads at once (the verb's own lazy import of them then finds them loaded).
 */
import list from "./commands/session/list.ts";
import { runPreparsed } from "./preparsed.ts";
import { listFlags } from "./commands/session/list_spec.ts";
import "../core/status/mod.ts";

/** Runs list when argv (after `session list`) is fully understood; otherwise null. */
export function fastList(argv: string[], env: Record<string, string>): Promise<number | null> {
  return runPreparsed(["session", "list"], listFlags, list, argv, env);
}
