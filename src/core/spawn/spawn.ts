/**
 * `lisa session spawn`: starts an agent (or any `--command`) in a new tmux session of the
 * project's server, running the startup script of `startup_script.ts`. What to run is decided
 * by the pure plan (`spawn_plan.ts`); this module reads the inputs and does the I/O.
 *
 * Order (fail-fast, seed 000): validate → plan → reset stale artifacts of the name (the event
 * log stays) → write the startup script (0600) → one tmux call (server options + new-session +
 * has-session) → write meta. From the check that the name is free to the meta, a spawn holds
 * the project's spawn lock, so parallel spawns of one name never clear each other's files. With
 * `--worktree` the worktree is checked with the validation (`worktree/worktree_plan.ts`: nothing
 * is created for a bad request), created once the name is known to be free, and removed again
 * (with its branch) when any later step fails. When meta cannot be written the new session is
 * killed and its artifacts removed. Every failure after validation appends a `spawn_*_error`
 * lifecycle event, removes the startup script (it holds the caller's environment) and exits 1.
 *
 * tmux's exit status alone is not trusted: 3.3a prints `error creating <socket> (…)` and exits
 * 0 when its server cannot start, so anything on stderr makes spawn check that the session is
 * really there.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError, UsageError } from "../../base/errors.ts";
import type { RunResult } from "../../base/runner.ts";
import {
  type Agent,
  type Mode,
  type NestedPolicy,
  type NestingIntent,
  parseAgent,
  parseMode,
  type WorktreeInfo,
} from "../../base/types.ts";
import {
  appendLifecycle,
  knownAliases,
  pickAlias,
  removeLeftUnderOtherHashes,
  removeSessionArtifacts,
  resolveProject,
  sessionName,
  validateNewSessionName,
  withSpawnLock,
} from "../session/mod.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { WorktreePlan } from "../worktree/mod.ts";
import { recordBeforeRemoval, sweepAfterSpawn } from "../history/mod.ts";
import { readTextInput } from "../drive/mod.ts";
import type { NestedDetection } from "./nested.ts";
import { dryRunScript, planSpawn, type SpawnPlan } from "./spawn_plan.ts";
import { buildStartupScript } from "./startup_script.ts";
import { pathExists, writeFileAtomic } from "../../store/atomic.ts";
import { pruneOldEvents } from "../../store/events.ts";
import { writeMeta } from "../../store/session_store.ts";
import { checkSocketPath } from "../../store/runtime_dir.ts";
import { hasSession, isDuplicateSession, killSession, parseNewPane } from "../../tmux/sessions.ts";
import { Tmux } from "../../tmux/tmux.ts";
import { agentVersion } from "../../agents/version.ts";

export { DEFAULT_HEIGHT, DEFAULT_WIDTH } from "./spawn_plan.ts";

// Loaded only by `--worktree` spawns (start-up cost of every other spawn unchanged).
type WorktreeSteps = typeof import("./worktree_steps.ts");
const worktreeSteps = () =>
  lazyImport<WorktreeSteps>(new URL("./worktree_steps.ts", import.meta.url));

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
  /**
   * After the spawn, remove what earlier sessions of the same name left under other project
   * hashes (the older Go lisa's `--cleanup-all-hashes`; a moved project gets a new hash), never
   * the files of one another project still runs.
   */
  cleanupAllHashes?: boolean;
  /** Run the agent in a new git worktree on a new branch (`--worktree`). */
  worktree?: boolean;
  /** `--branch`: the worktree's branch (default `lisa/<alias>`, see `defaultBranchName`). */
  branch?: string;
  /** `--base`: the commit the branch starts at (default `HEAD`). */
  base?: string;
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
  /**
   * The version of the claude that runs (it decides which hooks it gets: an event an older
   * claude does not know would break its `--settings`); null for codex, `--command` sessions,
   * sessions without hooks, and when it cannot be told.
   */
  agentVersion: string | null;
  /**
   * The session's short name (`{slug}-{adjective}-{noun}`), accepted wherever a name is; null
   * for a session named with `--session` (that name is its short name).
   */
  alias: string | null;
  parentSession: string | null;
  createdAt: string;
  /** Sandbox-bypass flags the nested policy added to the agent command ([] when none). */
  nestedBypass: string[];
  nestedDetection: NestedDetection;
  dryRun: boolean;
  /** `--worktree`: the session's worktree (with --dry-run: the one that would be created). */
  worktree?: WorktreeInfo;
  /** --dry-run only: the startup script (the caller's environment summarised). */
  startupScript?: string;
  /** --dry-run only: the session's LISA_* environment. */
  env?: Record<string, string>;
  /** --dry-run only: the tmux invocation. */
  tmuxArgv?: string[];
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

