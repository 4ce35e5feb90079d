/** `lisa doctor`: tmux, agents, runtime dir and every LISA_* variable. */
import type { LisaContext } from "../context.ts";
import { printJson, renderTable } from "../output.ts";
import type { FlagsOf } from "../verb_spec.ts";
import type { doctorFlags } from "./doctor_spec.ts";
import { runDoctor } from "../../core/upkeep/mod.ts";

/** Prints the doctor's report; exit 1 when something lisa needs is missing or unsafe. */
export default async function doctor(
  this: LisaContext,
  flags: FlagsOf<typeof doctorFlags>,
): Promise<void> {
  const report = await runDoctor(this.deps);
  this.exitCode = report.ok ? 0 : 1;
  const io = this.deps.io;
  if (flags.json) {
    printJson(io, { ...report });
    return;
  }
  const tools = report.tools.map((t) => [
    t.name,
    t.found ? (t.version ?? `error: ${t.error}`) : "not found",
  ]);
  io.out(renderTable(["PROGRAM", "VERSION"], tools));
  io.out(
    `\nruntime dir ${report.runtimeDir.path}: ${
      report.runtimeDir.ok ? "ok" : report.runtimeDir.error
    }\n`,
  );
  const hosts = report.hosts;
  if (hosts.path !== null) {
    io.out(
      `hosts file ${hosts.path}: ${
        hosts.problems.length > 0
          ? "not usable (see below)"
          : !hosts.exists
          ? "none (no other hosts)"
          : hosts.names.length === 0
          ? "no hosts"
          : hosts.names.join(", ")
      }\n`,
    );
  }
  if (report.build !== null) {
    const b = report.build;
    io.out(
      `built from ${b.builtFrom ?? "an unknown commit"}; checkout ${b.checkout} at ` +
        `${b.checkoutCommit ?? "an unknown commit"}${b.stale ? " (stale build)" : ""}\n`,
    );
  }
  io.out("\n");
  const vars = report.variables.map((v) => [
    v.name,
    v.value === null ? "-" : Array.isArray(v.value) ? v.value.join(",") : String(v.value),
    v.source,
    v.valid ? "" : (v.message ?? "invalid"),
  ]);
  io.out(renderTable(["VARIABLE", "VALUE", "SOURCE", "NOTE"], vars));
  io.out(report.ok ? "\nok\n" : `\nnot ok: ${report.problems.join("; ")}\n`);
}
