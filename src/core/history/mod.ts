/**
 * The history domain's face: the SQLite store of every session lisa ran: reading it
 * (`history list|show|search`, `session turns`), and the recording every remover of a session's
 * files does first.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). The store
 * (with `node:sqlite`) loads on the first read or record (`modules.ts`), never with the face.
 */
import { lazyImport } from "../../base/lazy.ts";

export {
  historySubject,
  listSessions,
  listSessionsJson,
  projectFilter,
  readHistory,
  searchTurns,
  sessionsUsage,
  showSession,
} from "./query.ts";
export { recordBeforeRemoval, recordKey, sweepAfterSpawn } from "./recorder.ts";

type Store = typeof import("./store.ts");

/** Opens the history database (`store.ts`; the bench seeds history with it). */
export async function openHistory(...args: Parameters<Store["openHistory"]>) {
  const m = await lazyImport<Store>(new URL("./store.ts", import.meta.url));
  return await m.openHistory(...args);
}