/** The report of a plan (`spawn --json`). */
function resultOf(plan: SpawnPlan, dryRun: boolean): SpawnResult {
  return {
    ok: true,
    session: plan.session,
    agent: plan.agent,
    mode: plan.mode,
    runId: plan.runId,
    projectRoot: plan.project.root,
    projectHash: plan.project.hash,
    socketPath: plan.project.socketPath,
    command: plan.command,
    commandOnly: plan.commandOnly,
    agentVersion: plan.meta.agentVersion ?? null,
    alias: plan.meta.alias ?? null,
    parentSession: plan.parentSession,
    createdAt: plan.createdAt,
    nestedBypass: plan.nestedBypass,
    nestedDetection: plan.nestedDetection,
    dryRun,
    ...(plan.meta.worktree ? { worktree: plan.meta.worktree } : {}),
  };
}

/**
 * The prompt of `--prompt` / `--prompt-file` (undefined when none); throws its input errors
 * ({@link readTextInput}) and `invalid_argument` for a prompt holding a NUL byte.
 */
async function promptOf(deps: Deps, options: SpawnOptions): Promise<string | undefined> {
  const prompt = await readTextInput(deps, {
    value: options.prompt,
    file: options.promptFile,
    valueFlag: "--prompt",
    fileFlag: "--prompt-file",
  });
  const nul = prompt?.indexOf("\0") ?? -1;
  if (nul >= 0) {
    // Neither an argument nor the shell that pipes a long one to stdin can carry it: the
    // agent would get the prompt without it, silently.
    throw new UsageError(
      `The prompt holds a NUL byte (character ${nul + 1}), which no program can receive in ` +
        "its arguments; remove it (e.g. tr -d '\\000' < FILE) and spawn again",
      "invalid_argument",
      { at: nul },
    );
  }
  return prompt;
}

/**
 * Spawns a session (or, with `dryRun`, only plans it and creates nothing). Throws
 * `invalid_agent`, `invalid_mode`, `invalid_session_name`, `missing_argument`, the prompt input
 * errors of {@link readTextInput} (and `invalid_argument` for a prompt holding a NUL byte),
 * `prompt_too_large` (an interactive prompt over one argv word), `session_already_exists`,
 * `socket_path_too_long`, `spawn_script_error`, `spawn_tmux_error`, `spawn_meta_error`,
 * `lock_busy`.
 */
