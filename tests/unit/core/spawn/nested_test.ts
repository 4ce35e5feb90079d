import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  analyzePrompt,
  CODEX_BYPASS_FLAG,
  detectNested,
  explainPrompt,
  type NestedReason,
  resolveNestedPolicy,
  rewritePrompt,
} from "../../../../src/core/spawn/nested.ts";

interface Row {
  prompt: string;
  reason: NestedReason;
  hint?: string | null;
}

// Each phrase with the reason the heuristic must give (codex exec, so eligible is true).
const TABLE: Row[] = [
  // Instructions to run lisa.
  { prompt: "Run ./lisa session spawn --agent codex", reason: "prompt_contains_dot_slash_lisa" },
  {
    prompt: "Use ./lisa to spawn a child agent.",
    reason: "prompt_contains_dot_slash_lisa",
    hint: "./lisa",
  },
  {
    prompt: "./lisa session spawn --agent codex --mode exec --prompt hi",
    reason: "prompt_contains_dot_slash_lisa",
    hint: "./lisa session spawn",
  },
  {
    prompt: "Call lisa session spawn with --project-root /repo.",
    reason: "prompt_contains_lisa_session_spawn",
    hint: "lisa session spawn",
  },
  {
    prompt: "Then run lisa session monitor until it completes.",
    reason: "prompt_contains_lisa_command",
  },
  {
    prompt: "Run `./lisa session spawn --agent claude`.",
    reason: "prompt_contains_dot_slash_lisa",
  },
  {
    prompt: 'Execute "./lisa session list --json" and report.',
    reason: "prompt_contains_dot_slash_lisa",
  },
  { prompt: "Invoke ../lisa session tree --json", reason: "prompt_contains_dot_slash_lisa" },
  {
    prompt: "Start the child with /usr/local/bin/lisa session spawn",
    reason: "prompt_contains_dot_slash_lisa",
  },
  { prompt: "Please run lisa cleanup --dry-run first.", reason: "prompt_contains_lisa_command" },
  {
    prompt: "Steps:\n```sh\n./lisa session spawn --agent codex\n```",
    reason: "prompt_contains_dot_slash_lisa",
  },
  {
    prompt: "Do not run ./lisa here. Run ./lisa session spawn instead.",
    reason: "prompt_contains_dot_slash_lisa",
  },
  {
    prompt: "Don't edit the docs but run ./lisa session kill",
    reason: "prompt_contains_dot_slash_lisa",
  },
  {
    prompt: "Start a nested lisa session for the tests.",
    reason: "prompt_contains_nested_lisa",
    hint: "nested lisa",
  },
  {
    prompt: "This is a nested-lisa run: orchestrate children.",
    reason: "prompt_contains_nested_lisa",
  },
  // Negated mentions.
  { prompt: "do not run ./lisa", reason: "negated_mention", hint: "./lisa" },
  { prompt: "Never use ./lisa here.", reason: "negated_mention" },
  { prompt: "Don't call lisa session spawn from the agent.", reason: "negated_mention" },
  { prompt: "Avoid ./lisa session kill-all at all costs.", reason: "negated_mention" },
  { prompt: "Fix the bug without using ./lisa", reason: "negated_mention" },
  { prompt: "You must not invoke ./lisa session spawn.", reason: "negated_mention" },
  { prompt: "You should never start a nested lisa session.", reason: "negated_mention" },
  { prompt: "No nested lisa calls, please.", reason: "negated_mention" },
  { prompt: "Please don’t run ./lisa (curly apostrophe).", reason: "negated_mention" },
  // Documentation mentions.
  { prompt: "The string './lisa' appears in docs only.", reason: "documentation_mention" },
  {
    prompt: "README mentions ./lisa session spawn as an example.",
    reason: "documentation_mention",
  },
  { prompt: "The word ./lisa refers to the repo binary.", reason: "documentation_mention" },
  {
    prompt: "Update the CHANGELOG: ./lisa is mentioned in the docs.",
    reason: "documentation_mention",
  },
  // Quoted mentions without a run verb.
  { prompt: "Rename every `./lisa` occurrence to `./tool`.", reason: "quoted_mention" },
  { prompt: 'Fix the typo in "lisa session spawn" help text.', reason: "quoted_mention" },
  { prompt: "The title should be 'nested lisa' in bold.", reason: "quoted_mention" },
  // No hint at all.
  { prompt: "Use lisa inside of lisa inside as well.", reason: "no_nested_hint", hint: null },
  { prompt: "Refactor the parser and run the tests.", reason: "no_nested_hint", hint: null },
  { prompt: "Ask Lisa about the lisa project roadmap.", reason: "no_nested_hint" },
  { prompt: "Check the lisa session status in the dashboard.", reason: "no_nested_hint" },
  { prompt: "Open https://github.com/acme/lisa and read it.", reason: "no_nested_hint" },
  { prompt: "Edit src/lisa/main.ts and /tmp/lisa-1000/x.", reason: "no_nested_hint" },
  { prompt: "Read ./lisa.ts for context.", reason: "no_nested_hint" },
  { prompt: "", reason: "no_nested_hint" },
];

for (const row of TABLE) {
  Deno.test(`detect-nested gives ${row.reason} for ${JSON.stringify(row.prompt)}`, () => {
    const d = detectNested("codex", "exec", row.prompt);
    strictEqual(d.reason, row.reason);
    strictEqual(d.promptReason, row.reason);
    strictEqual(d.eligible, true);
    strictEqual(
      d.autoBypass,
      row.reason.startsWith("prompt_contains_"),
    );
    if (row.hint !== undefined) strictEqual(d.matchedHint, row.hint);
    if (row.reason === "no_nested_hint") strictEqual(d.matchedHint, null);
  });
}

