/**
 * The pane-text cleaning status needs once, to write a session's output file at its first
 * terminal state: loaded only then, never on an ordinary poll. A lazily imported module is
 * bundled whole, so this one re-exports only `cleanCapture`, not the capture verb.
 */
export { cleanCapture } from "../capture/mod.ts";
