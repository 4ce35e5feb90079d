/** `lisa hosts list`: its flags, help and loader (the implementation is `list.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa hosts list`. */
export const hostsListFlags = { json: F.json };

/** `lisa hosts list`. */
export const hostsListVerb = {
  route: "hosts list",
  brief: "the hosts of the hosts file (name, ssh destination, lisa command line); connects " +
    "to none",
  fullDescription: "The file: LISA_HOSTS_FILE, else ${XDG_CONFIG_HOME:-~/.config}/lisa/" +
    'hosts.json, {"hosts": [{"name": "box1", "ssh": "box1", "lisa": "lisa"}]}. A file with ' +
    "any problem is refused as a whole (hosts_file_invalid). See docs/many-machines.md.",
  flags: hostsListFlags,
  load: () => lazyImport(new URL("./list.ts", import.meta.url)),
} satisfies VerbSpec;
