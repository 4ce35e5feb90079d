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
 *
 * Text sent with Enter to an agent waits for its receipt (`receipt.ts`) up to
 * `--confirm-timeout` seconds, still under the input lock (so `--retry-enter`'s second Enter
 * can only press on this send's own text): unconfirmed, the send fails with `send_unconfirmed`
 * and leaves the text where it is.
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
import { commandString, isMissingTarget, isNoServer, paneTarget, Tmux } from "../../tmux/tmux.ts";
import { commandFinished, sessionNotRunning } from "./not_running.ts";
import type { Receipt, ReceiptPlan } from "./receipt.ts";
import { lazyImport } from "../../base/lazy.ts";

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
  /**
   * Longest wait for the agent's receipt of text sent with Enter, in seconds (default
   * {@link DEFAULT_CONFIRM_TIMEOUT_SECONDS}; 0: none is waited for, `confirmed: null`).
   */
  confirmTimeoutSeconds?: number;
  /** Unconfirmed at the timeout: press Enter once more and wait as long again. */
  retryEnter?: boolean;
}

/** Default of `--confirm-timeout`, in seconds. */
export const DEFAULT_CONFIRM_TIMEOUT_SECONDS = 5;

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
  /**
   * Whether the agent took the text (text sent with Enter to an agent session): true, false
   * (then the send failed with `send_unconfirmed`), or null when lisa did not look: no Enter or
   * no text, a `--command` session, a session lisa did not spawn, `--confirm-timeout 0`.
   */
  confirmed: boolean | null;
  /** What said so: the agent's prompt `hook`, or the `screen` (its input box emptied). */
  confirmedBy: "hook" | "screen" | null;
  /** claude's `prompt_id` of the prompt, when its hook confirmed it; else null. */
  promptId: string | null;
  /** True when `--retry-enter` pressed Enter a second time. */
  enterRetried: boolean;
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
  const confirmMs = (options.confirmTimeoutSeconds ?? DEFAULT_CONFIRM_TIMEOUT_SECONDS) * 1000;
  const done = await deliverLocked(deps, loc, {
    text,
    keys,
    enter,
    retryEnter: options.retryEnter ?? false,
    lockTimeoutMs: options.lockTimeoutMs ?? SEND_LOCK_TIMEOUT_MS,
    receipts: await receiptPlanOf(deps, loc, agentState, enter && text !== "" ? confirmMs : 0),
  });
  const failure = await deliveryFailure(deps, loc, done);
  if (failure !== null) throw failure;
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
  const result: SendResult = {
    ok: true,
    session: loc.session,
    textBytes: new TextEncoder().encode(text).length,
    removedChars,
    keys,
    enter,
    agentState,
    ...done.receipt,
    enterRetried: done.enterRetried,
  };
  if (done.receipt.confirmed === false) throw unconfirmed(result, confirmMs);
  return result;
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
 * The error a delivery ends with, or null when it went through: a signal that came while the
 * writes ran (`interrupted`, they were finished first), or a pane that ended before or between
 * them (`session_not_running`).
 */
async function deliveryFailure(
  deps: Deps,
  loc: SessionLocation,
  done: Delivery,
): Promise<LisaError | null> {
  if (done.stopped !== null && !done.dead) {
    return new InterruptedError(
      done.stopped,
      SIGNAL_NUMBERS[done.stopped] ?? 15,
      done.sentSome
        ? `sending to session "${loc.session}"; the send was finished first (sent: true)`
        : `sending to session "${loc.session}"; nothing was sent`,
      { session: loc.session, sent: done.sentSome },
    );
  }
  if (!done.dead) return null;
  // Only a pane that ended between two writes of this send got part of it.
  return await sessionNotRunning(
    deps,
    loc,
    done.sentSome ? "so the rest of this send was not sent" : "nothing was sent",
  );
}

type ReceiptModule = typeof import("./receipt.ts");

/** A receipt to look for: the module (loaded only then) and its plan. */
interface Receipts {
  module: ReceiptModule;
  plan: ReceiptPlan;
}

