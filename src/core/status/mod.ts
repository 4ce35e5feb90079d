/**
 * The status domain's face: one session's state as `lisa session status` answers it
 * (`sessionStatus`), the same for many sessions with one tmux call per server (`fleetStatuses`,
 * for list, tree and watch), the classifier's vocabulary, and the next step each state suggests.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts).
 */
export { type CoarseStatus, coarseStatus, type WaitingFor } from "./classify.ts";
export { fleetStatuses, paneOf, type SocketReading } from "./fleet.ts";
export { nextAction } from "./next_action.ts";
export { STATUS_CAPTURE_LINES, statusTmuxCommands } from "./gather.ts";
export { sessionStatus, type StatusOutcome, type StatusReport } from "./status.ts";
