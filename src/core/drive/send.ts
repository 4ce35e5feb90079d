/**
 * `lisa session send`: text through a tmux paste buffer with bracketed paste (so a multi-line
 * text is one paste, never one submission per line, and no shell ever sees it), Enter as a
 * separate key after a short per-agent delay (an agent that gets Enter inside the same burst
 * as a paste may take it as part of the paste), and tmux key names. The input time is
 * recorded in the session's state (`lastInputAtMs`), which the classifier uses.
 *
 * Before anything reaches tmux: key names are checked ({@link isValidKey}; an unknown name is
 * `invalid_key`, never typed as text), and the text is made inert ({@link sanitizePasteText}).
 * Sends to one session are serialized by the session's input lock, so parallel sends never
 * merge: each paste is followed by its own Enter before the next paste starts.
 */
import { warn } from "../../base/io.ts";
import type { Deps } from "../../base/deps.ts";
import {
  InterruptedError,
  LisaError,
  LockBusyError,
  SessionNotFoundError,
  UsageError,
} from "../../base/errors.ts";
import { interruption, openSection, SIGNAL_NUMBERS } from "../../proc/interrupt.ts";
import { sanitizePasteText } from "./paste_text.ts";
import {
  type AgentStateAtSend,
  DEFAULT_READY_TIMEOUT_SECONDS,
  guardTextSend,
} from "./send_guard.ts";
import { locateSession, type SessionLocation } from "../session/mod.ts";
import { readTextInput } from "./text_input.ts";
import { withLock } from "../../store/lock.ts";
import { updateState } from "../../store/session_store.ts";
import { isValidKey, suggestKey } from "../../tmux/keys.ts";
import { type PaneWrite, pasteText, sendKeys } from "../../tmux/sessions.ts";
import { commandString, paneTarget, Tmux } from "../../tmux/tmux.ts";
import { commandFinished, sessionNotRunning } from "./not_running.ts";

/** Delay between a paste and its Enter, per agent (ms). */
export const ENTER_DELAY_MS: Readonly<Record<string, number>> = { claude: 150, codex: 150 };
/** Delay between a paste and its Enter for sessions of unknown agent (ms). */
export const DEFAULT_ENTER_DELAY_MS = 50;
/**
 * How long a send waits for the session's input lock. A send holds it for its Enter delay
 * (≤ 150 ms) plus two or three tmux calls (about 180 ms in all, measured), so some 150 sends
 * queued on one session fit; past it the send fails with `lock_busy` and sends nothing. It is
 * longer than one tmux call's own timeout (LISA_CMD_TIMEOUT_SECONDS, default 20 s), so a single
 * hung tmux call in the holder does not fail the sends waiting behind it.
 */
export const SEND_LOCK_TIMEOUT_MS = 30_000;

/** Options of {@link sendToSession}. */
export interface SendOptions {
  session: string;
  projectRoot?: string;
  /** Text to paste (bracketed paste), sanitised first (see `paste_text.ts`); `-` reads stdin. */
  text?: string;
  /** File whose content is pasted like `text` (`-` reads stdin); excludes `text`. */
  textFile?: string;
  /** tmux key names separated by spaces (`Escape`, `C-c`, `Up Enter`). */
  keys?: string;
  /** Press Enter after the text/keys. */
  enter?: boolean;
  /** Wait for the session's input lock (default {@link SEND_LOCK_TIMEOUT_MS}). */
  lockTimeoutMs?: number;
  /** Type text even into a permission dialog or a starting agent (see `send_guard.ts`). */
  force?: boolean;
  /** Longest wait for a starting agent before typing text, in seconds (default 20). */
  readyTimeoutSeconds?: number;
}

/** `session send --json`. */
export interface SendResult {
  ok: true;
  session: string;
  /** UTF-8 bytes of text pasted (0 when none), after sanitising. */
  textBytes: number;
  /** Control characters removed from the text before pasting (0 when it was clean). */
  removedChars: number;
  keys: string[];
  enter: boolean;
  /**
   * The agent's state when text went out (a text send to an agent session without --force),
   * else null: its sessionState, waitingFor, classificationReason, and how long the send
   * waited for it to be ready.
   */
  agentState: AgentStateAtSend | null;
}

/** Splits `--keys` into tmux key names. */
export function splitKeys(keys: string): string[] {
  return keys.split(/\s+/).filter((k) => k.length > 0);
}

/**
 * Most bytes the keys of one send may take as tmux reads them (quoted). The guarded write
 * (`sendKeys`) hands tmux every key inside one command, and a tmux 3.3a client sends its whole
 * command line in one message of at most 16 KiB ("command too long"); the rest of the write
 * (its target twice, the dead branch) takes well under 1 KiB. Some 3 000 one-letter keys fit.
 */
export const MAX_KEYS_BYTES = 12 * 1024;

/**
 * What to say of a modified key tmux 3.3a reads but cannot send (`S-Enter`, `C-1`, `C-M-Enter`):
 * a key name with modifiers whose base is a key; null for any other word.
 */
