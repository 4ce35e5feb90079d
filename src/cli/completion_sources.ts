/**
 * Where `lisa completions sessions|history` finds names: the live sessions and the sessions of
 * history, loaded only by those calls. A lazily imported module is bundled whole, so this one
 * re-exports only the three functions completion calls, not the inventory's and history's faces.
 */
export { listSessionsOf } from "../core/inventory/mod.ts";
export { listSessions, readHistory } from "../core/history/mod.ts";
