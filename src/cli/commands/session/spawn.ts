/** `lisa session spawn`: start an agent (or any command) in a new tmux session. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { spawnFlags } from "./spawn_spec.ts";
import { type SpawnResult, spawnSession } from "../../../core/spawn/mod.ts";

function human(result: SpawnResult): string {
  if (!result.dryRun) return `${result.session}\n`;
  const rows: [string, string][] = [
    ["session", result.session],
    ["alias", result.alias ?? "-"],
    ["agent", `${result.agent} (${result.mode})`],
    ["command", result.command],
    ["project", result.projectRoot],
    ["socket", result.socketPath],
    ["run id", result.runId],
    ["parent", result.parentSession ?? "-"],
    ...(result.worktree
      ? [
        [
          "worktree",
          `${result.worktree.path} (branch ${result.worktree.branch} at ${
            result.worktree.baseCommit.slice(0, 12)
          })`,
        ] as [string, string],
      ]
      : []),
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

/** Spawns a session (or, with --dry-run, shows what would run). */
export default async function spawn(
  this: LisaContext,
  flags: FlagsOf<typeof spawnFlags>,
): Promise<void> {
  const result = await spawnSession(this.deps, {
    agent: flags.agent ?? "claude",
    // `--agent` defaults to claude for the name; with --command only a given one counts.
    explicitAgent: flags.agent !== undefined,
    mode: flags.mode ?? "interactive",
    prompt: flags.prompt,
    promptFile: flags.promptFile,
    command: flags.command,
    agentArgs: flags.agentArgs,
    model: flags.model,
    session: flags.session,
    tag: flags.tag,
    projectRoot: flags.projectRoot,
    width: flags.width,
    height: flags.height,
    skipPermissions: flags.dangerouslySkipPermissions,
    hooks: flags.hooks,
    nestedPolicy: flags.nestedPolicy,
    nestingIntent: flags.nestingIntent,
    dryRun: flags.dryRun ?? false,
    cleanupAllHashes: flags.cleanupAllHashes,
    worktree: flags.worktree ?? false,
    branch: flags.branch,
    base: flags.base,
  });
  if (flags.json) {
    // The older Go lisa's `startupCommand`: what the pane runs (the startup script).
    const argv = result.tmuxArgv;
    const at = argv?.indexOf("--") ?? -1;
    const end = at < 0 ? -1 : argv!.indexOf(";", at);
    const startupCommand = at < 0
      ? undefined
      : argv!.slice(at + 1, end < 0 ? undefined : end).join(" ");
    printJson(this.deps.io, { ...result, ...(startupCommand ? { startupCommand } : {}) });
  } else {
    this.deps.io.out(human(result));
    if (flags.detectNested && !result.dryRun) {
      const d = result.nestedDetection;
      this.deps.io.out(`nested: ${d.reason}; bypass ${result.nestedBypass.join(" ") || "none"}\n`);
    }
    // stdout stays the session name alone (scripts read it); the worktree is for people.
    if (result.worktree && !result.dryRun) {
      this.deps.io.err(
        `worktree ${result.worktree.path} (branch ${result.worktree.branch})\n`,
      );
    }
  }
}
