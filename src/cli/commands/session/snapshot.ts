/** `lisa session snapshot` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session snapshot`. */
export function registerSnapshot(session: Command, _ctx: CliContext): void {
  session
    .command("snapshot")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session snapshot is not built yet");
    });
}
