/** `lisa hosts check`: its flags, help and loader (the implementation is `check.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa hosts check`. */
export const hostsCheckFlags = { json: F.json };

/** `lisa hosts check`. */
export const hostsCheckVerb = {
  route: "hosts check",
  brief: "reach every host of the hosts file (in parallel): reachable or not, its lisa's " +
    "version and JSON contract, round-trip time (exit 1 when one is not ok)",
  flags: hostsCheckFlags,
  load: () => lazyImport(new URL("./check.ts", import.meta.url)),
} satisfies VerbSpec;
