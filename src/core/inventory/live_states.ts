/**
 * The live states of many sessions (status's `fleetStatuses`), loaded only by the views that show
 * states (`list`, `tree --with-state`): kill-all and completions list names only. A lazily
 * imported module is bundled whole, so this one re-exports only what those views call.
 */
export { fleetStatuses, paneOf } from "../status/mod.ts";
