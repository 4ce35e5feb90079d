/** `lisa session send`: paste text (bracketed), press keys, press Enter. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { sendToSession } from "../../../core/drive/send.ts";

/** Registers `lisa session send`. */
export function registerSend(session: Command, ctx: CliContext): void {
  session
    .command("send")
    .description("send text (bracketed paste) and/or keys to a session")
    .requiredOption("--session <name>", "session name")
    .option("--text <text>", "text to paste (multi-line allowed; '-' reads stdin)")
    .option("--text-file <path>", "paste the content of this file ('-' reads stdin)")
    .option("--keys <keys>", "tmux key names separated by spaces (e.g. 'Escape', 'C-c', 'y')")
    .option("--enter", "press Enter afterwards (after a short per-agent delay)")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const result = await sendToSession(ctx.deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
        text: opts.text,
        textFile: opts.textFile,
        keys: opts.keys,
        enter: opts.enter ?? false,
      });
      if (result.removedChars > 0) {
        ctx.deps.io.err(
          `lisa: warning: ${result.removedChars} control characters were removed from the text\n`,
        );
      }
      if (opts.json) printJson(ctx.deps.io, { ...result });
      else ctx.deps.io.out("ok\n");
    });
}
