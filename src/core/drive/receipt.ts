/**
 * Receipts: whether the agent took the prompt a send typed (issue 23). Peers report success when
 * the Enter was swallowed; lisa looks for the agent's own sign that it took it, for at most
 * `--confirm-timeout` seconds after the Enter:
 *
 * - hook: a `UserPromptSubmit` (claude) or an `agent-turn-complete` (codex) written after the
 *   paste whose prompt is the text sent; claude's carries its `prompt_id`. It comes 0.2–0.5 s
 *   after the Enter (the hook is a process).
 * - screen: the agent's input box no longer holds the text (the row of the pane that showed its
 *   end, counted from the bottom, shows something else: claude and codex empty the box, or show
 *   a queued prompt above it, whether they were idle or busy), or a working screen appeared.
 *   Measured on claude 2.1.197 and codex 0.169 (tests/fixtures/screens/receipt_*).
 *
 * With hooks working, the hook is awaited {@link HOOK_GRACE_MS} past the screen's sign, unless
 * the agent was busy: claude fires `UserPromptSubmit` for a queued prompt only once the running
 * turn ends. Pure functions here and one polling loop; the tmux calls are the caller's.
 */
import type { Deps } from "../../base/deps.ts";
import { readHookSignal } from "../../agents/hooks.ts";
import { type FileCursor, readLinesFrom } from "../../store/line_cursor.ts";
import type { SessionLocation } from "../session/mod.ts";
import type { AgentStateAtSend } from "./send_guard.ts";
import type { Agent } from "../../base/types.ts";
import { matchScreen, rulesFor } from "../../agents/rules/index.ts";
import { isAgentsOwnPrompt, promptMatches } from "../../agents/prompts.ts";

/** How long a screen that shows the prompt taken waits for the hook saying so. */
export const HOOK_GRACE_MS = 1000;
/** Pause between two looks at the hook log. */
export const RECEIPT_POLL_MS = 50;
/** Looks at the hook log between two captures of the pane. */
const HOOK_LOOKS_PER_CAPTURE = 3;
/** Characters of the text's last line looked for on screen. */
const NEEDLE_CHARS = 16;
/** Rows counted from the bottom of the pane's content searched for the input box. */
const INPUT_ROWS = 15;

/** What a send reports about its receipt (`send --json`, and `sent` of `send --wait`). */
export interface Receipt {
  /**
   * true: the agent took the text; false: no sign of it; null: not looked for, or the pane
   * ended before anything told.
   */
  confirmed: boolean | null;
  confirmedBy: "hook" | "screen" | null;
  /** The agent's id of the prompt (claude's `prompt_id`), when its hook said it. */
  promptId: string | null;
}

/** The fields of a hook line a receipt reads. */
interface ReceiptLine {
  runId?: unknown;
  event?: unknown;
  aux?: unknown;
  prompt?: unknown;
  preview?: unknown;
  promptId?: unknown;
}

