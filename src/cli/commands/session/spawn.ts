/** `lisa session spawn` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session spawn`. */
export function registerSpawn(session: Command, _ctx: CliContext): void {
  session
    .command("spawn")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session spawn is not built yet");
    });
}
