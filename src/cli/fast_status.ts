/**
 * Lean path for `lisa session status` (not yet built): parses its flags without commander.
 * Returns null for anything it does not understand, so the full CLI handles it instead.
 */
import type { Deps } from "../core/deps.ts";

/** Runs status when argv is fully understood; otherwise returns null. */
export function fastStatus(_argv: string[], _deps: Deps): Promise<number | null> {
  return Promise.resolve(null);
}
