/** `lisa session list`: the lisa sessions with their live states, as a table or JSON. */
import type { LisaContext } from "../../context.ts";
import { printList } from "../../list_render.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { listFlags } from "./list_spec.ts";
import { type ListResult, listSessionsOf } from "../../../core/inventory/mod.ts";
import { listCompat } from "./list_compat.ts";

/** Prints the sessions (with --watch: redraws them in place until Ctrl-C). */
export default async function list(
  this: LisaContext,
  flags: FlagsOf<typeof listFlags>,
): Promise<void> {
  const deps = this.deps;
  const options = {
    projectRoot: flags.projectRoot,
    projectOnly: flags.projectOnly ?? false,
    allSockets: flags.allSockets ?? false,
    live: true,
  };
  const view = () => ({
    wide: flags.wide ?? false,
    columns: deps.io.columns?.() ?? null,
    colour: !deps.io.noColor,
  });
  const render = async (result: ListResult) => {
    const compat = await listCompat(deps, result, flags);
    if (compat === null) printList(deps.io, result, flags.json ?? false, deps.now(), view());
    else if (compat.json) printJson(deps.io, compat.json);
    else {
      printList(deps.io, result, false, deps.now(), view());
      for (const line of compat.lines) deps.io.out(`${line}\n`);
    }
  };
  if (flags.watch === undefined) {
    await render(await listSessionsOf(deps, options));
    return;
  }
  // --watch: redraw until Ctrl-C, SIGTERM (a terminal multiplexer or a supervisor ending it) or
  // a closed stdout; on a terminal the screen is cleared and the cursor hidden while drawing,
  // and restored on the way out, whichever of them ended it.
  const tty = deps.io.isTty && !flags.json;
  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  try {
    if (tty) deps.io.out("\x1b[?25l");
    while (!stop && !deps.io.outClosed) {
      const result = await listSessionsOf(deps, options);
      if (tty) deps.io.out("\x1b[H\x1b[2J");
      await render(result);
      const until = Date.now() + flags.watch * 1000;
      while (!stop && Date.now() < until) await deps.sleep(Math.min(100, until - Date.now()));
    }
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    if (tty) deps.io.out("\x1b[?25h");
  }
}