export async function spawnSession(deps: Deps, options: SpawnOptions): Promise<SpawnResult> {
  const agent = parseAgent(options.agent);
  const mode = parseMode(options.mode);
  const prompt = await promptOf(deps, options);
  const project = resolveProject(deps, options.projectRoot);
  // tmux would fail on it after the name and the files were taken ("File name too long").
  checkSocketPath(project.socketPath);
  if (!options.worktree && (options.branch !== undefined || options.base !== undefined)) {
    throw new UsageError(
      `${options.branch !== undefined ? "--branch" : "--base"} needs --worktree`,
      "missing_argument",
      { flag: "--worktree" },
    );
  }
  let worktree: WorktreePlan | undefined;
  let session = options.session;
  // The alias first: a worktree's default branch is named after it (`lisa/<alias>`). A name
  // given with --session is already the person's short name: it gets no generated alias.
  const alias = options.session === undefined
    ? pickAlias(project.slug, knownAliases(project.runtimeDir, deps.config.worktreeDir))
    : undefined;
  if (options.worktree) {
    // The name comes first: the worktree's directory and default branch derive from it.
    session = session !== undefined
      ? validateNewSessionName(session)
      : sessionName({ projectRoot: project.root, agent, mode, tag: options.tag, now: deps.now() });
    const { planWorktree } = await worktreeSteps();
    worktree = await planWorktree(deps, {
      project,
      session,
      alias,
      branch: options.branch,
      base: options.base,
      dryRun: options.dryRun,
    });
  }
  const custom = options.command !== undefined && options.command.trim() !== "";
  // Only claude's hooks depend on its version (one look at its install, or one `--version`).
  const hooked = agent === "claude" && !custom && options.hooks !== false &&
    deps.config.hooks !== "off";
  const plan = planSpawn(deps, {
    ...options,
    agentVersion: hooked ? await agentVersion(deps, "claude", !options.dryRun) : null,
    session,
    worktree: worktree?.info,
    cwd: worktree?.cwd,
    agent,
    mode,
    explicitAgent: options.explicitAgent === true,
    prompt,
    project,
  });
  if (alias !== undefined) plan.meta.alias = alias;
  if (options.dryRun) {
    const tmux = new Tmux(deps.runner, project.socketPath);
    return {
      ...resultOf(plan, true),
      startupScript: dryRunScript(plan),
      env: plan.lisaEnv,
      tmuxArgv: tmux.argv(plan.tmuxCommands),
    };
  }
  await launch(deps, plan, worktree);
  if (options.cleanupAllHashes) {
    await removeLeftUnderOtherHashes(deps, project.runtimeDir, plan.session, project.hash);
  }
  return resultOf(plan, false);
}

/**
 * Creates the session of `plan` (see the module doc for the order and the failures), in the
 * worktree of `worktree` when given: created once the name is known to be free, discarded
 * again when a later step fails.
 */
async function launch(deps: Deps, plan: SpawnPlan, worktree?: WorktreePlan): Promise<void> {
  const create = worktree !== undefined ? await worktreeSteps() : undefined;
  // A worktree spawn undoes itself when a signal interrupts it before its session runs.
  const section = create?.openSpawnSection();
  try {
    await launchIn(deps, plan, worktree, create, section);
  } finally {
    section?.close();
  }
}

/**
 * Runs `fn` under the project's spawn lock (`session/spawn_lock.ts`): a spawn's check that its
 * name is free and the files it then clears and writes are one step for the other spawns of the
 * project, so the loser of two spawns of one name never removes the winner's startup script (its
 * session would die before its command ran) or meta.
 */
function underSpawnLock<T>(plan: SpawnPlan, fn: () => Promise<T>): Promise<T> {
  return withSpawnLock(
    plan.project.runtimeDir,
    plan.project.hash,
    `session "${plan.session}" was not created`,
    fn,
  );
}

/** A launch under way: the plan, its tmux server, and how to undo what it made so far. */
interface Launch {
  deps: Deps;
  plan: SpawnPlan;
  tmux: Tmux;
  files: { runtimeDir: string; hash: string; session: string };
  /** The hook log of an earlier session of the name, which history could not take, stays. */
  keepHooks: boolean;
  undoWorktree: () => Promise<void>;
}

