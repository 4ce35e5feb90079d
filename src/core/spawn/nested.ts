/**
 * Nested-lisa detection and the nested policy (seed 003, DESIGN §9 item 11).
 *
 * A codex exec agent runs its shell commands in a workspace-write sandbox, which cannot reach
 * lisa's tmux socket; a prompt that tells the agent to run lisa therefore needs codex's
 * sandbox bypass. The old tool added that bypass whenever the prompt merely contained "./lisa",
 * even in "do not run ./lisa". Here a mention counts only when it reads as an instruction:
 * negated, documentation and quoted mentions are reported but never trigger the bypass, and the
 * decision is always visible (`nestedDetection`, `nestedBypass`). Pure: no I/O.
 */
import type { Agent, Mode, NestedPolicy, NestingIntent } from "../../base/types.ts";

/** The codex flag that lets a nested lisa call reach the tmux socket (codex 0.169). */
export const CODEX_BYPASS_FLAG = "--dangerously-bypass-approvals-and-sandbox";

/** Why the heuristic decided as it did (snake_case, stable). */
export type NestedReason =
  | "explicit_lisa_command"
  | "nested_lisa_phrase"
  | "negated_mention"
  | "documentation_mention"
  | "quoted_mention"
  | "no_nested_hint";

/** What the prompt heuristic found (the `nestedDetection` JSON object). */
export interface NestedDetection {
  /** True when the agent/mode can take the bypass at all (codex exec). */
  eligible: boolean;
  /** True when detection alone would add the bypass (eligible and an instruction was found). */
  autoBypass: boolean;
  reason: NestedReason;
  /** The mention that decided the reason (normalised: lowercased, spaces collapsed), or null. */
  matchedHint: string | null;
}

/** The result of analysing a prompt, independent of agent and mode. */
export interface PromptAnalysis {
  /** True when the prompt instructs the agent to run lisa. */
  nested: boolean;
  reason: NestedReason;
  matchedHint: string | null;
}

interface HintPattern {
  re: RegExp;
  reason: "explicit_lisa_command" | "nested_lisa_phrase";
}

// Path forms (./lisa, ../lisa, /usr/local/bin/lisa), `lisa session <verb>`, `lisa cleanup`, and
// the phrase "nested lisa". A bare "lisa" is a name, not an instruction.
const VERBS =
  "spawn|send|status|explain|monitor|capture|snapshot|list|exists|kill|kill-all|tree|smoke|detect-nested|guard|name";
const VERB = `(?:(?:\\s+session\\s+(?:${VERBS})|\\s+(?:cleanup|doctor))(?![\\w-]))`;
const HINTS: readonly HintPattern[] = [
  {
    re: new RegExp(
      `(?<![\\w/.~-])(?:\\.\\.?/|~/|/(?:[\\w.-]+/)*)lisa(?![\\w/-]|\\.\\w)${VERB}?`,
      "gi",
    ),
    reason: "explicit_lisa_command",
  },
  {
    // "the lisa session status" is a noun phrase; "run lisa session status" is a command.
    re: new RegExp(
      `(?<![\\w/.-])(?<!\\b(?:the|a|an|this|that|each|every|its|their|your|my|our)\\s+)lisa${VERB}`,
      "gi",
    ),
    reason: "explicit_lisa_command",
  },
  { re: /\bnested[\s-]+lisa\b/gi, reason: "nested_lisa_phrase" },
];

