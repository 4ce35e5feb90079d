/** `lisa session capture` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session capture`. */
export function registerCapture(session: Command, _ctx: CliContext): void {
  session
    .command("capture")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session capture is not built yet");
    });
}