/** {@link launch} within the spawn's section (a worktree spawn's). */
async function launchIn(
  deps: Deps,
  plan: SpawnPlan,
  worktree: WorktreePlan | undefined,
  create: WorktreeSteps | undefined,
  section: { check(): void } | undefined,
): Promise<void> {
  const { session, project } = plan;
  const l: Launch = {
    deps,
    plan,
    tmux: new Tmux(deps.runner, project.socketPath),
    files: { runtimeDir: project.runtimeDir, hash: project.hash, session },
    keepHooks: false,
    undoWorktree: async () => {},
  };
  if (worktree === undefined || create === undefined) {
    await underSpawnLock(plan, async () => {
      await claimName(l);
      await createSession(l, section);
    });
    return await started(deps, plan);
  }
  // A worktree's checkout may take minutes: the lock is not held across it, so the name is
  // claimed again once the worktree stands (a spawn of the name that won meanwhile made its
  // own worktree first, so this one's creation failed, or it runs now: this one undoes its own).
  await underSpawnLock(plan, () => claimName(l));
  await create.createWorktree(deps, project.runtimeDir, worktree, {
    session,
    ...(plan.meta.alias ? { alias: plan.meta.alias } : {}),
    projectRoot: project.root,
    projectHash: project.hash,
    socketPath: project.socketPath,
    createdAt: plan.createdAt,
  });
  l.undoWorktree = () => create.discardWorktree(deps, project.runtimeDir, worktree);
  await underSpawnLock(plan, async () => {
    try {
      await claimName(l);
    } catch (error) {
      await l.undoWorktree().catch(() => {});
      throw error;
    }
    await createSession(l, section);
  });
  try {
    create.confirmWorktree(worktree);
  } catch {
    // The record stays marked `session`: once this lisa is gone, prune judges the worktree by
    // its rule like any other (it never takes a running session's).
  }
  await started(deps, plan);
}

/**
 * The name must be free (`session_already_exists`); files of an earlier session of it go, and
 * history records them first. A hook log it cannot take stays (`keepHooks`); the new run appends
 * to it (lines carry their run id). Called under the spawn lock.
 */
async function claimName(l: Launch): Promise<void> {
  const { deps, plan: { session, project, paths }, tmux } = l;
  if (await hasSession(tmux, session)) {
    throw new LisaError("session_already_exists", `Session "${session}" already exists`, {
      details: { session, socketPath: project.socketPath },
    });
  }
  if (pathExists(paths.meta) || pathExists(paths.hooks)) {
    l.keepHooks = !(await recordBeforeRemoval(deps, [{ ...l.files, runId: null }], "cleanup"))
      .recorded;
  }
}

/**
 * The session of the launch from a free name on (called under the spawn lock): the earlier
 * run's files cleared, the startup script, the tmux session, its meta. Each failure removes what
 * it made (with the worktree made for it) and throws its `spawn_*` error.
 */
async function createSession(l: Launch, section: { check(): void } | undefined): Promise<void> {
  const { deps, plan: { session, project } } = l;
  removeSessionArtifacts(project.runtimeDir, session, {
    hash: project.hash,
    keepHooks: l.keepHooks,
  });
  pruneOldEvents(project.runtimeDir, deps.config.eventRetentionDays, deps.now().getTime());
  const created = await createTmuxSession(l, section);
  await writeSessionMeta(l, created);
}

/** Undoes a launch that failed (history first), logs why, and throws `reason`. */
async function failLaunch(
  l: Launch,
  reason: string,
  message: string,
  cause: unknown,
): Promise<never> {
  const { deps, plan: { project, session, runId, paths } } = l;
  const recorded = (await recordBeforeRemoval(deps, [{ ...l.files, runId }], "spawn_failed"))
    .recorded;
  removeSessionArtifacts(project.runtimeDir, session, {
    hash: project.hash,
    keepHooks: l.keepHooks || !recorded,
  });
  await l.undoWorktree().catch(() => {});
  await appendLifecycle(deps, paths.events, session, {
    runId,
    state: null,
    status: null,
    reason,
    error: (cause as Error)?.message ?? String(cause),
  });
  throw new LisaError(reason, message, { cause, details: { session } });
}

