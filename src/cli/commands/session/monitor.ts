/** `lisa session monitor` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session monitor`. */
export function registerMonitor(session: Command, _ctx: CliContext): void {
  session
    .command("monitor")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session monitor is not built yet");
    });
}
