/** `lisa session list`: the lisa sessions, as a table or JSON. */
import type { LisaContext } from "../../context.ts";
import { printList } from "../../list_render.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf, listFlags } from "../../verbs.ts";
import { listSessionsOf } from "../../../core/inventory/list.ts";
import { listCompat } from "./list_compat.ts";

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
  const compat = await listCompat(this.deps, result, flags);
  if (compat === null) printList(this.deps.io, result, flags.json ?? false, this.deps.now());
  else if (compat.json) printJson(this.deps.io, compat.json);
  else {
    printList(this.deps.io, result, false, this.deps.now());
    for (const line of compat.lines) this.deps.io.out(`${line}\n`);
  }
}
