/** `lisa session detect-nested`: what the nested-lisa heuristic and policy make of a prompt. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { detectNestedFlags } from "./detect_nested_spec.ts";
import {
  explainPrompt,
  resolveNestedPolicy,
  rewritePrompt,
  spawnSession,
} from "../../../core/spawn/mod.ts";

/** Prints the nested detection and the decision for a prompt. */
export default async function detectNested(
  this: LisaContext,
  flags: FlagsOf<typeof detectNestedFlags>,
): Promise<void> {
  const agent = flags.agent ?? "codex";
  const mode = flags.mode ?? "exec";
  const prompt = needed(flags.prompt, "--prompt");
  const r = resolveNestedPolicy({
    agent,
    mode,
    prompt,
    policy: flags.nestedPolicy,
    intent: flags.nestingIntent,
  });
  const agentArgs = flags.agentArgs ?? "";
  const effectiveAgentArgs = [agentArgs, ...r.bypassArgs].filter((a) => a !== "").join(" ");
  const rewrites = flags.rewrite ? rewritePrompt(prompt) : undefined;
  const spans = flags.why ? explainPrompt(prompt) : undefined;
  if (flags.json) {
    // The command spawn would run: a dry run creates nothing.
    const plan = await spawnSession(this.deps, {
      agent,
      mode,
      prompt,
      agentArgs: flags.agentArgs,
      model: flags.model,
      projectRoot: flags.projectRoot,
      nestedPolicy: flags.nestedPolicy,
      nestingIntent: flags.nestingIntent,
      dryRun: true,
    });
    printJson(this.deps.io, {
      agent,
      mode,
      nestedDetection: r.detection,
      nestedPolicy: r.policy,
      nestingIntent: r.intent,
      decision: r.decision,
      nestedBypass: r.bypassArgs,
      agentArgs,
      effectiveAgentArgs,
      command: plan.command,
      ...(rewrites ? { rewrites } : {}),
      ...(spans ? { why: { reason: r.detection.reason, spans } } : {}),
    });
    return;
  }
  const d = r.detection;
  const io = this.deps.io;
  io.out(
    `reason=${d.reason} eligible=${d.eligible} autoBypass=${d.autoBypass} ` +
      `matchedHint=${d.matchedHint ?? "-"} decision=${r.decision} ` +
      `bypass=${r.bypassArgs.length > 0 ? r.bypassArgs.join(" ") : "none"}\n`,
  );
  for (const s of spans ?? []) {
    io.out(`why: ${JSON.stringify(s.text)} at ${s.start}: ${s.reason}\n`);
  }
  for (const w of rewrites ?? []) io.out(`rewrite (${w.intent}): ${w.prompt}\n`);
}
