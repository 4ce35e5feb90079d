/** `lisa session smoke` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session smoke`. */
export function registerSmoke(session: Command, _ctx: CliContext): void {
  session
    .command("smoke")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session smoke is not built yet");
    });
}