/** Writes the startup script and makes the tmux session (one invocation); its output. */
async function createTmuxSession(
  l: Launch,
  section: { check(): void } | undefined,
): Promise<RunResult> {
  const { deps, plan, tmux } = l;
  const { session, project } = plan;
  try {
    writeFileAtomic(plan.scriptPath, buildStartupScript(plan.script));
  } catch (error) {
    return await failLaunch(
      l,
      "spawn_script_error",
      `Cannot write the startup script "${plan.scriptPath}": ${(error as Error).message}`,
      error,
    );
  }
  try {
    // The last moment to stop: once tmux made the session, the spawn is done.
    section?.check();
  } catch (error) {
    removeSessionArtifacts(project.runtimeDir, session, { hash: project.hash });
    await l.undoWorktree().catch(() => {});
    throw error;
  }
  let created: RunResult;
  try {
    created = await tmux.run(plan.tmuxCommands, { env: clientEnv(deps.env), clearEnv: true });
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") {
      removeSessionArtifacts(project.runtimeDir, session, { hash: project.hash });
      await l.undoWorktree().catch(() => {});
      throw error;
    }
    // A timeout: the session may exist half-started; it is not reported, so it must not stay.
    await killSession(tmux, session).catch(() => false);
    return await failLaunch(
      l,
      "spawn_tmux_error",
      `tmux could not create session "${session}": ${(error as Error).message}`,
      error,
    );
  }
  return await checkCreated(l, created);
}

/** `created` when tmux made the session; otherwise the launch fails (or lost a race). */
async function checkCreated(l: Launch, created: RunResult): Promise<RunResult> {
  const { plan, tmux } = l;
  const { session, project } = plan;
  if (created.success && created.stderr.trim() !== "" && !(await present(tmux, session))) {
    const first = created.stderr.trim().split("\n")[0];
    return await failLaunch(
      l,
      "spawn_tmux_error",
      `tmux could not create session "${session}": ${first}`,
      new Error(first),
    );
  }
  if (created.success) return created;
  if (isDuplicateSession(created.stderr)) {
    // Lost a race with another spawn of the same name: its artifacts are not ours to touch.
    try {
      Deno.removeSync(plan.scriptPath);
    } catch { /* already gone */ }
    await l.undoWorktree().catch(() => {});
    throw new LisaError("session_already_exists", `Session "${session}" already exists`, {
      details: { session, socketPath: project.socketPath },
    });
  }
  const first = created.stderr.trim().split("\n")[0] ?? "";
  return await failLaunch(
    l,
    "spawn_tmux_error",
    `tmux could not create session "${session}": ${first || `exit ${created.code}`}`,
    new Error(first),
  );
}

/** The meta of the session tmux made (`created`: its pane); the launch fails without it. */
async function writeSessionMeta(l: Launch, created: RunResult): Promise<void> {
  const { plan: { session, paths }, tmux } = l;
  try {
    writeMeta(paths, { ...l.plan.meta, ...parseNewPane(created.stdout) });
  } catch (error) {
    try {
      await killSession(tmux, session);
    } catch { /* reported through the error below */ }
    return await failLaunch(
      l,
      "spawn_meta_error",
      `Cannot write the session meta "${paths.meta}": ${(error as Error).message}`,
      error,
    );
  }
}

/** What follows a spawn that made its session (outside the spawn lock): its event, the sweeps. */
async function started(deps: Deps, plan: SpawnPlan): Promise<void> {
  await appendLifecycle(deps, plan.paths.events, plan.session, {
    runId: plan.runId,
    state: "just_started",
    status: "active",
    reason: "spawn_success",
    // The alias outlives the meta here (kill keeps the event log): it still names the session.
    ...(plan.meta.alias ? { alias: plan.meta.alias } : {}),
    agent: plan.agent,
    mode: plan.mode,
    parentSession: plan.parentSession,
  });
  // History's recovery sweeps run when sessions start too (only if history exists already).
  await sweepAfterSpawn(deps);
}
