/** `lisa session explain` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session explain`. */
export function registerExplain(session: Command, _ctx: CliContext): void {
  session
    .command("explain")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session explain is not built yet");
    });
}
