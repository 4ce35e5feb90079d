/**
 * The plan of a spawn: everything `spawn` decides before it touches tmux or a file — the name,
 * the agent command (with hooks and the nested policy's bypass), the session's environment, the
 * startup script and the tmux invocation. Pure: it reads only what it is given (the caller's
 * environment, config and clock through `deps`, the prompt and project already resolved), so
 * `--dry-run` is this plan printed, and unit tests check it without tmux.
 */
import { buildAgentCommand, renderCommand } from "../../agents/command.ts";
import { hookExtras } from "../../agents/hooks.ts";
import type { Deps } from "../../base/deps.ts";
import type { Agent, Mode, SessionMeta, WorktreeInfo } from "../../base/types.ts";
import { withoutGitContext } from "../../base/git_context.ts";
import { newRunId, type Project, sessionName, validateNewSessionName } from "../session/mod.ts";
import { type NestedDetection, resolveNestedPolicy } from "./nested.ts";
import type { SpawnOptions } from "./spawn.ts";
import {
  buildStartupScript,
  type ScriptCommand,
  type StartupScriptInput,
} from "./startup_script.ts";
import { cmdScriptPath, type SessionPaths, sessionPaths } from "../../store/runtime_dir.ts";
import { newSessionCommands } from "../../tmux/sessions.ts";
import { sessionTarget } from "../../tmux/tmux.ts";

/** Default pane size. */
export const DEFAULT_WIDTH = 200;
/** Default pane size. */
export const DEFAULT_HEIGHT = 50;

/**
 * What a spawn plan is made from: the spawn's options as given (`SpawnOptions`), with the agent
 * and mode validated, the prompt read, the project resolved and the worktree (if any) planned.
 */
export type PlanInput =
  & Pick<
    SpawnOptions,
    | "command"
    | "agentArgs"
    | "model"
    | "session"
    | "tag"
    | "width"
    | "height"
    | "skipPermissions"
    | "hooks"
    | "nestedPolicy"
    | "nestingIntent"
  >
  & {
    agent: Agent;
    mode: Mode;
    /** A `--command` given without `--agent`: a command-only session. */
    explicitAgent: boolean;
    prompt: string | undefined;
    project: Project;
    /** `spawn --worktree`: the session's worktree (recorded in meta). */
    worktree?: WorktreeInfo;
    /** Where the pane starts (default: the project root). */
    cwd?: string;
    /** The agent's version (`src/agents/version.ts`), null when unknown. */
    agentVersion?: string | null;
  };

/** A spawn, decided. */
export interface SpawnPlan {
  session: string;
  agent: Agent;
  mode: Mode;
  runId: string;
  project: Project;
  paths: SessionPaths;
  /** The exact command the session runs (shell syntax, as `spawn --json` shows it). */
  command: string;
  commandOnly: boolean;
  parentSession: string | null;
  createdAt: string;
  nestedBypass: string[];
  nestedDetection: NestedDetection;
  /** The session's `LISA_*` environment. */
  lisaEnv: Record<string, string>;
  /** What the startup script is built from (the caller's environment included). */
  script: StartupScriptInput;
  /** Where the startup script goes. */
  scriptPath: string;
  /** The tmux commands of the one invocation that creates the session. */
  tmuxCommands: string[][];
  /** The meta written once the session exists. */
  meta: SessionMeta;
}

/** The session's LISA_* variables (DESIGN §4.5). */
export function lisaEnvOf(input: {
  session: string;
  agent: Agent;
  mode: Mode;
  project: Project;
  paths: SessionPaths;
  runId: string;
}): Record<string, string> {
  return {
    LISA_SESSION: "true",
    LISA_SESSION_NAME: input.session,
    LISA_AGENT: input.agent,
    LISA_MODE: input.mode,
    LISA_PROJECT_ROOT: input.project.root,
    LISA_PROJECT_HASH: input.project.hash,
    LISA_TMUX_SOCKET: input.project.socketPath,
    LISA_RUNTIME_DIR: input.project.runtimeDir,
    LISA_HEARTBEAT_FILE: input.paths.heartbeat,
    LISA_DONE_FILE: input.paths.done,
    LISA_HOOK_FILE: input.paths.hooks,
    LISA_RUN_ID: input.runId,
  };
}

function scriptNanos(now: Date): string {
  const rand = crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000;
  return `${now.getTime()}${String(rand).padStart(6, "0")}`;
}

/**
 * Plans a spawn (see the module doc). Throws `invalid_session_name` for a bad `--session` and
 * the agent command's errors (`prompt_too_large`).
 */
