/** `lisa session name`: the name spawn would use. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { choiceArg } from "../../options.ts";
import { sessionName } from "../../../core/session/identity.ts";
import { AGENTS, MODES } from "../../../base/types.ts";
import { resolveProject } from "../../../core/session/project.ts";

/** Registers `lisa session name`. */
export function registerName(session: Command, ctx: CliContext): void {
  session
    .command("name")
    .description("print the session name spawn would use")
    .option("--agent <agent>", "claude|codex", choiceArg(AGENTS), "claude" as const)
    .option("--mode <mode>", "interactive|exec", choiceArg(MODES), "interactive" as const)
    .option("--tag <tag>", "tag (lowercase alphanumerics, at most 16)")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--json", "print JSON")
    .action((opts) => {
      const project = resolveProject(ctx.deps, opts.projectRoot);
      const name = sessionName({
        projectRoot: project.root,
        agent: opts.agent,
        mode: opts.mode,
        tag: opts.tag,
        now: ctx.deps.now(),
      });
      if (opts.json) {
        printJson(ctx.deps.io, {
          session: name,
          agent: opts.agent,
          mode: opts.mode,
          projectRoot: project.root,
          projectHash: project.hash,
        });
      } else ctx.deps.io.out(`${name}\n`);
    });
}
