/** `lisa version`: version, commit when known, Deno version. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../context.ts";
import { printJson } from "../output.ts";
import { versionInfo } from "../../base/version.ts";

/** Registers `lisa version`. */
export function registerVersion(program: Command, ctx: CliContext): void {
  program
    .command("version")
    .description("print lisa's version, commit and Deno version")
    .option("--json", "print JSON")
    .action((opts) => {
      const info = versionInfo(ctx.deps);
      if (opts.json) printJson(ctx.deps.io, { ok: true, ...info });
      else {
        ctx.deps.io.out(
          `lisa ${info.version}${info.commit ? ` (${info.commit})` : ""} deno ${info.deno}\n`,
        );
      }
    });
}