export function planSpawn(deps: Deps, input: PlanInput): SpawnPlan {
  const { agent, mode, prompt, project } = input;
  const now = deps.now();
  const session = input.session !== undefined
    ? validateNewSessionName(input.session)
    : sessionName({ projectRoot: project.root, agent, mode, tag: input.tag, now });
  const runId = newRunId(now);
  const paths = sessionPaths(project.runtimeDir, project.hash, session);
  const custom = input.command !== undefined && input.command.trim() !== "";
  const extras = hookExtras(deps, {
    agent,
    custom,
    agentArgs: input.agentArgs,
    hooks: input.hooks,
    version: input.agentVersion,
  });
  const nested = resolveNestedPolicy({
    agent,
    mode,
    prompt,
    policy: input.nestedPolicy,
    intent: input.nestingIntent,
    customCommand: custom,
  });
  const { command, run } = custom
    ? { command: input.command!, run: { shell: input.command! } }
    : agentRun(input, [...extras.extraArgs, ...nested.bypassArgs]);
  const lisaEnv = lisaEnvOf({ session, agent, mode, project, paths, runId });
  const { script, scriptPath, tmuxCommands } = launchOf(deps, input, {
    session,
    runId,
    paths,
    lisaEnv,
    run,
    now,
  });
  const parentSession = deps.config.sessionName ?? null;
  const createdAt = now.toISOString();
  const commandOnly = custom && !input.explicitAgent;
  return {
    session,
    agent,
    mode,
    runId,
    project,
    paths,
    command,
    commandOnly,
    parentSession,
    createdAt,
    nestedBypass: nested.bypassArgs,
    nestedDetection: nested.detection,
    lisaEnv,
    script,
    scriptPath,
    tmuxCommands,
    meta: {
      session,
      parentSession,
      ...(parentSession !== null && deps.config.runId ? { parentRunId: deps.config.runId } : {}),
      agent,
      mode,
      projectRoot: project.root,
      projectHash: project.hash,
      socketPath: project.socketPath,
      startCmd: command,
      prompt: prompt ?? null,
      createdAt,
      runId,
      agentSessionId: extras.agentSessionId,
      hooks: extras.hooks,
      ...(!custom && input.agentVersion ? { agentVersion: input.agentVersion } : {}),
      nestedBypass: nested.bypassArgs,
      commandOnly,
      ...(input.worktree ? { worktree: input.worktree } : {}),
    },
  };
}

/** The startup script (what it is built from, and where it goes) and the tmux invocation. */
function launchOf(
  deps: Deps,
  input: PlanInput,
  made: {
    session: string;
    runId: string;
    paths: SessionPaths;
    lisaEnv: Record<string, string>;
    run: ScriptCommand;
    now: Date;
  },
): { script: StartupScriptInput; scriptPath: string; tmuxCommands: string[][] } {
  const { session, runId, paths, lisaEnv, run, now } = made;
  const { project } = input;
  const script: StartupScriptInput = {
    session,
    runId,
    // The directory the command runs in (`--worktree`: the session's worktree).
    projectRoot: input.cwd ?? project.root,
    // In a worktree, a caller's GIT_DIR/GIT_INDEX_FILE would send the agent's git to the
    // caller's repository.
    callerEnv: input.worktree ? withoutGitContext(deps.env) : deps.env,
    lisaEnv,
    heartbeatFile: paths.heartbeat,
    doneFile: paths.done,
    command: run,
    // Only Linux has child subreapers (prctl); elsewhere kill reports that it cannot see them.
    subreaper: Deno.build.os === "linux",
    barrierSeconds: deps.config.doneBarrierSeconds,
  };
  const scriptPath = cmdScriptPath(project.runtimeDir, project.hash, session, scriptNanos(now));
  const tmuxCommands = [
    ...newSessionCommands({
      session,
      width: input.width ?? DEFAULT_WIDTH,
      height: input.height ?? DEFAULT_HEIGHT,
      cwd: input.cwd ?? project.root,
      env: lisaEnv,
      argv: ["bash", scriptPath],
    }),
    // In the same invocation: a new-session that "succeeded" without a session fails here.
    ["has-session", "-t", sessionTarget(session)],
  ];
  return { script, scriptPath, tmuxCommands };
}

/** The agent's command line (as shown) and how the startup script runs it. */
function agentRun(
  input: PlanInput,
  extraArgs: string[],
): { command: string; run: ScriptCommand } {
  const built = buildAgentCommand({
    agent: input.agent,
    mode: input.mode,
    prompt: input.prompt,
    model: input.model,
    agentArgs: input.agentArgs,
    skipPermissions: input.skipPermissions ?? true,
    extraArgs,
  });
  // Agent-args are shell text: the whole line then runs under `bash -c`, so even a syntax
  // error in them ends as an exit status in the done file instead of killing the wrapper.
  // A prompt on stdin stays out of that `bash -c` word (it is one argv word too).
  const stdin = built.stdin === null ? {} : { stdin: built.stdin };
  const run: ScriptCommand = built.agentArgs === null
    ? { argv: built.argv, ...stdin }
    : { shell: renderCommand(built.argv, built.agentArgs, built.agentArgsIndex), ...stdin };
  return { command: built.command, run };
}

/** The startup script of a plan as `--dry-run` shows it (the caller's environment summarised). */
export function dryRunScript(plan: SpawnPlan): string {
  return buildStartupScript({ ...plan.script, redactCallerEnv: true });
}
