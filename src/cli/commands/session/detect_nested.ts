/** `lisa session detect-nested` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session detect-nested`. */
export function registerDetectNested(session: Command, _ctx: CliContext): void {
  session
    .command("detect-nested")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session detect-nested is not built yet");
    });
}
