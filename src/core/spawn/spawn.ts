/**
 * `lisa session spawn`: starts an agent (or any `--command`) in a new tmux session of the
 * project's server, running the startup script of `startup_script.ts`.
 *
 * Order (fail-fast, seed 000): validate → reset stale artifacts of the name (the event log
 * stays) → write the startup script (0600) → one tmux call (server options + new-session +
 * has-session) → write meta. When meta cannot be written the new session is killed and its
 * artifacts removed. Every failure after validation appends a `spawn_*_error` lifecycle event,
 * removes the startup script (it holds the caller's environment) and exits 1.
 *
 * tmux's exit status alone is not trusted: 3.3a prints `error creating <socket> (…)` and exits
 * 0 when its server cannot start, so anything on stderr makes spawn check that the session is
 * really there.
 */
import { buildAgentCommand, renderCommand } from "../../agents/command.ts";
import { hookExtras } from "../../agents/hooks.ts";
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import {
  newRunId,
  parseAgent,
  parseMode,
  sessionName,
  validateSessionName,
} from "../session/identity.ts";
import { type Agent, type Mode } from "../../base/types.ts";
import { appendLifecycle } from "../session/lifecycle.ts";
import {
  type NestedDetection,
  type NestedPolicy,
  type NestingIntent,
  resolveNestedPolicy,
} from "./nested.ts";
import { resolveProject } from "../session/project.ts";
import { removeSessionArtifacts } from "../session/artifacts.ts";
import { buildStartupScript, type ScriptCommand } from "./startup_script.ts";
import { readTextInput } from "../drive/text_input.ts";
import type { SessionMeta } from "../../base/types.ts";
import type { RunResult } from "../../base/runner.ts";
import { writeFileAtomic } from "../../store/atomic.ts";
import { pruneOldEvents } from "../../store/events.ts";
import { cmdScriptPath, type SessionPaths, sessionPaths } from "../../store/runtime_dir.ts";
import { writeMeta } from "../../store/session_store.ts";
import {
  hasSession,
  isDuplicateSession,
  killSession,
  newSessionCommands,
} from "../../tmux/sessions.ts";
import { sessionTarget, Tmux } from "../../tmux/tmux.ts";

/** Default pane size. */
export const DEFAULT_WIDTH = 200;
/** Default pane size. */
export const DEFAULT_HEIGHT = 50;

/** What `spawn` was asked for (flags, typed). */
export interface SpawnOptions {
  /** `claude` or `codex` (validated here: `invalid_agent`). */
  agent: string;
  /**
   * True when the caller chose `agent` (the CLI: `--agent` given). A `--command` session
   * without it is command-only (meta `commandOnly`). Default false.
   */
  explicitAgent?: boolean;
  /** `interactive` or `exec` (validated here: `invalid_mode`). */
  mode: string;
  /** The prompt (one argv word, or stdin in exec mode when too long); `-` reads stdin. */
  prompt?: string;
  /** File holding the prompt (`-` reads stdin); excludes `prompt`. */
  promptFile?: string;
  /** Shell syntax that replaces the agent command. */
  command?: string;
  /** Shell syntax inserted into the agent command. */
  agentArgs?: string;
  model?: string;
  session?: string;
  tag?: string;
  projectRoot?: string;
  width?: number;
  height?: number;
  /** claude: `--dangerously-skip-permissions` (default true). */
  skipPermissions?: boolean;
  /** Inject agent hooks (default true; `--no-hooks`; `LISA_HOOKS=off` also turns them off). */
  hooks?: boolean;
  /** `--nested-policy` (default auto) and `--nesting-intent` (default auto): codex bypass. */
  nestedPolicy?: NestedPolicy;
  nestingIntent?: NestingIntent;
  dryRun?: boolean;
}

/** What spawn reports (`--json`). */
export interface SpawnResult {
  ok: true;
  session: string;
  agent: Agent;
  mode: Mode;
  runId: string;
  projectRoot: string;
  projectHash: string;
  socketPath: string;
  /** The exact command the session runs (shell syntax). */
  command: string;
  /** A `--command` session without an explicit agent: status expects no agent in it. */
  commandOnly: boolean;
  parentSession: string | null;
  createdAt: string;
  /** Sandbox-bypass flags the nested policy added to the agent command ([] when none). */
  nestedBypass: string[];
  nestedDetection: NestedDetection;
  dryRun: boolean;
  /** --dry-run only: the startup script (the caller's environment summarised). */
  startupScript?: string;
  /** --dry-run only: the session's LISA_* environment. */
  env?: Record<string, string>;
  /** --dry-run only: the tmux invocation. */
  tmuxArgv?: string[];
}

/**
 * Extra agent argv words and meta facts contributed by other modules: hooks (`--settings`,
 * `--session-id` for claude, `-c notify=…` for codex; `src/agents/hooks.ts`). The nested
 * policy's sandbox bypass (`src/core/nested.ts`) is appended after them in spawnSession.
 */
