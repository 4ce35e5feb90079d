/** `lisa session send`: its flags, help and loader (the implementation is `send.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session send`. */
export const sendFlags = {
  session: F.session,
  text: F.textFlag,
  textFile: F.textFile,
  keys: F.keys,
  enter: F.enter,
  projectRoot: F.projectRoot,
  json: F.json,
  jsonMin: F.jsonMin,
  wait: F.wait,
  timeoutSeconds: F.timeoutSeconds,
  force: F.force,
  readyTimeout: F.readyTimeout,
  confirmTimeout: F.confirmTimeout,
  retryEnter: F.retryEnter,
  host: F.host,
};

/** `lisa session send`. */
export const sendVerb = {
  route: "session send",
  brief: "send text (bracketed paste) and/or keys to a session",
  flags: sendFlags,
  load: () => lazyImport(new URL("./send.ts", import.meta.url)),
} satisfies VerbSpec;