/**
 * What a send looks for its receipt with; null when it looks for none (no text with Enter, a
 * `--command` session, a session lisa did not spawn, `confirmMs` 0). The receipt module is
 * loaded only then, so a command session's send stays as lean as it was.
 */
async function receiptPlanOf(
  deps: Deps,
  loc: SessionLocation,
  agentState: AgentStateAtSend | null,
  confirmMs: number,
): Promise<Receipts | null> {
  const meta = loc.meta;
  if (confirmMs <= 0 || meta === undefined || meta.commandOnly || meta.agent === undefined) {
    return null;
  }
  const module = await lazyImport<ReceiptModule>(new URL("./receipt.ts", import.meta.url));
  const plan = module.receiptPlan(deps, loc, agentState, confirmMs);
  return plan === null ? null : { module, plan };
}

/** The pane's screen, or false once it is gone or dead (the chained `#{pane_dead}` says). */
async function captureScreen(tmux: Tmux, target: string): Promise<string | null | false> {
  const res = await tmux.run([
    ["capture-pane", "-p", "-J", "-t", target],
    ["display-message", "-p", "-t", target, "#{pane_dead}"],
  ]);
  if (!res.success) return isMissingTarget(res.stderr) || isNoServer(res.stderr) ? false : null;
  const body = res.stdout.replace(/\n$/, "");
  const cut = body.lastIndexOf("\n");
  return body.slice(cut + 1) === "1" ? false : body.slice(0, cut + 1);
}

/** What {@link deliverLocked} did. */
interface Delivery {
  /** The pane was dead at one of the writes (nothing after it was written). */
  dead: boolean;
  sentSome: boolean;
  /** A signal that came while the writes ran (they were finished first). */
  stopped: Deno.Signal | null;
  receipt: Receipt;
  enterRetried: boolean;
}

/** What a send writes, and how it looks for its receipt. */
interface SendWrites {
  text: string;
  keys: string[];
  enter: boolean;
  retryEnter: boolean;
  lockTimeoutMs: number;
  receipts: Receipts | null;
}

/** The pane a send writes to and the record of what it did (for {@link writeSend}). */
interface SendPane {
  tmux: Tmux;
  target: string;
  out: Delivery;
  /** Runs a write; false once the pane was dead at it (throws when the session is gone). */
  delivered: (write: Promise<PaneWrite>) => Promise<boolean>;
  /** Runs writes inside an interrupt section (see {@link writeSend}); undefined if stopped. */
  sectioned: <T>(writes: () => Promise<T>) => Promise<T | undefined>;
}

/**
 * Writes the send (paste, keys, Enter, and its receipt with `--retry-enter`'s second Enter) under
 * the session's input lock. Throws `session_not_found`, and `lock_busy` when another send held
 * the lock past `lockTimeoutMs` (nothing was sent then).
 */
