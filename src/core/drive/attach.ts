/**
 * `lisa session attach`: a person's terminal onto a live session, on the session's own tmux
 * server (`tmux -S <socket> attach-session -t =NAME:.%P`, the agent's own pane, which the
 * client then shows; `-r` with read-only).
 *
 * From a plain terminal the tmux client takes over the terminal until the person detaches
 * (`C-b d`). From inside another tmux (`$TMUX` set) a nested client would share the outer
 * prefix key and fight over the terminal, and tmux itself refuses to nest; lisa instead opens a
 * NEW WINDOW in the caller's tmux (named after the alias) that runs the attach with `TMUX`
 * unset, switches to it and returns at once; closing or detaching that window leaves the
 * session running.
 *
 * Except when that tmux is one of lisa's own servers (a shell inside a lisa session): a window
 * opened there would belong to that lisa session, become its active window, and take whatever
 * was meant for the session's agent (a person's keys, any tool that targets "the active pane").
 * So lisa never creates a window in a lisa server: the attach then runs in this terminal, as
 * from a plain one (the client is nested in the session's pane; its prefix key reaches the inner
 * tmux after the outer one's, `C-b C-b d` detaches it). Attaching the very session the caller
 * runs in is refused (`attach_self`): it would show itself inside itself.
 *
 * Only live sessions attach: the agent's pane must exist and its command still run (else
 * `session_not_running`, see `not_running.ts`). A read-write client is safe even if the pane
 * dies while attached: lisa's servers turn a dead pane's input off (`PANE_DIED_HOOK`), so a
 * paste from the client (`C-b ]`) cannot reach the dead pane, which would crash tmux 3.3a.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError, SessionNotFoundError } from "../../base/errors.ts";
import { locateSession } from "../session/mod.ts";
import { paneDead } from "../../tmux/sessions.ts";
import { paneTarget, Tmux, TMUX_UTF8 } from "../../tmux/tmux.ts";
import { SOCKET_RE } from "../../store/runtime_dir.ts";
import { commandFinished, sessionNotRunning } from "./not_running.ts";

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

/** The argv of the tmux client that attaches to the pane `target` on `socketPath`. */
export function attachArgv(socketPath: string, target: string, readOnly: boolean): string[] {
  const mode = readOnly ? ["-r"] : [];
  return ["tmux", TMUX_UTF8, "-S", socketPath, "attach-session", ...mode, "-t", target];
}

/** The socket of the tmux the caller runs inside (`$TMUX` is `socket,pid,session`), or null. */
export function outerTmuxSocket(env: Readonly<Record<string, string | undefined>>): string | null {
  const v = env.TMUX;
  if (v === undefined || v === "") return null;
  const socket = v.split(",")[0];
  return socket === "" ? null : socket;
}

/** True when `socket` is one of lisa's own tmux servers (`lisa-tmux-{slug}-{hash}.sock`). */
export function isLisaSocket(socket: string): boolean {
  return SOCKET_RE.test(socket.slice(socket.lastIndexOf("/") + 1));
}

/**
 * Attaches (see the module doc). Throws `session_not_found`, `session_not_running` (its command
 * finished; the payload has its final state), `attach_self` (the caller runs inside that very
 * session), `not_a_terminal` (no terminal, outside a tmux lisa may open a window in), and the
 * errors of `locateSession`.
 */
export async function attachSession(
  deps: Deps,
  options: AttachOptions,
  terminal: boolean,
): Promise<AttachResult> {
  const loc = await locateSession(deps, options.session, options.projectRoot);
  const tmux = new Tmux(deps.runner, loc.socketPath, deps.config.cmdTimeoutSeconds * 1000);
  const target = paneTarget(loc.session, loc.meta);
  const dead = await paneDead(tmux, target);
  if (dead === null) throw new SessionNotFoundError(loc.session);
  if (dead || commandFinished(loc)) {
    throw await sessionNotRunning(deps, loc, "there is nothing to attach to");
  }
  const readOnly = options.readOnly === true;
  const argv = attachArgv(loc.socketPath, target, readOnly);
  const base = {
    ok: true as const,
    session: loc.session,
    alias: loc.meta?.alias ?? null,
    socketPath: loc.socketPath,
    readOnly,
    argv,
  };
  const outer = outerTmuxSocket(deps.env);
  const inLisa = outer !== null && isLisaSocket(outer);
  if (inLisa && deps.env.LISA_SESSION_NAME === loc.session) {
    throw new LisaError(
      "attach_self",
      `This shell runs inside session "${loc.session}": attaching it here would show the ` +
        "session inside itself. Attach it from another terminal, or read its screen with: " +
        `lisa session capture --session ${loc.session}`,
      { details: { session: loc.session } },
    );
  }
  if (outer !== null && !inLisa) {
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
