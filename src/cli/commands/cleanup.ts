/** `lisa cleanup` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../context.ts";
import { LisaError } from "../../core/errors.ts";

/** Registers `lisa cleanup`. */
export function registerCleanup(program: Command, _ctx: CliContext): void {
  program
    .command("cleanup")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa cleanup is not built yet");
    });
}
