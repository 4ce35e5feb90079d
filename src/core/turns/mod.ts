/**
 * The turns domain's face: `send --wait` (a send, then the turn it started, to its end) and the
 * hook records read as turn facts, which history ingests too.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts).
 */
export {
  isElicitation,
  lineKey,
  parseTurnRecord,
  toolUseOf,
  triggerOf,
  turnEventKind,
  type TurnRecord,
} from "./records.ts";
export { sendAndWait } from "./wait.ts";
