/** `lisa doctor`: tmux, agents, runtime dir and every LISA_* variable. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../context.ts";
import { printJson, renderTable } from "../output.ts";
import { runDoctor } from "../../core/upkeep/doctor.ts";

/** Registers `lisa doctor`. */
export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command("doctor")
    .description("check tmux, claude, codex, the runtime dir and LISA_* variables")
    .option("--json", "print JSON")
    .action(async (opts) => {
      const report = await runDoctor(ctx.deps);
      ctx.exitCode = report.ok ? 0 : 1;
      if (opts.json) {
        printJson(ctx.deps.io, { ...report });
        return;
      }
      const io = ctx.deps.io;
      const tools = report.tools.map((t) => [
        t.name,
        t.found ? (t.version ?? `error: ${t.error}`) : "not found",
      ]);
      io.out(renderTable(["PROGRAM", "VERSION"], tools));
      io.out(
        `\nruntime dir ${report.runtimeDir.path}: ${
          report.runtimeDir.ok ? "ok" : report.runtimeDir.error
        }\n\n`,
      );
      const vars = report.variables.map((v) => [
        v.name,
        v.value === null ? "-" : Array.isArray(v.value) ? v.value.join(",") : String(v.value),
        v.source,
        v.valid ? "" : (v.message ?? "invalid"),
      ]);
      io.out(renderTable(["VARIABLE", "VALUE", "SOURCE", "NOTE"], vars));
      io.out(report.ok ? "\nok\n" : `\nnot ok: ${report.problems.join("; ")}\n`);
    });
}
