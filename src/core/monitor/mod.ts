/**
 * The monitor domain's face: the verbs that follow one session on top of status and capture:
 * `monitor` (poll until a gate opens), `snapshot`, `explain`, `handoff` and `context-pack`.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts).
 */
export { explainSession } from "./explain.ts";
export { handoffSession, packContext } from "./handoff.ts";
export { monitorExitCode, type MonitorPoll, monitorSession } from "./monitor.ts";
export { type SnapshotResult, snapshotSession } from "./snapshot.ts";
