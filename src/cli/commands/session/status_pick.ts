/**
 * `pickSession` for `session status` without `--session`, loaded only then (a poll names its
 * session). A lazily imported module is bundled whole, so this one re-exports only that function,
 * not the inventory's whole face.
 */
export { pickSession } from "../../../core/inventory/mod.ts";
