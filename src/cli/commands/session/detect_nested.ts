/** `lisa session detect-nested`: what the nested-lisa heuristic and policy make of a prompt. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { detectNestedFlags, FlagsOf } from "../../verbs.ts";
import { resolveNestedPolicy } from "../../../core/spawn/nested.ts";

/** Prints the nested detection and the decision for a prompt. */
export default function detectNested(
  this: LisaContext,
  flags: FlagsOf<typeof detectNestedFlags>,
): void {
  const agent = flags.agent ?? "codex";
  const mode = flags.mode ?? "exec";
  const r = resolveNestedPolicy({
    agent,
    mode,
    prompt: needed(flags.prompt, "--prompt"),
    policy: flags.nestedPolicy,
    intent: flags.nestingIntent,
  });
  if (flags.json) {
    printJson(this.deps.io, {
      agent,
      mode,
      nestedDetection: r.detection,
      nestedPolicy: r.policy,
      nestingIntent: r.intent,
      decision: r.decision,
      nestedBypass: r.bypassArgs,
    });
    return;
  }
  const d = r.detection;
  this.deps.io.out(
    `reason=${d.reason} eligible=${d.eligible} autoBypass=${d.autoBypass} ` +
      `matchedHint=${d.matchedHint ?? "-"} decision=${r.decision} ` +
      `bypass=${r.bypassArgs.length > 0 ? r.bypassArgs.join(" ") : "none"}\n`,
  );
}
