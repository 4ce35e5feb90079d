/** `lisa session list`: the lisa sessions, as a table or JSON. */
import type { LisaContext } from "../../context.ts";
import { printList } from "../../list_render.ts";
import type { FlagsOf, listFlags } from "../../verbs.ts";
import { listSessionsOf } from "../../../core/inventory/list.ts";

/** Prints the sessions. */
export default async function list(
  this: LisaContext,
  flags: FlagsOf<typeof listFlags>,
): Promise<void> {
  const result = await listSessionsOf(this.deps, {
    projectRoot: flags.projectRoot,
    projectOnly: flags.projectOnly ?? false,
    allSockets: flags.allSockets ?? false,
  });
  printList(this.deps.io, result, flags.json ?? false, this.deps.now());
}