Deno.test("detect-nested treats a null prompt as no hint", () => {
  deepStrictEqual(analyzePrompt(null), {
    nested: false,
    reason: "no_nested_hint",
    matchedHint: null,
  });
});

Deno.test("detect-nested is not eligible for claude or codex interactive, whatever the prompt", () => {
  for (
    const [agent, mode] of [["claude", "exec"], ["claude", "interactive"], [
      "codex",
      "interactive",
    ]] as const
  ) {
    const d = detectNested(agent, mode, "Run ./lisa session spawn");
    strictEqual(d.eligible, false);
    strictEqual(d.autoBypass, false);
    strictEqual(d.reason, "not_codex_exec");
    strictEqual(d.promptReason, "prompt_contains_dot_slash_lisa");
  }
});

const NESTED = "Run ./lisa session spawn --agent codex";
const PLAIN = "Fix the tests.";

Deno.test("nested policy auto adds the codex bypass only when the prompt instructs lisa", () => {
  const yes = resolveNestedPolicy({ agent: "codex", mode: "exec", prompt: NESTED });
  deepStrictEqual(yes.bypassArgs, [CODEX_BYPASS_FLAG]);
  strictEqual(yes.decision, "auto_detected");
  const no = resolveNestedPolicy({ agent: "codex", mode: "exec", prompt: "do not run ./lisa" });
  deepStrictEqual(no.bypassArgs, []);
  strictEqual(no.decision, "no_instruction");
  strictEqual(no.detection.reason, "negated_mention");
});

Deno.test("nested policy force adds the bypass even for a plain prompt", () => {
  const r = resolveNestedPolicy({ agent: "codex", mode: "exec", prompt: PLAIN, policy: "force" });
  deepStrictEqual(r.bypassArgs, [CODEX_BYPASS_FLAG]);
  strictEqual(r.decision, "policy_force");
  strictEqual(r.detection.reason, "nested_policy_force");
  strictEqual(r.detection.promptReason, "no_nested_hint");
});

Deno.test("nested policy off never adds the bypass, whatever the intent", () => {
  for (const intent of ["auto", "nested", "neutral"] as const) {
    const r = resolveNestedPolicy({
      agent: "codex",
      mode: "exec",
      prompt: NESTED,
      policy: "off",
      intent,
    });
    deepStrictEqual(r.bypassArgs, []);
    strictEqual(r.decision, "policy_off");
    strictEqual(r.detection.reason, "nested_policy_off");
  }
});

Deno.test("nesting intent nested forces and neutral suppresses the bypass under policy auto", () => {
  const nested = resolveNestedPolicy({
    agent: "codex",
    mode: "exec",
    prompt: PLAIN,
    intent: "nested",
  });
  deepStrictEqual(nested.bypassArgs, [CODEX_BYPASS_FLAG]);
  strictEqual(nested.decision, "intent_nested");
  strictEqual(nested.detection.reason, "nesting_intent_nested");
  const neutral = resolveNestedPolicy({
    agent: "codex",
    mode: "exec",
    prompt: NESTED,
    intent: "neutral",
  });
  deepStrictEqual(neutral.bypassArgs, []);
  strictEqual(neutral.decision, "intent_neutral");
  strictEqual(neutral.detection.reason, "nesting_intent_neutral");
  strictEqual(neutral.detection.autoBypass, true);
});

Deno.test("nested policy adds nothing for claude, codex interactive or a custom command", () => {
  const claude = resolveNestedPolicy({
    agent: "claude",
    mode: "exec",
    prompt: NESTED,
    policy: "force",
  });
  deepStrictEqual(claude.bypassArgs, []);
  strictEqual(claude.decision, "not_eligible");
  const interactive = resolveNestedPolicy({ agent: "codex", mode: "interactive", prompt: NESTED });
  deepStrictEqual(interactive.bypassArgs, []);
  const custom = resolveNestedPolicy({
    agent: "codex",
    mode: "exec",
    prompt: NESTED,
    policy: "force",
    customCommand: true,
  });
  deepStrictEqual(custom.bypassArgs, []);
  strictEqual(custom.decision, "custom_command");
});

Deno.test("nested policy defaults to auto/auto and reports them", () => {
  const r = resolveNestedPolicy({ agent: "codex", mode: "exec", prompt: PLAIN });
  strictEqual(r.policy, "auto");
  strictEqual(r.intent, "auto");
});

Deno.test("detect-nested --why lists each mention with its classification", () => {
  deepStrictEqual(explainPrompt("Use lisa inside of lisa inside as well."), []);
  const spans = explainPrompt("Do not run ./lisa here. Run ./lisa session spawn instead.");
  deepStrictEqual(spans.map((s) => [s.text, s.reason, s.trigger]), [
    ["./lisa", "negated_mention", false],
    ["./lisa session spawn", "prompt_contains_dot_slash_lisa", true],
  ]);
  strictEqual(spans[1].start, 28);
});

Deno.test("detect-nested --rewrite suggests verified rewrites in the other direction", () => {
  const trigger = rewritePrompt("Use lisa inside of lisa inside as well.");
  strictEqual(trigger.length > 0, true);
  for (const r of trigger) {
    strictEqual(r.intent, "trigger");
    strictEqual(analyzePrompt(r.prompt).nested, true, r.prompt);
  }
  const neutral = rewritePrompt("Use ./lisa for child orchestration.");
  strictEqual(neutral.length > 0, true);
  for (const r of neutral) {
    strictEqual(r.intent, "neutral");
    strictEqual(analyzePrompt(r.prompt).nested, false, r.prompt);
  }
});
