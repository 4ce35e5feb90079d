/**
 * `lisa session attach`: a person's terminal onto a live session, on the session's own tmux
 * server (`tmux -S <socket> attach-session -t =NAME:`; `-r` with read-only).
 *
 * From a plain terminal the tmux client takes over the terminal until the person detaches
 * (`C-b d`). From inside another tmux (`$TMUX` set) a nested client would share the outer
 * prefix key and fight over the terminal, and tmux itself refuses to nest; lisa instead opens a
 * NEW WINDOW in the caller's tmux (named after the alias) that runs the attach with `TMUX`
 * unset, switches to it and returns at once; closing or detaching that window leaves the
 * session running. Only live sessions (tmux has them and their command still runs) attach.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError, SessionNotFoundError } from "../../base/errors.ts";
import { locateSession } from "../session/locate.ts";
import { sessionPanePids } from "../../tmux/sessions.ts";
import { sessionTarget, Tmux } from "../../tmux/tmux.ts";
import { parseDoneFile } from "../status/gather.ts";
import { readTextIfExists } from "../../store/atomic.ts";

/** Options of {@link attachSession}. */
export interface AttachOptions {
  session: string;
  projectRoot?: string;
  readOnly?: boolean;
}

/** What attach did. */
export interface AttachResult {
  ok: true;
  session: string;
  alias: string | null;
  socketPath: string;
  /** `terminal`: this terminal was attached (and is back now); `window`: a new outer window. */
  via: "terminal" | "window";
  readOnly: boolean;
  /** The tmux client command (argv). */
  argv: string[];
}

/** The argv of the tmux client that attaches to `session` on `socketPath`. */
export function attachArgv(socketPath: string, session: string, readOnly: boolean): string[] {
  return [
    "tmux",
    "-S",
    socketPath,
    "attach-session",
    ...(readOnly ? ["-r"] : []),
    "-t",
    sessionTarget(session),
  ];
}

/** The socket of the tmux the caller runs inside (`$TMUX` is `socket,pid,session`), or null. */
export function outerTmuxSocket(env: Readonly<Record<string, string | undefined>>): string | null {
  const v = env.TMUX;
  if (v === undefined || v === "") return null;
  const socket = v.split(",")[0];
  return socket === "" ? null : socket;
}

/**
 * Attaches (see the module doc). Throws `session_not_found`, `session_not_running` (its command
 * finished), `not_a_terminal` (outside tmux without a terminal), and the errors of
 * `locateSession`.
 */
export async function attachSession(
  deps: Deps,
  options: AttachOptions,
  terminal: boolean,
): Promise<AttachResult> {
  const loc = await locateSession(deps, options.session, options.projectRoot);
  const tmux = new Tmux(deps.runner, loc.socketPath, deps.config.cmdTimeoutSeconds * 1000);
  const panes = await sessionPanePids(tmux, loc.session);
  if (panes === null) throw new SessionNotFoundError(loc.session);
  let done = null;
  try {
    done = parseDoneFile(readTextIfExists(loc.paths.done));
  } catch { /* unreadable: tmux decides */ }
  const finished = (done !== null && (loc.meta === undefined || done.runId === loc.meta.runId)) ||
    panes.panePids.length === 0;
  if (finished) {
    throw new LisaError(
      "session_not_running",
      `Session "${loc.session}" has finished; see its output with: lisa session capture ` +
        `--session ${loc.session}`,
      { details: { session: loc.session } },
    );
  }
  const readOnly = options.readOnly === true;
  const argv = attachArgv(loc.socketPath, loc.session, readOnly);
  const base = {
    ok: true as const,
    session: loc.session,
    alias: loc.meta?.alias ?? null,
    socketPath: loc.socketPath,
    readOnly,
    argv,
  };
  const outer = outerTmuxSocket(deps.env);
  if (outer !== null) {
    const name = loc.meta?.alias ?? loc.session;
    // More than one word after new-window: tmux runs them directly, no shell reads them.
    const r = await new Tmux(deps.runner, outer, deps.config.cmdTimeoutSeconds * 1000).run([
      ["new-window", "-n", name, "--", "env", "-u", "TMUX", "-u", "TMUX_PANE", ...argv],
    ]);
    if (!r.success) {
      throw new LisaError(
        "tmux_failed",
        `Could not open a window in the current tmux: ${r.stderr.trim() || `exit ${r.code}`}`,
      );
    }
    return { ...base, via: "window" };
  }
  if (!terminal) {
    throw new LisaError(
      "not_a_terminal",
      `attach needs a terminal; run it from a terminal, or read the screen with: lisa session ` +
        `capture --session ${loc.session}`,
      { details: { session: loc.session } },
    );
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(deps.env)) if (v !== undefined) env[k] = v;
  delete env.TMUX;
  delete env.TMUX_PANE;
  await deps.runner.run(argv, { interactive: true, allowFailure: true, env, clearEnv: true });
  return { ...base, via: "terminal" };
}
