/** `lisa session tree` (not yet built). */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { LisaError } from "../../../core/errors.ts";

/** Registers `lisa session tree`. */
export function registerTree(session: Command, _ctx: CliContext): void {
  session
    .command("tree")
    .description("(not built yet)")
    .allowUnknownOption()
    .action(() => {
      throw new LisaError("not_implemented", "lisa session tree is not built yet");
    });
}
