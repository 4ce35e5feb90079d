/** `lisa session guard` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session guard`. */
export function registerGuard(session: Command, _ctx: CliContext): void {
  session
    .command("guard")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session guard is not built yet");
    });
}
