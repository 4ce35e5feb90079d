/** `lisa hosts list`: the hosts of the hosts file, as the file gives them (no connection). */
import type { LisaContext } from "../../context.ts";
import { printJson, renderTable } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { hostsListFlags } from "./list_spec.ts";
import { readHostsFile, usableHosts } from "../../../core/hosts/mod.ts";

/** Prints the hosts; exit 1 (`hosts_file_invalid`) when the file cannot be used. */
export default function hostsList(
  this: LisaContext,
  flags: FlagsOf<typeof hostsListFlags>,
): void {
  const deps = this.deps;
  const hosts = usableHosts(deps);
  const file = readHostsFile(deps);
  if (flags.json) {
    printJson(deps.io, { ok: true, hostsFile: file.path, exists: file.exists, hosts });
    return;
  }
  if (hosts.length === 0) {
    deps.io.out(
      file.path === null
        ? "no hosts file (set LISA_HOSTS_FILE, XDG_CONFIG_HOME or HOME)\n"
        : `no hosts in ${file.path}${file.exists ? "" : " (no such file)"}\n`,
    );
    return;
  }
  deps.io.out(renderTable(["NAME", "SSH", "LISA"], hosts.map((h) => [h.name, h.ssh, h.lisa])));
}