function text(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** A hook line after the paste that says the agent took `sent`; null when none does. */
export function hookReceipt(
  lines: readonly string[],
  runId: string,
  sent: string,
): { promptId: string | null } | null {
  for (const line of lines) {
    let r: ReceiptLine;
    try {
      r = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof r !== "object" || r === null || r.runId !== runId || r.aux === true) continue;
    // claude says so as it takes the prompt (not one it gave itself); codex only once the turn
    // it started has ended.
    const reported = text(r.prompt) ?? text(r.preview);
    const start = r.event === "UserPromptSubmit" && !isAgentsOwnPrompt(reported ?? "");
    const codexEnd = r.event === "agent-turn-complete";
    if (!start && !codexEnd) continue;
    if (promptMatches(start ? reported : text(r.prompt), sent)) {
      return { promptId: text(r.promptId) ?? null };
    }
  }
  return null;
}

/** Rows of a capture, trailing blank rows dropped. */
function rowsOf(screen: string): string[] {
  const rows = screen.split("\n").map((r) => r.trimEnd());
  while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
  return rows;
}

/** Whitespace runs as one space. */
function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A way the input box shows the sent text: a row test. */
interface Needle {
  text: string;
  /** True when the row shows it: `ends` (the text's end, where the cursor is) or `holds`. */
  at: "ends" | "holds";
}

function shows(row: string, needle: Needle): boolean {
  return needle.at === "ends" ? row.endsWith(needle.text) : row.includes(needle.text);
}

/**
 * What of the sent text its input box shows: the end of its last line (the cursor is after it),
 * its start when long enough to be told apart, claude's placeholder for a long paste.
 */
function needles(sent: string): Needle[] {
  const lines = sent.split("\n").map(flat).filter((l) => l !== "");
  if (lines.length === 0) return [];
  const out: Needle[] = [{ text: lines[lines.length - 1].slice(-NEEDLE_CHARS), at: "ends" }];
  if (lines[0].length >= 6) out.push({ text: lines[0].slice(0, NEEDLE_CHARS), at: "holds" });
  out.push({ text: "[Pasted text", at: "holds" });
  return out;
}

/**
 * Where the input box shows the text in `screen` (the capture after the paste): the distance
 * from the bottom of the content of the lowest row showing it, and how; null when no row near
 * the bottom does.
 */
export function inputRow(
  screen: string,
  sent: string,
): { fromBottom: number; needle: Needle } | null {
  const rows = rowsOf(screen);
  const marks = needles(sent);
  for (let d = 0; d < Math.min(INPUT_ROWS, rows.length); d++) {
    const row = flat(rows[rows.length - 1 - d]);
    const needle = marks.find((n) => shows(row, n));
    if (needle !== undefined) return { fromBottom: d, needle };
  }
  return null;
}

/**
 * True when `after` shows the agent took the text that `before` (the screen after the paste,
 * before the Enter) showed in its input box: the row that held it no longer does, or a working
 * screen appeared (agent `agent`'s rules) that was not there before. When the box could not be
 * found, any change of the bottom rows counts. Pure.
 */
export function screenTaken(
  before: string,
  after: string,
  sent: string,
  agent: Agent | null,
): boolean {
  if (agent !== null) {
    const working = (text: string) =>
      matchScreen(rulesFor(agent).rules, "", text, "", "").some((m) => m.kind === "working");
    if (working(after) && !working(before)) return true;
  }
  const rows = rowsOf(after);
  const box = inputRow(before, sent);
  if (box === null) {
    const tail = (r: string[]) => r.slice(-INPUT_ROWS).join("\n");
    return tail(rowsOf(before)) !== tail(rows);
  }
  const now = rows[rows.length - 1 - box.fromBottom];
  return now === undefined || !shows(flat(now), box.needle);
}

/** What {@link awaitReceipt} looks at (the caller's reads, so the loop stays testable). */
export interface ReceiptProbe {
  /** The sent text (as pasted). */
  sent: string;
  agent: Agent | null;
  /** The session's run (hook lines of other runs never count). */
  runId: string;
  /** Hook lines written since the last call (null: hooks are not looked at). */
  newHookLines: (() => string[]) | null;
  /**
   * The pane's screen now; null when it cannot be read; false when the pane is gone or dead
   * (the agent ended: no receipt can come, and none is claimed).
   */
  capture: () => Promise<string | null | false>;
  /** The screen after the paste, before the Enter (null: no screen receipt). */
  before: string | null;
  /** True when the hook is worth waiting for past the screen's sign (idle agent, hooks work). */
  preferHook: boolean;
  timeoutMs: number;
}

/**
 * Looks for the receipt of a send whose Enter was just pressed (module doc), until one comes or
 * `timeoutMs` passes: `confirmed: false` then; `confirmed: null` when the pane ended meanwhile
 * (the agent exited, the session was killed). Never throws.
 */
export async function awaitReceipt(
  deps: Pick<Deps, "now" | "sleep">,
  probe: ReceiptProbe,
): Promise<Receipt> {
  const start = deps.now().getTime();
  // Time spent, by the clock or by the sleeps taken (whichever says more: a clock that stands
  // still must not keep the loop going).
  let slept = 0;
  const spent = () => Math.max(deps.now().getTime() - start, slept);
  let screenAt: number | null = null;
  for (let look = 0;; look++) {
    const hook = probe.newHookLines === null
      ? null
      : hookReceipt(probe.newHookLines(), probe.runId, probe.sent);
    if (hook !== null) return { confirmed: true, confirmedBy: "hook", promptId: hook.promptId };
    const now = spent();
    if (screenAt === null && probe.before !== null && look % HOOK_LOOKS_PER_CAPTURE === 0) {
      const after = await probe.capture().catch(() => null);
      if (after === false) return { confirmed: null, confirmedBy: null, promptId: null };
      if (after !== null && screenTaken(probe.before, after, probe.sent, probe.agent)) {
        screenAt = spent();
      }
    }
    const screenDone = screenAt !== null &&
      (!probe.preferHook || spent() - screenAt >= HOOK_GRACE_MS);
    if (screenDone) return { confirmed: true, confirmedBy: "screen", promptId: null };
    if (now >= probe.timeoutMs) {
      return screenAt !== null
        ? { confirmed: true, confirmedBy: "screen", promptId: null }
        : { confirmed: false, confirmedBy: null, promptId: null };
    }
    const pause = Math.max(1, Math.min(RECEIPT_POLL_MS, probe.timeoutMs - now));
    slept += pause;
    await deps.sleep(pause);
  }
}

/** The hook log's cursor at its end now (null when it does not exist). */
function hookCursorNow(path: string): FileCursor | null {
  try {
    const info = Deno.lstatSync(path);
    return info.isFile ? { ino: info.ino ?? null, offset: info.size } : null;
  } catch {
    return null;
  }
}

/** The hook lines written since `cursor` (advanced); [] when none or unreadable. */
function hookLinesSince(path: string, cursor: { at: FileCursor | null }): string[] {
  try {
    const read = readLinesFrom(path, cursor.at);
    if (read === null) return [];
    cursor.at = read.next;
    return read.lines;
  } catch {
    return [];
  }
}

/** How a send with text and Enter looks for its receipt; null when it does not. */
export interface ReceiptPlan {
  hooks: boolean;
  preferHook: boolean;
  cursor: { at: FileCursor | null };
  timeoutMs: number;
}

/**
 * The receipt plan of a send (`SendResult.confirmed`): the agent's hooks are looked at
 * when they work for the session; the hook is worth waiting for when the agent was idle.
 */
export function receiptPlan(
  deps: Deps,
  loc: SessionLocation,
  agentState: AgentStateAtSend | null,
  timeoutMs: number,
): ReceiptPlan | null {
  const meta = loc.meta;
  if (timeoutMs <= 0 || meta === undefined || meta.commandOnly || meta.agent === undefined) {
    return null;
  }
  const hooks = meta.hooks === true &&
    readHookSignal(loc.paths.hooks, meta.runId, deps.now().getTime(), deps.config)?.active ===
      true;
  // A working agent queues the prompt: claude fires its hook only when it starts it.
  const busy = agentState?.sessionState === "in_progress";
  return {
    hooks,
    preferHook: hooks && !busy,
    cursor: { at: hooks ? hookCursorNow(loc.paths.hooks) : null },
    timeoutMs,
  };
}

/**
 * Waits for the receipt of a send whose Enter was just pressed (plan from {@link receiptPlan},
 * `before` the screen after its paste); unconfirmed, presses Enter once more with `pressAgain`
 * (`--retry-enter`; it returns false when the pane is gone) and waits as long again.
 */
export async function confirmSend(
  deps: Pick<Deps, "now" | "sleep">,
  loc: SessionLocation,
  plan: ReceiptPlan,
  send: {
    sent: string;
    before: string | null;
    capture: () => Promise<string | null | false>;
    pressAgain: (() => Promise<boolean>) | null;
  },
): Promise<Receipt> {
  const probe: ReceiptProbe = {
    sent: send.sent,
    agent: loc.meta?.agent ?? null,
    runId: loc.meta?.runId ?? "",
    newHookLines: plan.hooks ? () => hookLinesSince(loc.paths.hooks, plan.cursor) : null,
    capture: send.capture,
    before: send.before,
    preferHook: plan.preferHook,
    timeoutMs: plan.timeoutMs,
  };
  const receipt = await awaitReceipt(deps, probe);
  if (receipt.confirmed !== false || send.pressAgain === null) return receipt;
  return (await send.pressAgain()) ? await awaitReceipt(deps, probe) : receipt;
}
