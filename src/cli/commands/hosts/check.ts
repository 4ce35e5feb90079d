/** `lisa hosts check`: every host reached at once; exit 1 when one is unreachable or mismatched. */
import type { LisaContext } from "../../context.ts";
import { printJson, renderTable } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { hostsCheckFlags } from "./check_spec.ts";
import { checkHosts, readHostsFile, usableHosts } from "../../../core/hosts/mod.ts";

const ms = (n: number | null) => n === null ? "-" : `${n} ms`;

/** Prints each host's check (see `core/hosts/check.ts`). */
export default async function hostsCheck(
  this: LisaContext,
  flags: FlagsOf<typeof hostsCheckFlags>,
): Promise<void> {
  const deps = this.deps;
  const hosts = usableHosts(deps);
  const checks = await checkHosts(deps, hosts);
  const ok = checks.every((c) => c.ok);
  this.exitCode = ok ? 0 : 1;
  if (flags.json) {
    // A failed check says so as every ok:false document does: the first failing host's code.
    const failed = checks.filter((c) => !c.ok);
    const error = failed.length === 0 ? {} : {
      errorCode: failed[0].errorCode ?? "host_unreachable",
      error: `${failed.length} of ${checks.length} host(s) failed: ` +
        failed.map((c) => `${c.name} (${c.errorCode})`).join(", "),
    };
    printJson(deps.io, { ok, ...error, hostsFile: readHostsFile(deps).path, hosts: checks });
    return;
  }
  if (checks.length === 0) {
    deps.io.out(`no hosts in ${readHostsFile(deps).path ?? "the hosts file"}\n`);
    return;
  }
  deps.io.out(renderTable(
    ["NAME", "OK", "LISA", "CONTRACT", "FIRST CALL", "RTT", "PROBLEM"],
    checks.map((c) => [
      c.name,
      c.ok ? "ok" : c.reachable ? "no" : "unreachable",
      c.version === null ? "-" : `${c.version}${c.commit ? ` (${c.commit})` : ""}`,
      c.jsonContract === null ? "-" : String(c.jsonContract),
      ms(c.firstCallMs),
      ms(c.rttMs),
      c.error === undefined ? "" : `${c.errorCode}: ${c.error}`,
    ]),
  ));
}
