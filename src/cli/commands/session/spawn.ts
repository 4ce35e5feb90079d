/** `lisa session spawn`: start an agent (or any command) in a new tmux session. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { choiceArg, intArg } from "../../options.ts";
import { NESTED_POLICIES, NESTING_INTENTS } from "../../../core/spawn/nested.ts";
import {
  DEFAULT_HEIGHT,
  DEFAULT_WIDTH,
  type SpawnResult,
  spawnSession,
} from "../../../core/spawn/spawn.ts";

function human(result: SpawnResult): string {
  if (!result.dryRun) return `${result.session}\n`;
  const rows: [string, string][] = [
    ["session", result.session],
    ["agent", `${result.agent} (${result.mode})`],
    ["command", result.command],
    ["project", result.projectRoot],
    ["socket", result.socketPath],
    ["run id", result.runId],
    ["parent", result.parentSession ?? "-"],
    [
      "nested",
      `${result.nestedDetection.reason}; bypass ${result.nestedBypass.join(" ") || "none"}`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const env = Object.entries(result.env ?? {}).map(([k, v]) => `  ${k}=${v}`);
  return [
    "dry run: nothing was created",
    ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
    "session environment:",
    ...env,
    "startup script:",
    result.startupScript ?? "",
  ].join("\n");
}

/** Registers `lisa session spawn`. */
export function registerSpawn(session: Command, ctx: CliContext): void {
  session
    .command("spawn")
    .description("start an agent (or any command) in a new tmux session")
    .option("--agent <agent>", "claude|codex", "claude")
    .option("--mode <mode>", "interactive|exec", "interactive")
    .option("--prompt <text>", "the prompt (never read by a shell; '-' reads stdin)")
    .option("--prompt-file <path>", "read the prompt from this file ('-' reads stdin)")
    .option("--command <shell>", "run this shell command instead of the agent (shell syntax)")
    .option("--agent-args <shell>", "extra agent arguments (shell syntax, inserted as-is)")
    .option("--model <model>", "model for the agent")
    .option("--session <name>", "session name (must start with lisa-)")
    .option("--tag <tag>", "tag appended to the generated name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option("--width <cols>", "pane width", intArg(20, 10000), DEFAULT_WIDTH)
    .option("--height <rows>", "pane height", intArg(5, 10000), DEFAULT_HEIGHT)
    .option(
      "--no-dangerously-skip-permissions",
      "claude: do not pass --dangerously-skip-permissions",
    )
    .option("--no-hooks", "do not inject agent hooks (like LISA_HOOKS=off)")
    .option(
      "--nested-policy <policy>",
      "codex exec sandbox bypass for nested lisa calls: auto|force|off",
      choiceArg(NESTED_POLICIES),
      "auto" as const,
    )
    .option(
      "--nesting-intent <intent>",
      "override the prompt heuristic: auto|nested|neutral",
      choiceArg(NESTING_INTENTS),
      "auto" as const,
    )
    .option("--dry-run", "resolve and print everything, create nothing")
    .option("--json", "print JSON")
    .action(async (opts, cmd) => {
      const result = await spawnSession(ctx.deps, {
        agent: opts.agent,
        // `--agent` defaults to claude for the name; with --command only a given one counts.
        explicitAgent: cmd.getOptionValueSource("agent") === "cli",
        mode: opts.mode,
        prompt: opts.prompt,
        promptFile: opts.promptFile,
        command: opts.command,
        agentArgs: opts.agentArgs,
        model: opts.model,
        session: opts.session,
        tag: opts.tag,
        projectRoot: opts.projectRoot,
        width: opts.width,
        height: opts.height,
        skipPermissions: opts.dangerouslySkipPermissions,
        hooks: opts.hooks,
        nestedPolicy: opts.nestedPolicy,
        nestingIntent: opts.nestingIntent,
        dryRun: opts.dryRun ?? false,
      });
      if (opts.json) printJson(ctx.deps.io, { ...result });
      else ctx.deps.io.out(human(result));
    });
}
