/**
 * The suggested next step for an orchestrator, from a session's state (handoff, context-pack,
 * `monitor --emit-handoff`, `list --with-next-action`). Pure.
 */
import type { SessionStateName } from "../../base/types.ts";

/** What an orchestrator should do next with a session in `state`. */
export function nextAction(state: SessionStateName, waitingFor?: string | null): string {
  switch (state) {
    case "just_started":
    case "in_progress":
      return "wait";
    case "waiting_input":
      return waitingFor === "permission" ? "answer_permission" : "send_input";
    case "completed":
      return "capture_and_kill";
    case "crashed":
      return "inspect_and_kill";
    case "stuck":
      return "inspect_or_kill";
    case "degraded":
      return "retry";
    case "not_found":
      return "spawn_or_stop";
  }
}
