/**
 * Looks up the rule data of an agent and evaluates screen rules against a pane title and screen.
 */
import type { Agent } from "../../base/types.ts";
import { CLAUDE_RULES } from "./claude.ts";
import { CODEX_RULES } from "./codex.ts";
import type { AgentRules, CpuThresholds, ScreenKind, ScreenRule } from "./types.ts";

export type { AgentRules, BlockedKind, CpuThresholds, ScreenKind, ScreenRule } from "./types.ts";
export { BLOCKED_KINDS } from "./types.ts";

/** Rules of every known agent. */
export const AGENT_RULES: Readonly<Record<Agent, AgentRules>> = {
  claude: CLAUDE_RULES,
  codex: CODEX_RULES,
};

/** CPU thresholds for a pane without an agent (`--command` sessions): any real work counts. */
export const COMMAND_CPU: CpuThresholds = { idleMaxPercent: 1, busyMinPercent: 5 };

/** The rule data of `agent`. */
export function rulesFor(agent: Agent): AgentRules {
  return AGENT_RULES[agent];
}

/** One rule that matched. */
export interface ScreenMatch {
  name: string;
  kind: ScreenKind;
  source: "title" | "screen" | "hook";
  /** The `resets` group of the rule, when it has one and it matched. */
  resets?: string;
}

const compiled = new Map<string, RegExp>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function regexOf(rule: ScreenRule, folder: string): RegExp {
  const source = rule.pattern.replaceAll("{folder}", escapeRegExp(folder));
  const key = `${rule.flags ?? ""}/${source}`;
  let re = compiled.get(key);
  if (re === undefined) {
    re = new RegExp(source, `${rule.flags ?? ""}${rule.flags?.includes("u") ? "" : "u"}`);
    compiled.set(key, re);
  }
  return re;
}

function staleRegex(source: string): RegExp {
  const key = `stale/${source}`;
  let re = compiled.get(key);
  if (re === undefined) {
    re = new RegExp(source, "mu");
    compiled.set(key, re);
  }
  return re;
}

/**
 * The last match of `re` in `text` that is not stale (see {@link ScreenRule.staleAfter}); null
 * when there is none.
 */
function freshMatch(
  re: RegExp,
  text: string,
  staleAfter: string | undefined,
): RegExpExecArray | null {
  if (staleAfter === undefined) return re.exec(text);
  const key = `all/${re.flags}/${re.source}`;
  let all = compiled.get(key);
  if (all === undefined) {
    all = new RegExp(re.source, re.flags.includes("g") ? re.flags : `${re.flags}g`);
    compiled.set(key, all);
  }
  let last: RegExpExecArray | null = null;
  for (const m of text.matchAll(all)) last = m as RegExpExecArray;
  if (last === null) return null;
  const end = text.indexOf("\n", last.index + last[0].length);
  const after = end < 0 ? "" : text.slice(end + 1);
  return staleRegex(staleAfter).test(after) ? null : last;
}

/**
 * True when `text` holds one of a rule's `needles`. For an "i" rule the text is lower-cased once
 * per call (`folded` keeps it) with "ſ" as "s": besides the ASCII upper-case letters, U+017F
 * and the Kelvin sign (which `toLowerCase` turns into "k") are the only characters an `iu`
 * regexp matches against an ASCII letter, so a needle never rules out a match.
 */
function holdsNeedle(
  needles: readonly string[],
  flags: string | undefined,
  text: string,
  folded: Map<string, string>,
): boolean {
  let hay = text;
  if (flags?.includes("i")) {
    hay = folded.get(text) ?? text.toLowerCase().replaceAll("ſ", "s");
    folded.set(text, hay);
  }
  return needles.some((needle) => hay.includes(needle));
}

/**
 * Every rule of `rules` that matches: title rules against `title`, screen rules against
 * `screen` (the visible rows), hook rules against `hookMessage` (the message of a failed turn's
 * hook, "" when none). `folder` fills `{folder}`; a rule that needs it is skipped when it is
 * empty. Order follows the rule list.
 */
export function matchScreen(
  rules: readonly ScreenRule[],
  title: string,
  screen: string,
  folder: string,
  hookMessage = "",
): ScreenMatch[] {
  const out: ScreenMatch[] = [];
  const folded = new Map<string, string>();
  for (const rule of rules) {
    if (rule.pattern.includes("{folder}") && folder === "") continue;
    const text = rule.source === "title" ? title : rule.source === "hook" ? hookMessage : screen;
    if (text === "") continue;
    if (rule.needles !== undefined && !holdsNeedle(rule.needles, rule.flags, text, folded)) {
      continue;
    }
    const m = freshMatch(regexOf(rule, folder), text, rule.staleAfter);
    if (m !== null) {
      const resets = m.groups?.resets?.trim();
      out.push({
        name: rule.name,
        kind: rule.kind,
        source: rule.source,
        ...(resets ? { resets } : {}),
      });
    }
  }
  return out;
}
