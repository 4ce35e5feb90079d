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

/**
 * Why the heuristic decided as it did (snake_case, stable). The instruction reasons carry the
 * older Go lisa's names (`prompt_contains_dot_slash_lisa` for a path such as `./lisa`,
 * `prompt_contains_lisa_session_spawn`, `prompt_contains_nested_lisa`), plus
 * `prompt_contains_lisa_command` for other `lisa session <verb>` / `lisa cleanup` commands; the
 * excluded mentions (negated, documentation, quoted) are lisa's own.
 */
export type NestedReason =
  | ExplicitReason
  | "prompt_contains_nested_lisa"
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
  /**
   * The prompt's reason ({@link NestedReason}); `not_codex_exec` when the agent/mode cannot take
   * the bypass; in spawn's answer, the policy's or intent's reason when they decided.
   */
  reason: NestedReason | DecisionReason;
  /** What the prompt alone gave (the reason a decision reason replaced). */
  promptReason: NestedReason;
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

/** The reasons of an explicit lisa command in the prompt. */
type ExplicitReason =
  | "prompt_contains_dot_slash_lisa"
  | "prompt_contains_lisa_session_spawn"
  | "prompt_contains_lisa_command";

/** `nestedDetection.reason` when the policy, the intent or the agent/mode decided. */
export type DecisionReason =
  | "nested_policy_force"
  | "nested_policy_off"
  | "nesting_intent_nested"
  | "nesting_intent_neutral"
  | "not_codex_exec";

interface HintPattern {
  re: RegExp;
  reason: "path" | "command" | "prompt_contains_nested_lisa";
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
    reason: "path",
  },
  {
    // "the lisa session status" is a noun phrase; "run lisa session status" is a command.
    re: new RegExp(
      `(?<![\\w/.-])(?<!\\b(?:the|a|an|this|that|each|every|its|their|your|my|our)\\s+)lisa${VERB}`,
      "gi",
    ),
    reason: "command",
  },
  { re: /\bnested[\s-]+lisa\b/gi, reason: "prompt_contains_nested_lisa" },
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
      const text = normalise(m[0]);
      found.push({ index: m.index, text, reason: hintReason(hint.reason, text) });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

function hintReason(kind: HintPattern["reason"], text: string): NestedReason {
  if (kind === "path") return "prompt_contains_dot_slash_lisa";
  if (kind === "command") {
    return /\bsession spawn\b/.test(text)
      ? "prompt_contains_lisa_session_spawn"
      : "prompt_contains_lisa_command";
  }
  return kind;
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

const EXPLICIT: ReadonlySet<NestedReason> = new Set([
  "prompt_contains_dot_slash_lisa",
  "prompt_contains_lisa_session_spawn",
  "prompt_contains_lisa_command",
]);
const POSITIVE: ReadonlySet<NestedReason> = new Set([...EXPLICIT, "prompt_contains_nested_lisa"]);

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
  const positive = classified.find((c) => EXPLICIT.has(c.reason)) ??
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
    reason: eligible ? analysis.reason : "not_codex_exec",
    promptReason: analysis.reason,
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

/** The `nestedDetection.reason` of decisions taken by policy or intent (Go lisa's names). */
const DECISION_REASONS: Partial<Record<NestedDecision, DecisionReason>> = {
  policy_force: "nested_policy_force",
  policy_off: "nested_policy_off",
  intent_nested: "nesting_intent_nested",
  intent_neutral: "nesting_intent_neutral",
};

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
  const detected = detectNested(input.agent, input.mode, input.prompt);
  const result = (decision: NestedDecision, bypass: boolean): NestedPolicyResult => ({
    bypassArgs: bypass ? [CODEX_BYPASS_FLAG] : [],
    detection: DECISION_REASONS[decision] === undefined
      ? detected
      : { ...detected, reason: DECISION_REASONS[decision]! },
    policy,
    intent,
    decision,
  });
  if (input.customCommand) return result("custom_command", false);
  if (!detected.eligible) return result("not_eligible", false);
  if (policy === "off") return result("policy_off", false);
  if (policy === "force") return result("policy_force", true);
  if (intent === "nested") return result("intent_nested", true);
  if (intent === "neutral") return result("intent_neutral", false);
  return detected.autoBypass ? result("auto_detected", true) : result("no_instruction", false);
}

/** One mention of lisa in a prompt and what it counted as (`detect-nested --why`). */
export interface NestedSpan {
  start: number;
  end: number;
  text: string;
  reason: NestedReason;
  /** True when this mention reads as an instruction (it would trigger the bypass). */
  trigger: boolean;
}

/**
 * Every lisa mention of `prompt` with its classification, in prompt order; empty when nothing
 * looked like a mention (e.g. "Use lisa inside of lisa inside as well.").
 */
export function explainPrompt(prompt: string): NestedSpan[] {
  const starts = clauseStarts(prompt);
  const quotes = quotedSpans(prompt);
  return findMentions(prompt).map((m) => {
    const reason = classify(prompt, starts, quotes, m);
    return {
      start: m.index,
      end: m.index + m.text.length,
      text: prompt.slice(m.index, m.index + m.text.length),
      reason,
      trigger: POSITIVE.has(reason),
    };
  });
}

/** A suggested rewrite of a prompt (`detect-nested --rewrite`), checked by the detector. */
export interface PromptRewrite {
  prompt: string;
  /** What the rewrite does: `trigger` (adds the bypass) or `neutral` (avoids it). */
  intent: "trigger" | "neutral";
  reason: NestedReason;
  autoBypass: boolean;
}

/**
 * Rewrites of `prompt` that make the detector trigger (when it does not) or stay neutral (when
 * it does), each verified by analysing it again; only rewrites that do what they say are kept.
 */
export function rewritePrompt(prompt: string): PromptRewrite[] {
  const base = prompt.trim();
  const nested = analyzePrompt(base).nested;
  const candidates: { prompt: string; intent: PromptRewrite["intent"] }[] = nested
    ? [
      {
        prompt: base.replace(/(?<![\w/.~-])(?:\.\.?\/|~\/)lisa/gi, "the lisa tool")
          .replace(/\bnested[\s-]+lisa\b/gi, "nested orchestration")
          .replace(/\blisa(\s+session\s+[a-z-]+)/gi, "the lisa$1 command"),
        intent: "neutral",
      },
      { prompt: `${base} (Do not run lisa yourself.)`, intent: "neutral" },
    ]
    : [
      { prompt: `Use ./lisa for child orchestration. ${base}`, intent: "trigger" },
      { prompt: `Run lisa session spawn for child sessions. ${base}`, intent: "trigger" },
      { prompt: `${base} Build a nested lisa chain for the children.`, intent: "trigger" },
    ];
  const out: PromptRewrite[] = [];
  for (const c of candidates) {
    const a = analyzePrompt(c.prompt);
    if (a.nested !== (c.intent === "trigger") || c.prompt === base) continue;
    if (out.some((o) => o.prompt === c.prompt)) continue;
    out.push({ prompt: c.prompt, intent: c.intent, reason: a.reason, autoBypass: a.nested });
  }
  return out;
}
