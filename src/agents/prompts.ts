/**
 * The prompts agents report in their hooks, compared with what lisa sent: which prompt is the
 * text a send typed, and which one the agent gave itself. Pure; shared by `send`'s receipt,
 * `send --wait` and history.
 */

/**
 * Prompts an agent gives itself when work a turn started in the background ends (claude's
 * `<task-notification>`): the turn they open is the agent's own, not a person's. Data, so a
 * new agent version is a data change.
 */
export const AGENTS_OWN_PROMPTS: readonly RegExp[] = [/^\s*<task-notification>/];

/** True when `prompt` is one the agent gave itself ({@link AGENTS_OWN_PROMPTS}). */
export function isAgentsOwnPrompt(prompt: string): boolean {
  return AGENTS_OWN_PROMPTS.some((re) => re.test(prompt));
}

/** Whitespace runs as one space, trimmed. */
function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * True when the prompt an agent reports (`reported`, maybe cut to fit its hook line) is the
 * text that was sent, whitespace flattened: equal, or (one of them at least 120 characters
 * long, so a cut is possible) equal over all of the shorter one. Two prompts that share a long
 * preamble but end differently never match. A prompt claude shows as a paste placeholder also
 * matches.
 */
export function promptMatches(reported: string | undefined | null, sent: string): boolean {
  if (reported === undefined || reported === null) return true;
  const a = flat(reported);
  const b = flat(sent);
  // Nothing typed (`--wait` with keys only, e.g. answering a dialog): any prompt is the turn's.
  if (b === "") return true;
  if (a.startsWith("[Pasted text")) return true;
  const n = Math.min(a.length, b.length);
  return a.length > 0 && b.length > 0 && a.slice(0, n) === b.slice(0, n) &&
    (a.length >= 120 || b.length >= 120 || a === b);
}