interface AgentExtras {
  extraArgs: string[];
  agentSessionId: string | null;
  hooks: boolean;
}

function agentExtras(
  deps: Deps,
  input: {
    agent: Agent;
    mode: Mode;
    session: string;
    paths: SessionPaths;
    custom: boolean;
    agentArgs?: string;
    hooks?: boolean;
  },
): AgentExtras {
  return hookExtras(deps, input);
}

/** The session's LISA_* variables (DESIGN §4.5). */
function lisaEnvOf(input: {
  session: string;
  agent: Agent;
  mode: Mode;
  projectRoot: string;
  projectHash: string;
  socketPath: string;
  runtimeDir: string;
  paths: SessionPaths;
  runId: string;
}): Record<string, string> {
  return {
    LISA_SESSION: "true",
    LISA_SESSION_NAME: input.session,
    LISA_AGENT: input.agent,
    LISA_MODE: input.mode,
    LISA_PROJECT_ROOT: input.projectRoot,
    LISA_PROJECT_HASH: input.projectHash,
    LISA_TMUX_SOCKET: input.socketPath,
    LISA_RUNTIME_DIR: input.runtimeDir,
    LISA_HEARTBEAT_FILE: input.paths.heartbeat,
    LISA_DONE_FILE: input.paths.done,
    LISA_HOOK_FILE: input.paths.hooks,
    LISA_RUN_ID: input.runId,
  };
}

/** The tmux client's environment: the caller's, minus the variables tying it to another tmux. */
function clientEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...env };
  delete out.TMUX;
  delete out.TMUX_PANE;
  return out;
}

/** True when tmux shows `session` (a failing check counts as absent). */
async function present(tmux: Tmux, session: string): Promise<boolean> {
  try {
    return await hasSession(tmux, session);
  } catch {
    return false;
  }
}

function scriptNanos(now: Date): string {
  const rand = crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000;
  return `${now.getTime()}${String(rand).padStart(6, "0")}`;
}

/**
 * Spawns a session (or, with `dryRun`, only resolves everything and creates nothing). Throws
 * `invalid_agent`, `invalid_mode`, `invalid_session_name`, `missing_argument`, the prompt input
 * errors of {@link readTextInput}, `prompt_too_large` (an interactive prompt over one argv
 * word), `session_already_exists`, `spawn_script_error`, `spawn_tmux_error`, `spawn_meta_error`.
 */
