/** `lisa session detect-nested`: what the nested-lisa heuristic and policy make of a prompt. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { choiceArg } from "../../options.ts";
import { AGENTS, MODES } from "../../../base/types.ts";
import {
  NESTED_POLICIES,
  NESTING_INTENTS,
  resolveNestedPolicy,
} from "../../../core/spawn/nested.ts";

/** Registers `lisa session detect-nested`. */
export function registerDetectNested(session: Command, ctx: CliContext): void {
  session
    .command("detect-nested")
    .description("show whether a prompt would make spawn add the codex sandbox bypass")
    .requiredOption("--prompt <text>", "the prompt to analyse")
    .option("--agent <agent>", "claude|codex", choiceArg(AGENTS), "codex" as const)
    .option("--mode <mode>", "interactive|exec", choiceArg(MODES), "exec" as const)
    .option(
      "--nested-policy <policy>",
      "auto|force|off",
      choiceArg(NESTED_POLICIES),
      "auto" as const,
    )
    .option(
      "--nesting-intent <intent>",
      "auto|nested|neutral",
      choiceArg(NESTING_INTENTS),
      "auto" as const,
    )
    .option("--json", "print JSON")
    .action((opts) => {
      const r = resolveNestedPolicy({
        agent: opts.agent,
        mode: opts.mode,
        prompt: opts.prompt,
        policy: opts.nestedPolicy,
        intent: opts.nestingIntent,
      });
      if (opts.json) {
        printJson(ctx.deps.io, {
          agent: opts.agent,
          mode: opts.mode,
          nestedDetection: r.detection,
          nestedPolicy: r.policy,
          nestingIntent: r.intent,
          decision: r.decision,
          nestedBypass: r.bypassArgs,
        });
        return;
      }
      const d = r.detection;
      ctx.deps.io.out(
        `reason=${d.reason} eligible=${d.eligible} autoBypass=${d.autoBypass} ` +
          `matchedHint=${d.matchedHint ?? "-"} decision=${r.decision} ` +
          `bypass=${r.bypassArgs.length > 0 ? r.bypassArgs.join(" ") : "none"}\n`,
      );
    });
}