async function deliverLocked(
  deps: Deps,
  loc: SessionLocation,
  send: SendWrites,
): Promise<Delivery> {
  const out: Delivery = {
    dead: false,
    sentSome: false,
    stopped: null,
    receipt: { confirmed: null, confirmedBy: null, promptId: null },
    enterRetried: false,
  };
  // The agent's own pane, exactly: never a window someone opened in the session since.
  const target = paneTarget(loc.session, loc.meta);
  const pane: SendPane = {
    tmux: new Tmux(deps.runner, loc.socketPath),
    target,
    out,
    // Each write is refused by tmux itself when the pane is dead or its input is off
    // (`pasteText`): then nothing more is written; a dead pane's refusal is built once the input
    // lock is released.
    delivered: async (write) => {
      const result = await write;
      if (result === "absent") throw new SessionNotFoundError(loc.session);
      if (result === "input_off") throw inputOff(loc, target, out.sentSome);
      if (result === "dead") out.dead = true;
      else out.sentSome = true;
      return !out.dead;
    },
    // A signal (an orchestrator's time limit, Ctrl-C) once the writes began is held until they
    // are all done: a paste left without its Enter would be submitted with the next send's text.
    sectioned: async (writes) => {
      const closeSection = openSection();
      try {
        return interruption() !== null ? undefined : await writes();
      } finally {
        out.stopped ??= interruption();
        closeSection();
      }
    },
  };
  // The one lock lisa holds across tmux calls (state-file locks never are, DESIGN §4.4): it
  // exists to serialize them, so a paste is never followed by another send's paste before its
  // Enter (nor, while a receipt is awaited, its retried Enter by another send's text). A session
  // without meta (not spawned by lisa) gets the same lock path under the current project, which
  // is also the server lisa sends to, so it is serialized too.
  try {
    await withLock(
      loc.paths.inputLock,
      { timeoutMs: send.lockTimeoutMs },
      () => writeSend(deps, loc, send, pane),
    );
  } catch (error) {
    // No session, no lock file left behind for it (sends to a wrong name must not litter).
    if (error instanceof SessionNotFoundError && loc.meta === undefined) {
      try {
        Deno.removeSync(loc.paths.inputLock);
      } catch { /* already gone */ }
    }
    if (!(error instanceof LockBusyError)) throw error;
    throw new LisaError(
      "lock_busy",
      `Another send to session "${loc.session}" held its input lock for ${send.lockTimeoutMs} ` +
        "ms; nothing was sent",
      { cause: error, details: { ...error.details, session: loc.session } },
    );
  }
  return out;
}

/**
 * The writes of one send, the input lock held: the paste, the keys, the Enter (inside one
 * interrupt section), then, outside it, the receipt (a signal then ends lisa at once, the text
 * sent) and `--retry-enter`'s second Enter (in a section of its own).
 */
async function writeSend(
  deps: Deps,
  loc: SessionLocation,
  send: SendWrites,
  pane: SendPane,
): Promise<void> {
  const { tmux, target, out, delivered, sectioned } = pane;
  const { text, keys, receipts } = send;
  // The done file comes before tmux sees the pane dead (the wrapper writes it, then exits, or
  // stays for adopted daemons): the command has ended, so nothing is written. Checked here,
  // under the input lock and after any wait for a starting agent, right before the first write.
  if (commandFinished(loc)) {
    out.dead = true;
    return;
  }
  let before: string | null = null;
  const entered = await sectioned(async () => {
    if (text !== "" && !(await delivered(pasteText(tmux, target, text)))) return false;
    if (keys.length > 0 && !(await delivered(sendKeys(tmux, target, keys)))) return false;
    if (!send.enter) return false;
    if (text !== "") {
      await deps.sleep(ENTER_DELAY_MS[loc.meta?.agent ?? ""] ?? DEFAULT_ENTER_DELAY_MS);
      // The screen holding the text, read at the end of the delay: the agent has drawn the
      // paste by then (a capture right after the paste may not show it yet).
      if (receipts !== null) before = (await captureScreen(tmux, target).catch(() => null)) || null;
    }
    return await delivered(sendKeys(tmux, target, ["Enter"]));
  });
  if (!entered || receipts === null || out.stopped !== null) return;
  out.receipt = await receipts.module.confirmSend(deps, loc, receipts.plan, {
    sent: text,
    before,
    capture: () => captureScreen(tmux, target),
    pressAgain: send.retryEnter
      ? async () => {
        out.enterRetried = true;
        return (await sectioned(() => delivered(sendKeys(tmux, target, ["Enter"])))) ?? false;
      }
      : null,
  });
}

/** The `send_unconfirmed` error of a send whose receipt never came (the text was left alone). */
function unconfirmed(result: SendResult, timeoutMs: number): LisaError {
  const { ok: _ok, ...sent } = result;
  const again = result.enterRetried ? ", even after a second Enter" : "";
  return new LisaError(
    "send_unconfirmed",
    `Session "${result.session}" did not take the text within ${timeoutMs / 1000} s${again}: ` +
      "no prompt hook came and its input box still shows it. Nothing was re-sent; the text " +
      "is still typed there. Look at it (lisa session capture), then press Enter " +
      "(--keys Enter) or clear it (--keys C-u); --retry-enter presses Enter once more by itself",
    { details: { ...sent } },
  );
}
