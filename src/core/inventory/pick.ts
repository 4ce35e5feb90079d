/**
 * Leaving `--session` out where that is safe (seed 004's `resolve(None)`): with exactly one
 * running session on the project's server, that one; with several, a person at a terminal is
 * asked (attach only: the caller passes `ask`), anyone else gets `session_ambiguous` listing
 * them; with none, `session_not_found`. Never prompts under `--json` or without a terminal:
 * callers pass no `ask` then.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { resolveProject } from "../session/mod.ts";
import { gatherSessions, type ListedSession } from "./list.ts";

/** Asks a person to choose one of `running`; null when they gave no valid answer. */
export type AskSession = (running: ListedSession[]) => Promise<ListedSession | null>;

/**
 * `value` when given (resolved later by `locateSession`), else the one running session of the
 * project's server (see the module doc). One `list-sessions` call.
 */
export async function pickSession(
  deps: Deps,
  value: string | undefined,
  projectRoot: string | undefined,
  ask?: AskSession,
): Promise<string> {
  if (value !== undefined) return value;
  const project = resolveProject(deps, projectRoot);
  const running = (await gatherSessions(deps, project, {})).filter((s) => s.alive);
  if (running.length === 0) {
    throw new LisaError(
      "session_not_found",
      `No running lisa session on this project's server (${project.root}); pass --session`,
      { details: { projectRoot: project.root } },
    );
  }
  if (running.length === 1) return running[0].session;
  if (ask !== undefined) {
    const chosen = await ask(running);
    if (chosen !== null) return chosen.session;
  }
  const candidates = running.map((s) => ({ session: s.session, alias: s.alias }));
  throw new LisaError(
    "session_ambiguous",
    `${running.length} sessions are running; pass --session with one of: ` +
      candidates.map((c) => c.alias ?? c.session).join(", "),
    { details: { candidates } },
  );
}
