/**
 * `lisa hook <agent>` (not yet built): called by agent hooks; must stay lean, silent on stdout,
 * and always exit 0.
 */
import type { Env } from "../core/config.ts";

/** Handles one hook call; always resolves to 0. */
export function runHook(_args: string[], _env: Env): Promise<number> {
  return Promise.resolve(0);
}
