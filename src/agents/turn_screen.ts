/**
 * What an agent's screen says about a turn that ended without its end hook (an Esc fires no
 * Stop; a Stop hook can be lost): whether the agent shows the turn interrupted, and the reply it
 * shows. Per-agent data (a UI change is a data change here), read only when status has decided
 * such a turn is over. Pure.
 *
 * claude 2.1.197 (tests/fixtures/screens/real_claude_after_esc.txt, real_claude_turn_done.txt):
 * the prompt echoed as `❯ say something`, the answer as `● text` with two-space continuation rows,
 * a tool call as `● Bash(touch x)` with `  ⎿  …` rows under it, a timing row `✻ Churned for 10s`,
 * then the input box between two rules of `─`. An Esc leaves `  ⎿  Interrupted · What should
 * Claude do instead?` under the turn. Codex shows `■ Conversation interrupted` (its hooks never
 * report a running turn, so it rarely gets here).
 */
import type { Agent } from "../base/types.ts";

/** Screen shapes of one agent (see the module doc). */
export interface TurnScreenRules {
  /** The echo of a submitted prompt; group 1 is its text. */
  promptEcho: RegExp;
  /** A row the agent shows under a turn it interrupted. */
  interrupted: RegExp;
  /** The first row of the input area below the transcript. */
  inputArea?: RegExp;
  /** The first row of an answer; group 1 is its text. */
  answer?: RegExp;
  /** The first row of a tool call (not an answer). */
  tool?: RegExp;
  /** A continuation row of the block above it; group 1 is its text. */
  continuation?: RegExp;
  /** Rows of the agent's own (timing, status) that are never part of a reply. */
  chrome: readonly RegExp[];
}

/** Rules of agents lisa knows; anything else gets {@link GENERIC}. */
export const TURN_SCREEN_RULES: Readonly<Record<Agent, TurnScreenRules>> = {
  claude: {
    promptEcho: /^[❯>] (.*)$/u,
    interrupted: /^\s*⎿\s+Interrupted\b/u,
    inputArea: /^─{20,}\s*$/u,
    answer: /^● (.*)$/u,
    tool: /^● [A-Z][A-Za-z]*\(/u,
    continuation: /^ {2}(.*)$/u,
    chrome: [/^[·✢✳✶✻✽*] \p{Lu}[\p{L} '-]{0,60}(?:…| for \d)/u],
  },
  codex: {
    promptEcho: /^› (.*)$/u,
    interrupted: /^■ Conversation interrupted/u,
    answer: /^• (.*)$/u,
    tool: /^• (?:Ran|Explored|Edited|Updated|Added|Deleted) /u,
    continuation: /^ {2}(.*)$/u,
    chrome: [/^─ Worked for /u],
  },
};

/** A prompt row of a shell or a simple REPL: `> text`, `$ text`. */
const GENERIC: TurnScreenRules = {
  promptEcho: /^[>❯›$%#] ?(.*)$/u,
  interrupted: /^\s*⎿\s+Interrupted\b|^■ Conversation interrupted/u,
  chrome: [],
};

/** How the turn ended, as the screen shows it. */
export interface ScreenTurnEnd {
  outcome: "completed" | "interrupted";
  /** The reply the screen shows (null when interrupted or when none shows). */
  reply: string | null;
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The rows of the turn that `prompt` (null: unknown) started: after the newest echo of it (or,
 * failing that, of any prompt), up to the input area.
 */
function turnRows(rows: readonly string[], rules: TurnScreenRules, prompt: string | null) {
  const head = prompt === null ? "" : flat(prompt).slice(0, 40);
  let echo = -1;
  let anyEcho = -1;
  for (let i = rows.length - 1; i >= 0 && echo < 0; i--) {
    const m = rules.promptEcho.exec(rows[i]);
    const text = m === null ? "" : flat(m[1]);
    if (text === "") continue;
    if (anyEcho < 0) anyEcho = i;
    if (head !== "" && (text.startsWith(head) || head.startsWith(text))) echo = i;
  }
  const from = (echo >= 0 ? echo : anyEcho) + 1;
  let to = rows.length;
  for (let i = from; i < rows.length && rules.inputArea !== undefined; i++) {
    if (rules.inputArea.test(rows[i])) {
      to = i;
      break;
    }
  }
  return rows.slice(from, to);
}

/** The last answer block of `rows` (tool calls and chrome left out), or null. */
function lastAnswer(rows: readonly string[], rules: TurnScreenRules): string | null {
  if (rules.answer === undefined) return null;
  let last: string[] | null = null;
  let block: string[] | null = null;
  for (const row of rows) {
    const answer = rules.tool?.test(row) ? null : rules.answer.exec(row);
    if (answer !== null) {
      block = [answer[1]];
      last = block;
      continue;
    }
    if (rules.tool?.test(row) || rules.chrome.some((re) => re.test(row))) {
      block = null;
      continue;
    }
    const more = rules.continuation?.exec(row);
    if (block !== null && more) block.push(more[1]);
    else if (block !== null && row.trim() === "") block.push("");
    else block = null;
  }
  if (last === null) return null;
  while (last.length > 0 && last[last.length - 1].trim() === "") last.pop();
  return last.join("\n").trim() || null;
}

/** The rows of `rows` that are neither chrome nor bare prompts nor the echo, trimmed. */
function plainReply(rows: readonly string[], rules: TurnScreenRules): string | null {
  const kept = rows.filter((row) =>
    !rules.chrome.some((re) => re.test(row)) && rules.promptEcho.exec(row)?.[1]?.trim() !== ""
  );
  while (kept.length > 0 && kept[0].trim() === "") kept.shift();
  while (kept.length > 0 && kept[kept.length - 1].trim() === "") kept.pop();
  return kept.join("\n").trim() || null;
}

/**
 * How the turn that `prompt` started ended, per `screen` (the pane's rows, oldest first):
 * `interrupted` when the agent shows it so, or shows no reply for it; else `completed` with the
 * reply shown (the agent's last answer block, else the turn's rows without the agent's chrome).
 */
export function screenTurnEnd(
  agent: Agent | null,
  screen: string,
  prompt: string | null,
): ScreenTurnEnd {
  const rules = agent === null ? GENERIC : TURN_SCREEN_RULES[agent] ?? GENERIC;
  const rows = turnRows(screen.split("\n"), rules, prompt);
  if (rows.some((row) => rules.interrupted.test(row))) {
    return { outcome: "interrupted", reply: null };
  }
  const reply = lastAnswer(rows, rules) ?? plainReply(rows, rules);
  return reply === null ? { outcome: "interrupted", reply: null } : { outcome: "completed", reply };
}
