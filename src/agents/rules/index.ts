/**
 * Looks up the rule data of an agent and evaluates screen rules against a pane title and screen.
 */
import type { Agent } from "../../base/types.ts";
import { CLAUDE_RULES } from "./claude.ts";
import { CODEX_RULES } from "./codex.ts";
import type { AgentRules, CpuThresholds, ScreenKind, ScreenRule } from "./types.ts";

export type { AgentRules, CpuThresholds, ScreenKind, ScreenRule } from "./types.ts";

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
  source: "title" | "screen";
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

/**
 * Every rule of `rules` that matches: title rules against `title`, screen rules against
 * `screen` (the visible rows). `folder` fills `{folder}`; a rule that needs it is skipped when
 * it is empty. Order follows the rule list.
 */
export function matchScreen(
  rules: readonly ScreenRule[],
  title: string,
  screen: string,
  folder: string,
): ScreenMatch[] {
  const out: ScreenMatch[] = [];
  for (const rule of rules) {
    if (rule.pattern.includes("{folder}") && folder === "") continue;
    const text = rule.source === "title" ? title : screen;
    if (text === "") continue;
    if (regexOf(rule, folder).test(text)) {
      out.push({ name: rule.name, kind: rule.kind, source: rule.source });
    }
  }
  return out;
}
