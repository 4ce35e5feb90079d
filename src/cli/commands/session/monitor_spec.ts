/** `lisa session monitor`: its flags, help and loader (the implementation is `monitor.ts`). */
import * as F from "../../flags.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { VerbSpec } from "../../verb_spec.ts";

/** The flags of `lisa session monitor`. */
export const monitorFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  pollInterval: F.pollInterval,
  maxPolls: F.maxPolls,
  timeoutSeconds: F.timeoutSeconds,
  untilMarker: F.untilMarker,
  untilState: F.untilState,
  stopOnWaiting: F.stopOnWaiting,
  expect: F.expect,
  json: F.json,
  jsonMin: F.jsonMin,
  streamJson: F.streamJson,
  agent: F.agent,
  mode: F.mode,
  untilJsonpath: F.untilJsonpath,
  adaptivePoll: F.adaptivePoll,
  waitingRequiresTurnComplete: F.waitingRequiresTurnComplete,
  verbose: F.verbose,
  emitHandoff: F.emitHandoff,
  handoffCursorFile: F.handoffCursorFile,
  host: F.host,
};

/** `lisa session monitor`. */
export const monitorVerb = {
  route: "session monitor",
  brief: "poll a session until it completes, fails, waits for input, or a gate opens " +
    "(exit 0 success, 2 non-success, 1 error)",
  flags: monitorFlags,
  load: () => lazyImport(new URL("./monitor.ts", import.meta.url)),
} satisfies VerbSpec;
