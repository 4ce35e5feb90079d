/** `lisa session exists` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session exists`. */
export function registerExists(session: Command, _ctx: CliContext): void {
  session
    .command("exists")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session exists is not built yet");
    });
}