function unsendable(key: string): string | null {
  const m = /^((?:[CMScms]-)+|\^)(.+)$/.exec(key);
  if (m === null || !isValidKey(m[2])) return null;
  return `Key "${key}" cannot be sent: tmux 3.3a reads it but would type its name as text or ` +
    "send nothing. Shift goes with the arrows only (Shift-Tab is BTab); Ctrl with a letter, " +
    "Space or one of @[\\]^_? (and 2 6 - /); Ctrl with Meta with a letter, Space or @[\\]^_?. " +
    "Send the plain key, or the text with --text. Nothing was sent";
}

/**
 * Throws `invalid_key` for the first word of `keys` that is not a tmux key name, and
 * `invalid_argument` for more keys than one send takes ({@link MAX_KEYS_BYTES}).
 */
export function checkKeys(keys: readonly string[]): void {
  for (const key of keys) {
    if (isValidKey(key)) continue;
    const suggestion = suggestKey(key);
    const hint = suggestion === null ? "" : ` (did you mean "${suggestion}"?)`;
    throw new UsageError(
      unsendable(key) ??
        `Unknown key "${key}"${hint}; --keys takes tmux key names (Enter, Escape, C-c, Up, y, …), ` +
          "literal text goes through --text. Nothing was sent",
      "invalid_key",
      { key, suggestion },
    );
  }
  const bytes = new TextEncoder().encode(commandString([keys])).length;
  if (bytes > MAX_KEYS_BYTES) {
    throw new UsageError(
      `--keys names ${keys.length} keys (${bytes} bytes as tmux reads them); one send takes at ` +
        `most ${MAX_KEYS_BYTES}: split them over several sends, or send text with --text. ` +
        "Nothing was sent",
      "invalid_argument",
      { keys: keys.length, bytes, maxBytes: MAX_KEYS_BYTES },
    );
  }
}

/**
 * Sends text and/or keys to `session`. Throws `missing_argument` when there is nothing to send,
 * the input errors of {@link readTextInput}, `invalid_key` for an unknown key name
 * (`invalid_argument` for too many keys, see {@link checkKeys}),
 * `invalid_session_name`, `session_not_found` (exit 1) when the session is absent,
 * `session_not_running` (exit 1, with the final state) when its command has ended, and
 * `lock_busy` when another send to the session holds its input lock past
 * {@link SEND_LOCK_TIMEOUT_MS}, for text, `agent_waiting_permission` / `agent_not_ready`
 * (see `send_guard.ts`), and `interrupted` (exit 128 + n) for SIGINT/SIGTERM/SIGHUP once the
 * writes began, after finishing them (`sent` in the details). Only `session_not_found`, `session_not_running` (a pane that ended
 * between the paste and its Enter) or a tmux failure can leave a send half-done; every other
 * error comes before the first tmux call, and a dead pane is never written to.
 */
export async function sendToSession(deps: Deps, options: SendOptions): Promise<SendResult> {
  const { text, removedChars, keys, enter } = await inputOf(deps, options);
  // Typing into the wrong session is the worst mistake: a full name is taken exactly (aliases
  // and their prefixes still resolve), as by every verb.
  const loc = await locateSession(deps, options.session, options.projectRoot);
  // Text only: keys are how a person answers a dialog, and never wait.
  const agentState = text === "" ? null : await guardTextSend(deps, loc, {
    force: options.force ?? false,
    readyTimeoutMs: (options.readyTimeoutSeconds ?? DEFAULT_READY_TIMEOUT_SECONDS) * 1000,
  });
  const written = await deliver(deps, loc, { text, keys, enter }, options.lockTimeoutMs);
  if (written.stopped !== null && !written.dead) {
    throw new InterruptedError(
      written.stopped,
      SIGNAL_NUMBERS[written.stopped] ?? 15,
      written.sentSome
        ? `sending to session "${loc.session}"; the send was finished first (sent: true)`
        : `sending to session "${loc.session}"; nothing was sent`,
      { session: loc.session, sent: written.sentSome },
    );
  }
  if (written.dead) {
    // Only a pane that ended between two writes of this send got part of it.
    throw await sessionNotRunning(
      deps,
      loc,
      written.sentSome ? "so the rest of this send was not sent" : "nothing was sent",
    );
  }
  if (loc.meta !== undefined) {
    const at = deps.now().getTime();
    try {
      await updateState(loc.paths, deps.config.stateLockTimeoutMs, (state) => {
        state.lastInputAtMs = at;
      });
    } catch (error) {
      // The input went through; a busy or unwritable state file only costs the classifier a hint.
      warn(deps.io, `could not record the input time: ${(error as Error).message}`);
    }
  }
  return {
    ok: true,
    session: loc.session,
    textBytes: new TextEncoder().encode(text).length,
    removedChars,
    keys,
    enter,
    agentState,
  };
}