// Words that negate what follows them in the same clause.
const NEGATION_RE =
  /(?:\b(?:do|does|did|must|should|shall|will|can|could|would|may)\s+not\b|\b(?:don|doesn|didn|mustn|shouldn|won|can|couldn|wouldn|isn|aren)['’]?t\b|\bcannot\b|\bnever\b|\bavoid(?:s|ed|ing)?\b|\bwithout\b|\brefrain\b|\bnot\b|\bno\b|\bnor\b)/i;

// A clause that talks about the text rather than asking to run it.
const DOC_RE =
  /\b(?:appears?|appearing|occurs?|shows? up)\s+(?:only\s+)?in\b|\bmention(?:s|ed|ing)?\b|\bthe\s+(?:string|word|text|phrase|term|token|literal|substring)\b|\b(?:docs?|documentation|readme|changelog|comments?)\s+only\b|\bin\s+(?:the\s+)?(?:docs|documentation|readme|changelog)\b|\brefers?\s+to\b|\bliterally\b/i;

// Verbs that, right before a quoted command, make it an instruction ("Run `./lisa …`").
const RUN_VERB_BEFORE_RE =
  /\b(?:run|runs|running|execute|exec|call|invoke|use|using|launch|start|spawn|try|type|via|with)\s*:?\s*$/i;

// Clause boundaries: sentence ends, semicolons, line breaks, and contrast/sequence words after
// which an earlier negation no longer applies.
const CLAUSE_BREAK_RE = /[.!?](?=\s|$)|[;\n]|\s(?:but|however|instead|then|and then|otherwise)\s/gi;

interface Span {
  start: number;
  end: number;
}

/** Spans of inline quotes: `…`, "…", “…”, and '…' used as quotes (not apostrophes). */
function quotedSpans(text: string): Span[] {
  const spans: Span[] = [];
  const patterns = [
    /`[^`\n]+`/g,
    /"[^"\n]*"/g,
    /“[^”\n]*”/g,
    /‘[^’\n]*’/g,
    /(?<![\w'])'[^'\n]*'(?![\w'])/g,
  ];
  // Fenced blocks are commands to run, not quotations: blank them out of the inline scan.
  const unfenced = text.replace(/```[\s\S]*?```/g, (m) => " ".repeat(m.length));
  for (const re of patterns) {
    for (const m of unfenced.matchAll(re)) {
      spans.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  return spans;
}

/** Start offsets of the clauses of `text` (sorted, first is 0). */
function clauseStarts(text: string): number[] {
  const starts = [0];
  for (const m of text.matchAll(CLAUSE_BREAK_RE)) starts.push(m.index + m[0].length);
  return starts;
}

function clauseOf(starts: number[], text: string, pos: number): Span {
  let start = 0;
  let end = text.length;
  for (const s of starts) {
    if (s <= pos) start = s;
    else {
      end = s;
      break;
    }
  }
  return { start, end };
}

interface Mention {
  index: number;
  text: string;
  reason: NestedReason;
}

function findMentions(prompt: string): Mention[] {
  const found: Mention[] = [];
  const taken: Span[] = [];
  for (const hint of HINTS) {
    for (const m of prompt.matchAll(hint.re)) {
      const span = { start: m.index, end: m.index + m[0].length };
      if (taken.some((t) => span.start < t.end && t.start < span.end)) continue;
      taken.push(span);
      found.push({ index: m.index, text: normalise(m[0]), reason: hint.reason });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** Classifies one mention: negated, documentation, quoted, or the instruction it looks like. */
function classify(prompt: string, starts: number[], quotes: Span[], m: Mention): NestedReason {
  const clause = clauseOf(starts, prompt, m.index);
  const before = prompt.slice(clause.start, m.index);
  if (NEGATION_RE.test(before)) return "negated_mention";
  if (DOC_RE.test(prompt.slice(clause.start, clause.end))) return "documentation_mention";
  const quote = quotes.find((q) => q.start <= m.index && m.index < q.end);
  if (quote !== undefined) {
    const lead = prompt.slice(clause.start, quote.start);
    if (!RUN_VERB_BEFORE_RE.test(lead)) return "quoted_mention";
  }
  return m.reason;
}

const POSITIVE: ReadonlySet<NestedReason> = new Set([
  "explicit_lisa_command",
  "nested_lisa_phrase",
]);

/**
 * Decides whether `prompt` instructs the agent to run lisa. The first instruction wins (an
 * explicit command over the phrase); without one, the first excluded mention gives the reason
 * (`negated_mention`, `documentation_mention`, `quoted_mention`), else `no_nested_hint`.
 */
export function analyzePrompt(prompt: string | null | undefined): PromptAnalysis {
  const text = prompt ?? "";
  const mentions = findMentions(text);
  if (mentions.length === 0) return { nested: false, reason: "no_nested_hint", matchedHint: null };
  const starts = clauseStarts(text);
  const quotes = quotedSpans(text);
  const classified = mentions.map((m) => ({ m, reason: classify(text, starts, quotes, m) }));
  const positive = classified.find((c) => c.reason === "explicit_lisa_command") ??
    classified.find((c) => POSITIVE.has(c.reason));
  if (positive) return { nested: true, reason: positive.reason, matchedHint: positive.m.text };
  const first = classified[0];
  return { nested: false, reason: first.reason, matchedHint: first.m.text };
}

/** True when `agent`/`mode` can take the bypass: codex exec, the one mode lisa sandboxes. */
export function bypassEligible(agent: Agent, mode: Mode): boolean {
  return agent === "codex" && mode === "exec";
}

/** The `nestedDetection` object for `prompt` run by `agent` in `mode`. */
export function detectNested(
  agent: Agent,
  mode: Mode,
  prompt: string | null | undefined,
): NestedDetection {
  const analysis = analyzePrompt(prompt);
  const eligible = bypassEligible(agent, mode);
  return {
    eligible,
    autoBypass: eligible && analysis.nested,
    reason: analysis.reason,
    matchedHint: analysis.matchedHint,
  };
}

/** Inputs of {@link resolveNestedPolicy}. */
export interface NestedPolicyInput {
  agent: Agent;
  mode: Mode;
  prompt: string | null | undefined;
  /** Default "auto". */
  policy?: NestedPolicy;
  /** Default "auto". */
  intent?: NestingIntent;
  /** True when `--command` replaces the agent command (no agent flags can be added). */
  customCommand?: boolean;
}

/** Why the bypass was or was not added. */
export type NestedDecision =
  | "policy_force"
  | "policy_off"
  | "intent_nested"
  | "intent_neutral"
  | "auto_detected"
  | "no_instruction"
  | "not_eligible"
  | "custom_command";

/** What spawn needs from the nested policy. */
export interface NestedPolicyResult {
  /** Flags to append to the agent command (empty unless the bypass applies). */
  bypassArgs: string[];
  detection: NestedDetection;
  policy: NestedPolicy;
  intent: NestingIntent;
  decision: NestedDecision;
}

/**
 * Resolves `--nested-policy` and `--nesting-intent` for one spawn. The bypass
 * ({@link CODEX_BYPASS_FLAG}) is added only for codex exec, and only when policy is force, or
 * policy is auto and (intent is nested, or intent is auto and the prompt instructs the agent to
 * run lisa). Claude needs nothing extra: it already runs with `--dangerously-skip-permissions`.
 */
export function resolveNestedPolicy(input: NestedPolicyInput): NestedPolicyResult {
  const policy = input.policy ?? "auto";
  const intent = input.intent ?? "auto";
  const detection = detectNested(input.agent, input.mode, input.prompt);
  const result = (decision: NestedDecision, bypass: boolean): NestedPolicyResult => ({
    bypassArgs: bypass ? [CODEX_BYPASS_FLAG] : [],
    detection,
    policy,
    intent,
    decision,
  });
  if (input.customCommand) return result("custom_command", false);
  if (!detection.eligible) return result("not_eligible", false);
  if (policy === "off") return result("policy_off", false);
  if (policy === "force") return result("policy_force", true);
  if (intent === "nested") return result("intent_nested", true);
  if (intent === "neutral") return result("intent_neutral", false);
  return detection.autoBypass ? result("auto_detected", true) : result("no_instruction", false);
}
