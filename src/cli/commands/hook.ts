/**
 * `lisa hook <agent>` (hidden): called by agent hooks. main.ts normally routes it to the lean
 * handler before commander loads; this registration keeps the full CLI (and in-process tests)
 * answering the same way. Everything after `hook` goes to the handler untouched.
 */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../context.ts";
import { runHook } from "../../core/hook/run_hook.ts";

/** Registers the hidden `lisa hook`. */
export function registerHook(program: Command, ctx: CliContext): void {
  program
    .command("hook", { hidden: true })
    .description("record an agent hook call in LISA_HOOK_FILE (called by agent hooks)")
    .argument("[args...]", "agent name, then what the agent passes")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_args, _opts, command) => {
      // Raw words, so `--chain <json>` and the payload reach the handler as the agent sent them.
      ctx.exitCode = await runHook(command.args, ctx.deps.env);
    });
}
