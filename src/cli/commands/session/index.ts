/**
 * `lisa session …`: the session verbs.
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { registerName } from "./name.ts";

/** Adds the `session` group and its verbs. */
export function registerSession(program: Command, ctx: CliContext): void {
  const session = program.command("session").description("spawn, drive, watch and end sessions");
  registerName(session, ctx);
}
