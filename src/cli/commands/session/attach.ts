/** `lisa session attach [session]`: this terminal onto a live session (see core/drive/attach). */
import type { LisaContext } from "../../context.ts";
import { printJson, relativeAge } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { attachFlags } from "./attach_spec.ts";
import { attachSession } from "../../../core/drive/mod.ts";
import { type AskSession, pickSession } from "../../../core/inventory/mod.ts";

/** Attaches; prints what it did with --json, or a line when it opened a window. */
export default async function attach(
  this: LisaContext,
  flags: FlagsOf<typeof attachFlags>,
  id?: string,
): Promise<void> {
  const deps = this.deps;
  const json = flags.json ?? false;
  const terminal = deps.io.isTty && deps.io.stdinIsTty === true;
  // A person at a terminal may be asked; under --json or without a terminal, never.
  const ask: AskSession | undefined = !json && terminal && deps.io.readLine
    ? async (running) => {
      const now = deps.now();
      deps.io.err("Several sessions are running:\n");
      running.forEach((s, i) =>
        deps.io.err(
          `  ${i + 1}) ${s.alias ?? s.session}  ${s.agent ?? "-"}/${s.mode ?? "-"}  ` +
            `${relativeAge(new Date(s.createdAt), now)}\n`,
        )
      );
      deps.io.err(`Attach to which one? [1-${running.length}] `);
      const answer = (await deps.io.readLine!())?.trim() ?? "";
      const n = Number(answer);
      if (Number.isInteger(n) && n >= 1 && n <= running.length) return running[n - 1];
      return running.find((s) => s.alias === answer || s.session === answer) ?? null;
    }
    : undefined;
  const session = await pickSession(deps, id ?? flags.session, flags.projectRoot, ask);
  const result = await attachSession(deps, {
    session,
    projectRoot: flags.projectRoot,
    readOnly: flags.readOnly,
  }, terminal);
  if (json) printJson(deps.io, { ...result });
  else if (result.via === "window") {
    deps.io.err(
      `lisa: opened a tmux window attached to ${result.alias ?? result.session}` +
        `${result.readOnly ? " (read-only)" : ""}\n`,
    );
  }
}
