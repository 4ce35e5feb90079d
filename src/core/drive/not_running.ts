/**
 * The refusal every writer into a session's pane gives once its command has ended
 * (`session_not_running`): tmux keeps such a pane open (`remain-on-exit`) so its output stays
 * readable, but it takes no more input, and pasting into it crashes tmux 3.3a with every
 * session of the server (DESIGN §4.7). The payload carries the session's final state as
 * `status` reports it, so a caller learns in the same answer how the session ended.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { SessionLocation } from "../session/mod.ts";
import { readTextIfExists } from "../../store/atomic.ts";
import { parseDoneFile } from "../../store/done_file.ts";

/**
 * True when the done file of the session at `loc` says its command has ended: it holds this
 * spawn's run id (any run id for a session without meta). The wrapper writes it before it exits,
 * and a subreaper wrapper stays on after it while adopted daemons run, so tmux may still show
 * the pane alive; the command takes no more input all the same. One file read. An unreadable
 * file says nothing (tmux's own `#{pane_dead}` check still guards every write).
 */
export function commandFinished(loc: SessionLocation): boolean {
  let done = null;
  try {
    done = parseDoneFile(readTextIfExists(loc.paths.done));
  } catch {
    return false;
  }
  return done !== null && (loc.meta === undefined || done.runId === loc.meta.runId);
}

/** The final state of a session whose pane is dead, as `status` says it. */
export interface FinalState {
  state: string;
  exitCode: number | null;
  classificationReason: string | null;
}

/** What `status` says of the finished session at `loc`; nulls when it cannot say. */
async function finalState(deps: Deps, loc: SessionLocation): Promise<FinalState> {
  try {
    const { sessionStatus } = await lazyImport<typeof import("./status_check.ts")>(
      new URL("./status_check.ts", import.meta.url),
    );
    const { report } = await sessionStatus(deps, {
      session: loc.session,
      projectRoot: loc.meta?.projectRoot ?? loc.projectRoot,
    });
    return {
      state: report.sessionState,
      exitCode: report.exitCode,
      classificationReason: report.classificationReason,
    };
  } catch {
    // The refusal stands without the details (the session may have gone meanwhile).
    return { state: "completed", exitCode: null, classificationReason: null };
  }
}

/**
 * The `session_not_running` error for the session at `loc`, whose pane is dead: what happened
 * ("lisa-x finished (exit 0); it takes no more input"), what to do (spawn a new session, or
 * read its output with capture), and its final state in the payload (`state`, `exitCode`,
 * `classificationReason`). `what` names the refused action in the message ("nothing was sent").
 */
export async function sessionNotRunning(
  deps: Deps,
  loc: SessionLocation,
  what: string,
): Promise<LisaError> {
  const final = await finalState(deps, loc);
  const exit = final.exitCode === null ? "exit status unknown" : `exit ${final.exitCode}`;
  return new LisaError(
    "session_not_running",
    `${loc.session} finished (${exit}); it takes no more input, ${what}. Start a new session ` +
      `(lisa session spawn), or read its output with: lisa session capture --session ${loc.session}`,
    { details: { session: loc.session, alias: loc.meta?.alias ?? null, ...final } },
  );
}
