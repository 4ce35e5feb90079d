/** `lisa session status` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session status`. */
export function registerStatus(session: Command, _ctx: CliContext): void {
  session
    .command("status")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session status is not built yet");
    });
}
