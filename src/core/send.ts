/**
 * `lisa session send`: text through a tmux paste buffer with bracketed paste (so a multi-line
 * text is one paste, never one submission per line, and no shell ever sees it), Enter as a
 * separate key after a short per-agent delay (an agent that gets Enter inside the same burst
 * as a paste may take it as part of the paste), and raw tmux key names. The input time is
 * recorded in the session's state (`lastInputAtMs`), which the classifier uses.
 */
import type { Deps } from "./deps.ts";
import { SessionNotFoundError, UsageError } from "./errors.ts";
import { locateSession } from "./session_ref.ts";
import { updateState } from "../store/session_store.ts";
import { pasteText, sendKeys } from "../tmux/sessions.ts";
import { Tmux } from "../tmux/tmux.ts";

/** Delay between a paste and its Enter, per agent (ms). */
export const ENTER_DELAY_MS: Readonly<Record<string, number>> = { claude: 150, codex: 150 };
/** Delay between a paste and its Enter for sessions of unknown agent (ms). */
export const DEFAULT_ENTER_DELAY_MS = 50;

/** Options of {@link sendToSession}. */
export interface SendOptions {
  session: string;
  projectRoot?: string;
  /** Text pasted verbatim (bracketed paste). */
  text?: string;
  /** tmux key names separated by spaces (`Escape`, `C-c`, `Up Enter`). */
  keys?: string;
  /** Press Enter after the text/keys. */
  enter?: boolean;
}

/** `session send --json`. */
export interface SendResult {
  ok: true;
  session: string;
  /** UTF-8 bytes of text pasted (0 when none). */
  textBytes: number;
  keys: string[];
  enter: boolean;
}

/** Splits `--keys` into tmux key names. */
export function splitKeys(keys: string): string[] {
  return keys.split(/\s+/).filter((k) => k.length > 0);
}

/**
 * Sends text and/or keys to `session`. Throws `missing_argument` when there is nothing to send,
 * `invalid_session_name`, and `session_not_found` (exit 1) when the session is absent.
 */
export async function sendToSession(deps: Deps, options: SendOptions): Promise<SendResult> {
  const text = options.text ?? "";
  const keys = splitKeys(options.keys ?? "");
  const enter = options.enter ?? false;
  if (text === "" && keys.length === 0 && !enter) {
    throw new UsageError("Nothing to send: pass --text, --keys and/or --enter", "missing_argument");
  }
  const loc = locateSession(deps, options.session, options.projectRoot);
  const tmux = new Tmux(deps.runner, loc.socketPath);
  const present = async (ok: Promise<boolean>) => {
    if (!(await ok)) throw new SessionNotFoundError(loc.session);
  };
  if (text !== "") await present(pasteText(tmux, loc.session, text));
  if (keys.length > 0) await present(sendKeys(tmux, loc.session, keys));
  if (enter) {
    if (text !== "") {
      await deps.sleep(ENTER_DELAY_MS[loc.meta?.agent ?? ""] ?? DEFAULT_ENTER_DELAY_MS);
    }
    await present(sendKeys(tmux, loc.session, ["Enter"]));
  }
  if (loc.meta !== undefined) {
    const at = deps.now().getTime();
    try {
      await updateState(loc.paths, deps.config.stateLockTimeoutMs, (state) => {
        state.lastInputAtMs = at;
      });
    } catch (error) {
      // The input went through; a busy or unwritable state file only costs the classifier a hint.
      deps.io.err(`lisa: warning: could not record the input time: ${(error as Error).message}\n`);
    }
  }
  return {
    ok: true,
    session: loc.session,
    textBytes: new TextEncoder().encode(text).length,
    keys,
    enter,
  };
}
