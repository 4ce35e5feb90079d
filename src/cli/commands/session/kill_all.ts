/** `lisa session kill-all` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session kill-all`. */
export function registerKillAll(session: Command, _ctx: CliContext): void {
  session
    .command("kill-all")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session kill-all is not built yet");
    });
}
