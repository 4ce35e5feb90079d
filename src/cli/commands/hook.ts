/** `lisa hook` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../context.ts";
import { LisaError } from "../../core/errors.ts";

/** Registers `lisa hook`. */
export function registerHook(program: Command, _ctx: CliContext): void {
  program
    .command("hook")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa hook is not built yet");
    });
}
