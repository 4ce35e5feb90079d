/**
 * `lisa session status` pre-parsed (`preparsed.ts`): status is polled constantly. Its
 * implementation is imported statically: this module is the one graph the call loads.
 */
import status from "./commands/session/status.ts";
import { runPreparsed } from "./preparsed.ts";
import { statusFlags } from "./commands/session/status_spec.ts";

/** Runs status when argv (after `session status`) is fully understood; otherwise null. */
export function fastStatus(argv: string[], env: Record<string, string>): Promise<number | null> {
  return runPreparsed(["session", "status"], statusFlags, status, argv, env);
}