/** What a send types: the text (read, made inert) and the keys, checked before any tmux call. */
async function inputOf(
  deps: Deps,
  options: SendOptions,
): Promise<{ text: string; removedChars: number; keys: string[]; enter: boolean }> {
  const keys = splitKeys(options.keys ?? "");
  const enter = options.enter ?? false;
  const given = options.text !== undefined || options.textFile !== undefined;
  if ((!given || options.text === "") && keys.length === 0 && !enter) {
    throw new UsageError("Nothing to send: pass --text, --keys and/or --enter", "missing_argument");
  }
  checkKeys(keys);
  const input = await readTextInput(deps, {
    value: options.text,
    file: options.textFile,
    valueFlag: "--text",
    fileFlag: "--text-file",
  });
  const { text, removedChars } = sanitizePasteText(input ?? "");
  if (text === "" && keys.length === 0 && !enter) {
    // An empty file (or stdin), or text of control characters only (`$'\x1b'`, removed).
    throw new UsageError(
      removedChars === 0
        ? "Nothing to send: the text is empty"
        : `Nothing to send: the text held only control characters (${removedChars} removed); ` +
          "send keys with --keys (Escape, C-c, Enter)",
      "missing_argument",
    );
  }
  return { text, removedChars, keys, enter };
}

/**
 * The `pane_input_off` refusal: the session's pane lives but its input is turned off (a
 * person's `select-pane -d`), so tmux would drop the write without a word.
 */
function inputOff(loc: SessionLocation, target: string, sentSome: boolean): LisaError {
  return new LisaError(
    "pane_input_off",
    `Input to the pane of session "${loc.session}" is turned off (tmux select-pane -d), so ` +
      `tmux would drop what lisa types; ${
        sentSome ? "the rest of this send was not sent" : "nothing was sent"
      }. Turn it on with \`tmux -S ${loc.socketPath} select-pane -e -t '${target}'\` and send ` +
      "again",
    { details: { session: loc.session, sent: sentSome } },
  );
}

/**
 * Writes the text, the keys and Enter into the session's own pane under its input lock; whether
 * the pane turned out dead (nothing more is then written), whether some of it went in, and the
 * signal that came while it wrote (held until the writes were done), if any.
 */
async function deliver(
  deps: Deps,
  loc: SessionLocation,
  input: { text: string; keys: string[]; enter: boolean },
  lockTimeoutMs: number | undefined,
): Promise<{ dead: boolean; sentSome: boolean; stopped: Deno.Signal | null }> {
  const { text, keys, enter } = input;
  const tmux = new Tmux(deps.runner, loc.socketPath);
  // The agent's own pane, exactly: never a window someone opened in the session since.
  const target = paneTarget(loc.session, loc.meta);
  // Each write is refused by tmux itself when the pane is dead (`pasteText`): then nothing
  // more is written, and the refusal is built once the input lock is released.
  const state = { dead: false, sentSome: false, stopped: null as Deno.Signal | null };
  const delivered = async (write: Promise<PaneWrite>) => {
    const result = await write;
    if (result === "absent") throw new SessionNotFoundError(loc.session);
    if (result === "input_off") throw inputOff(loc, target, state.sentSome);
    if (result === "dead") state.dead = true;
    else state.sentSome = true;
    return !state.dead;
  };
  const writeAll = async () => {
    // The done file comes before tmux sees the pane dead (the wrapper writes it, then exits, or
    // stays for adopted daemons): the command has ended, so nothing is written. Checked here,
    // under the input lock and after any wait for a starting agent, right before the first write.
    if (commandFinished(loc)) {
      state.dead = true;
      return;
    }
    // A signal (an orchestrator's time limit, Ctrl-C) once the writes began is held until they
    // are all done: a paste left without its Enter would be submitted with the next send's text.
    const closeSection = openSection();
    try {
      if (interruption() !== null) return;
      if (text !== "" && !(await delivered(pasteText(tmux, target, text)))) return;
      if (keys.length > 0 && !(await delivered(sendKeys(tmux, target, keys)))) return;
      if (enter) {
        if (text !== "") {
          await deps.sleep(ENTER_DELAY_MS[loc.meta?.agent ?? ""] ?? DEFAULT_ENTER_DELAY_MS);
        }
        await delivered(sendKeys(tmux, target, ["Enter"]));
      }
    } catch (error) {
      // No session, no lock file left behind for it (sends to a wrong name must not litter).
      if (error instanceof SessionNotFoundError && loc.meta === undefined) {
        try {
          Deno.removeSync(loc.paths.inputLock);
        } catch { /* already gone */ }
      }
      throw error;
    } finally {
      state.stopped = interruption();
      closeSection();
    }
  };
  // The one lock lisa holds across tmux calls (state-file locks never are, DESIGN §4.4): it exists
  // to serialize them, so a paste is never followed by another send's paste before its Enter.
  // A session without meta (not spawned by lisa) gets the same lock path under the current
  // project, which is also the server lisa sends to, so it is serialized too.
  const timeoutMs = lockTimeoutMs ?? SEND_LOCK_TIMEOUT_MS;
  try {
    await withLock(loc.paths.inputLock, { timeoutMs }, writeAll);
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    throw new LisaError(
      "lock_busy",
      `Another send to session "${loc.session}" held its input lock for ${timeoutMs} ms; ` +
        "nothing was sent",
      { cause: error, details: { ...error.details, session: loc.session } },
    );
  }
  return state;
}
