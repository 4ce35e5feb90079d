/** `lisa session kill` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session kill`. */
export function registerKill(session: Command, _ctx: CliContext): void {
  session
    .command("kill")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session kill is not built yet");
    });
}