export async function spawnSession(deps: Deps, options: SpawnOptions): Promise<SpawnResult> {
  const agent = parseAgent(options.agent);
  const mode = parseMode(options.mode);
  const prompt = await readTextInput(deps, {
    value: options.prompt,
    file: options.promptFile,
    valueFlag: "--prompt",
    fileFlag: "--prompt-file",
  });
  const project = resolveProject(deps, options.projectRoot);
  const now = deps.now();
  const session = options.session !== undefined
    ? validateSessionName(options.session)
    : sessionName({ projectRoot: project.root, agent, mode, tag: options.tag, now });
  const runId = newRunId(now);
  const paths = sessionPaths(project.runtimeDir, project.hash, session);
  const custom = options.command !== undefined && options.command.trim() !== "";
  const extras = agentExtras(deps, {
    agent,
    mode,
    session,
    paths,
    custom,
    agentArgs: options.agentArgs,
    hooks: options.hooks,
  });
  const nested = resolveNestedPolicy({
    agent,
    mode,
    prompt,
    policy: options.nestedPolicy,
    intent: options.nestingIntent,
    customCommand: custom,
  });

  let command: string;
  let run: ScriptCommand;
  if (custom) {
    command = options.command!;
    run = { shell: command };
  } else {
    const built = buildAgentCommand({
      agent,
      mode,
      prompt,
      model: options.model,
      agentArgs: options.agentArgs,
      skipPermissions: options.skipPermissions ?? true,
      extraArgs: [...extras.extraArgs, ...nested.bypassArgs],
    });
    command = built.command;
    // Agent-args are shell text: the whole line then runs under `bash -c`, so even a syntax
    // error in them ends as an exit status in the done file instead of killing the wrapper.
    // A prompt on stdin stays out of that `bash -c` word (it is one argv word too).
    const stdin = built.stdin === null ? {} : { stdin: built.stdin };
    run = built.agentArgs === null
      ? { argv: built.argv, ...stdin }
      : { shell: renderCommand(built.argv, built.agentArgs, built.agentArgsIndex), ...stdin };
  }

  const lisaEnv = lisaEnvOf({
    session,
    agent,
    mode,
    projectRoot: project.root,
    projectHash: project.hash,
    socketPath: project.socketPath,
    runtimeDir: project.runtimeDir,
    paths,
    runId,
  });
  const scriptInput = {
    session,
    runId,
    projectRoot: project.root,
    callerEnv: deps.env,
    lisaEnv,
    heartbeatFile: paths.heartbeat,
    doneFile: paths.done,
    command: run,
    // Only Linux has child subreapers (prctl); elsewhere kill reports that it cannot see them.
    subreaper: Deno.build.os === "linux",
  };
  const scriptPath = cmdScriptPath(project.runtimeDir, project.hash, session, scriptNanos(now));
  const tmux = new Tmux(deps.runner, project.socketPath);
  const commands = [
    ...newSessionCommands({
      session,
      width: options.width ?? DEFAULT_WIDTH,
      height: options.height ?? DEFAULT_HEIGHT,
      cwd: project.root,
      env: lisaEnv,
      argv: ["bash", scriptPath],
    }),
    // In the same invocation: a new-session that "succeeded" without a session fails here.
    ["has-session", "-t", sessionTarget(session)],
  ];
  const result: SpawnResult = {
    ok: true,
    session,
    agent,
    mode,
    runId,
    projectRoot: project.root,
    projectHash: project.hash,
    socketPath: project.socketPath,
    command,
    commandOnly: custom && options.explicitAgent !== true,
    parentSession: deps.config.sessionName ?? null,
    createdAt: now.toISOString(),
    nestedBypass: nested.bypassArgs,
    nestedDetection: nested.detection,
    dryRun: options.dryRun ?? false,
  };
  if (options.dryRun) {
    return {
      ...result,
      startupScript: buildStartupScript({ ...scriptInput, redactCallerEnv: true }),
      env: lisaEnv,
      tmuxArgv: tmux.argv(commands),
    };
  }

  if (await hasSession(tmux, session)) {
    throw new LisaError("session_already_exists", `Session "${session}" already exists`, {
      details: { session, socketPath: project.socketPath },
    });
  }
  removeSessionArtifacts(project.runtimeDir, session, { hash: project.hash });
  pruneOldEvents(project.runtimeDir, deps.config.eventRetentionDays, now.getTime());

  const failed = async (reason: string, message: string, cause: unknown): Promise<never> => {
    removeSessionArtifacts(project.runtimeDir, session, { hash: project.hash });
    await appendLifecycle(deps, paths.events, session, {
      runId,
      state: null,
      status: null,
      reason,
      error: (cause as Error)?.message ?? String(cause),
    });
    throw new LisaError(reason, message, { cause, details: { session } });
  };

  try {
    writeFileAtomic(scriptPath, buildStartupScript(scriptInput));
  } catch (error) {
    return await failed(
      "spawn_script_error",
      `Cannot write the startup script "${scriptPath}": ${(error as Error).message}`,
      error,
    );
  }

  let created: RunResult;
  try {
    created = await tmux.run(commands, { env: clientEnv(deps.env), clearEnv: true });
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") {
      removeSessionArtifacts(project.runtimeDir, session, { hash: project.hash });
      throw error;
    }
    // A timeout: the session may exist half-started; it is not reported, so it must not stay.
    await killSession(tmux, session).catch(() => false);
    return await failed(
      "spawn_tmux_error",
      `tmux could not create session "${session}": ${(error as Error).message}`,
      error,
    );
  }
  if (created.success && created.stderr.trim() !== "" && !(await present(tmux, session))) {
    const first = created.stderr.trim().split("\n")[0];
    return await failed(
      "spawn_tmux_error",
      `tmux could not create session "${session}": ${first}`,
      new Error(first),
    );
  }
  if (!created.success) {
    if (isDuplicateSession(created.stderr)) {
      // Lost a race with another spawn of the same name: its artifacts are not ours to touch.
      try {
        Deno.removeSync(scriptPath);
      } catch { /* already gone */ }
      throw new LisaError("session_already_exists", `Session "${session}" already exists`, {
        details: { session, socketPath: project.socketPath },
      });
    }
    const first = created.stderr.trim().split("\n")[0] ?? "";
    return await failed(
      "spawn_tmux_error",
      `tmux could not create session "${session}": ${first || `exit ${created.code}`}`,
      new Error(first),
    );
  }

  const meta: SessionMeta = {
    session,
    parentSession: result.parentSession,
    agent,
    mode,
    projectRoot: project.root,
    projectHash: project.hash,
    socketPath: project.socketPath,
    startCmd: command,
    prompt: prompt ?? null,
    createdAt: result.createdAt,
    runId,
    agentSessionId: extras.agentSessionId,
    hooks: extras.hooks,
    nestedBypass: nested.bypassArgs,
    commandOnly: result.commandOnly,
  };
  try {
    writeMeta(paths, meta);
  } catch (error) {
    try {
      await killSession(tmux, session);
    } catch { /* reported through the error below */ }
    return await failed(
      "spawn_meta_error",
      `Cannot write the session meta "${paths.meta}": ${(error as Error).message}`,
      error,
    );
  }

  await appendLifecycle(deps, paths.events, session, {
    runId,
    state: "just_started",
    status: "active",
    reason: "spawn_success",
    agent,
    mode,
    parentSession: result.parentSession,
  });
  return result;
}
