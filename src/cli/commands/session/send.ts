/** `lisa session send` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session send`. */
export function registerSend(session: Command, _ctx: CliContext): void {
  session
    .command("send")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session send is not built yet");
    });
}
