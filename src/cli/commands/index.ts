/**
 * Registers every verb on the program. Verb files declare flags and call one core function.
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../context.ts";
import { registerVersion } from "./version.ts";
import { registerDoctor } from "./doctor.ts";
import { registerSession } from "./session/index.ts";
import { registerCleanup } from "./cleanup.ts";
import { registerHook } from "./hook.ts";

/** Adds all top-level commands to `program`. */
export function registerCommands(program: Command, ctx: CliContext): void {
  registerVersion(program, ctx);
  registerDoctor(program, ctx);
  registerSession(program, ctx);
  registerCleanup(program, ctx);
  registerHook(program, ctx);
}
