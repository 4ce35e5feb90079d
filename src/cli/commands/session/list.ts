/** `lisa session list` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session list`. */
export function registerList(session: Command, _ctx: CliContext): void {
  session
    .command("list")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session list is not built yet");
    });
}
