/**
 * `lisa session smoke`: a deterministic nested run L1 → … → LN (N ≤ 4) that uses lisa itself and
 * no real agent. Each level is a lisa session whose `--command` runs this same lisa
 * (`deps.selfCommand`) to spawn the next level, monitor it to `completed`, capture its pane and
 * re-print the markers found there, then print its own marker `LISA_SMOKE_L{k}_DONE`. The
 * deepest level only prints its marker. Markers therefore bubble up; smoke spawns L1, waits for
 * it, and checks that L1's pane holds every marker. Every nested call passes `--project-root`,
 * so nothing depends on a pane's cwd, and every level records its parent (LISA_SESSION_NAME).
 * All sessions are killed at the end (descendants first) unless `keepSessions`, and the run
 * leaves nothing behind (no event logs, no stale socket).
 */
import type { Deps } from "../../base/deps.ts";
import { capture } from "../capture/mod.ts";
import { LisaError } from "../../base/errors.ts";
import { killSessionTree } from "../kill/mod.ts";
import { monitorSession } from "../monitor/mod.ts";
import { removeStaleSocket } from "./cleanup.ts";
import { type Project, removeSpawnLock, resolveProject } from "../session/mod.ts";
import { shellJoin, shellQuote } from "../../base/shell_quote.ts";
import { spawnSession } from "../spawn/mod.ts";
import { removeIfExists } from "../../store/atomic.ts";
import { lockPathFor, sessionPaths } from "../../store/runtime_dir.ts";
import { type PromptProbe, promptStyleProbe, runMatrix } from "./smoke_probe.ts";

/** Most levels a smoke run may have. */
export const MAX_SMOKE_LEVELS = 4;
/** Levels when `--levels` is absent. */
export const DEFAULT_SMOKE_LEVELS = 3;
/** How often levels poll their child (seconds). */
export const SMOKE_POLL_SECONDS = 0.5;

/** Options of {@link runSmoke}. */
export interface SmokeOptions {
  levels?: number;
  projectRoot?: string;
  keepSessions?: boolean;
  /** Overall limit (default 120 s); each level's monitor gets the same bound. */
  timeoutSeconds?: number;
  /** Seconds between L1's polls (default {@link SMOKE_POLL_SECONDS}). */
  pollIntervalSeconds?: number;
  /** At most this many polls of L1. */
  maxPolls?: number;
  /** `--prompt-style`: probe the nested detection with a prompt of this wording first. */
  promptStyle?: string;
  /** `--matrix-file`'s text: `mode|prompt` rows checked before the run. */
  matrix?: string;
  /** `--model`: recorded (smoke runs lisa itself, no agent, so no model is asked). */
  model?: string;
}

/** The JSON summary of a smoke run. */
export interface SmokeResult {
  ok: boolean;
  levels: number;
  /** Session names, L1 first. */
  sessions: string[];
  /** Markers found in L1's pane, in level order. */
  markers: string[];
  missingMarkers: string[];
  durationMs: number;
  projectRoot: string;
  keptSessions: boolean;
  /** Sessions ended by the final cleanup (descendants first). */
  killed: string[];
  /** What went wrong, when `ok` is false. */
  error?: string;
  /** L1's last pane lines, when `ok` is false (for diagnosis). */
  output?: string[];
  /** L1's final state (`"timeout"` when its monitor gave up; null when it never ran). */
  finalState: string | null;
  /** `smoke_failed`, `prompt_probe_failed` or `matrix_failed` when `ok` is false, else null. */
  errorCode: string | null;
  promptProbe?: PromptProbe;
  /** Matrix rows whose detection differed from the expectation. */
  failedMatrix?: PromptProbe[];
  matrixRows?: number;
  model?: string;
}

/** The marker level `k` prints. */
export function smokeMarker(level: number): string {
  return `LISA_SMOKE_L${level}_DONE`;
}

/** Every smoke marker present in `text`, deduplicated, in level order. */
export function markersIn(text: string): string[] {
  const found = new Set(text.match(/LISA_SMOKE_L[0-9]+_DONE/g) ?? []);
  return [...found].sort((a, b) => Number(a.slice(12, -5)) - Number(b.slice(12, -5)));
}

/** Inputs of {@link smokeLevelCommand}. */
export interface LevelCommandInput {
  /** argv of lisa itself. */
  self: readonly string[];
  projectRoot: string;
  /** Session names, L1 first. */
  sessions: readonly string[];
  timeoutSeconds: number;
}

/**
 * The shell command level `level` (1-based) runs. Markers are printed with `printf %d`, so the
 * marker text never appears in a command line (a pane showing a command cannot fake a marker).
 */
export function smokeLevelCommand(input: LevelCommandInput, level: number): string {
  const own = `printf 'LISA_SMOKE_L%d_DONE\\n' ${level}`;
  if (level >= input.sessions.length) return own;
  const self = shellJoin(input.self);
  const child = input.sessions[level];
  const root = shellQuote(input.projectRoot);
  const next = smokeLevelCommand(input, level + 1);
  const fail = (what: string) =>
    `{ echo ${shellQuote(`smoke L${level}: ${what} of L${level + 1} failed`)} >&2; exit 1; }`;
  return [
    "set -o pipefail",
    `${self} session spawn --project-root ${root} --session ${child} --agent claude ` +
    `--mode exec --command ${shellQuote(next)} --json >/dev/null || ${fail("spawn")}`,
    `${self} session monitor --project-root ${root} --session ${child} ` +
    `--until-state completed --stop-on-waiting false --poll-interval ${SMOKE_POLL_SECONDS} ` +
    `--timeout-seconds ${input.timeoutSeconds} --json >/dev/null || ${fail("monitor")}`,
    `${self} session capture --project-root ${root} --session ${child} --verbatim --lines 400 ` +
    `| grep -o 'LISA_SMOKE_L[0-9]*_DONE' | sort -u || ${fail("capture")}`,
    own,
  ].join("\n");
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Runs the nested smoke. Returns the summary (ok false on any failure, with `error`); throws
 * only `invalid_argument` for a level count outside 1–4 and the project errors.
 */
export async function runSmoke(deps: Deps, options: SmokeOptions): Promise<SmokeResult> {
  const levels = options.levels ?? DEFAULT_SMOKE_LEVELS;
  if (!Number.isInteger(levels) || levels < 1 || levels > MAX_SMOKE_LEVELS) {
    throw new LisaError("invalid_argument", `--levels must be 1 to 4, got ${levels}`, {
      usage: true,
    });
  }
  const started = deps.now().getTime();
  const timeoutSeconds = options.timeoutSeconds ?? 120;
  if (!(timeoutSeconds >= 1)) {
    throw new LisaError(
      "invalid_argument",
      `--timeout-seconds must be 1 or more, got ${timeoutSeconds}`,
      {
        usage: true,
      },
    );
  }
  const project = resolveProject(deps, options.projectRoot);
  const id = randomId();
  const sessions = Array.from(
    { length: levels },
    (_, i) => `lisa-${project.slug}-smoke-${id}-l${i + 1}`,
  );
  const expected = sessions.map((_, i) => smokeMarker(i + 1));
  const result: SmokeResult = {
    ok: false,
    levels,
    sessions,
    markers: [],
    missingMarkers: expected,
    durationMs: 0,
    projectRoot: project.root,
    keptSessions: options.keepSessions === true,
    killed: [],
    finalState: null,
    errorCode: null,
    ...(options.model !== undefined ? { model: options.model } : {}),
  };
  // Wording checks first: a failed one fails the smoke without running it.
  if (!wordingChecksPass(options, result)) {
    result.durationMs = deps.now().getTime() - started;
    return result;
  }
  try {
    await runLevels(deps, options, result, { project, expected, started, timeoutSeconds });
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    if (!options.keepSessions) {
      const cleaned = await cleanupSmoke(deps, project, sessions);
      result.killed = cleaned.killed;
      if (cleaned.errors.length > 0) {
        result.ok = false;
        result.error = [result.error, `cleanup: ${cleaned.errors.join("; ")}`]
          .filter((e) => e !== undefined).join("; ");
      }
    }
    result.durationMs = deps.now().getTime() - started;
  }
  if (!result.ok) result.errorCode ??= "smoke_failed";
  return result;
}

/** The nested-wording checks (`--prompt-style`, `--matrix-file`) into `result`; false on a miss. */
function wordingChecksPass(options: SmokeOptions, result: SmokeResult): boolean {
  const probe = options.promptStyle === undefined ? null : promptStyleProbe(options.promptStyle);
  if (probe !== null) result.promptProbe = probe;
  if (options.matrix !== undefined) {
    const rows = runMatrix(options.matrix);
    result.matrixRows = rows.length;
    result.failedMatrix = rows.filter((r) => !r.ok);
  }
  if (probe !== null && !probe.ok) {
    result.error = `prompt probe failed: "${probe.prompt}" gave ${probe.detection.reason}`;
    result.errorCode = "prompt_probe_failed";
  } else if ((result.failedMatrix?.length ?? 0) > 0) {
    result.error = `${result.failedMatrix!.length} matrix row(s) failed`;
    result.errorCode = "matrix_failed";
  }
  return result.errorCode === null;
}

/** Spawns L1 (which spawns the rest), monitors it to its end and reads the markers it printed. */
async function runLevels(
  deps: Deps,
  options: SmokeOptions,
  result: SmokeResult,
  run: { project: Project; expected: string[]; started: number; timeoutSeconds: number },
): Promise<void> {
  const { project, expected, started, timeoutSeconds } = run;
  const sessions = result.sessions;
  const input = { self: deps.selfCommand, projectRoot: project.root, sessions, timeoutSeconds };
  await spawnSession(deps, {
    agent: "claude",
    mode: "exec",
    command: smokeLevelCommand(input, 1),
    session: sessions[0],
    projectRoot: project.root,
  });
  const watched = await monitorSession(deps, {
    session: sessions[0],
    projectRoot: project.root,
    pollIntervalSeconds: options.pollIntervalSeconds ?? SMOKE_POLL_SECONDS,
    maxPolls: options.maxPolls,
    timeoutSeconds: Math.max(1, timeoutSeconds - (deps.now().getTime() - started) / 1000),
    untilState: "completed",
    stopOnWaiting: false,
  });
  const out = await capture(deps, {
    session: sessions[0],
    projectRoot: project.root,
    raw: true,
    verbatim: true,
    lines: 400,
  });
  result.finalState = watched.finalState;
  result.markers = markersIn(out.capture);
  result.missingMarkers = expected.filter((m) => !result.markers.includes(m));
  if (watched.finalState !== "completed") {
    result.error = `L1 ended ${watched.finalState} (exitReason ${watched.exitReason}` +
      `${watched.exitCode === null ? "" : `, exit code ${watched.exitCode}`})`;
  } else if (result.missingMarkers.length > 0) {
    result.error = `markers missing: ${result.missingMarkers.join(", ")}`;
  }
  result.ok = result.error === undefined;
  if (!result.ok) result.output = out.capture.split("\n").slice(-40);
}

/**
 * Kills L1 with its descendants, then any level left without a parent link; then removes what
 * kill keeps for post-mortems (the smoke sessions' event logs), the project's socket when no
 * server answers on it any more (tmux leaves it behind when its last session ends) and its
 * spawn lock file when no spawn holds it.
 */
async function cleanupSmoke(
  deps: Deps,
  project: Project,
  sessions: readonly string[],
): Promise<{ killed: string[]; errors: string[] }> {
  const killed: string[] = [];
  const errors: string[] = [];
  for (const session of sessions) {
    if (killed.includes(session)) continue;
    try {
      const r = await killSessionTree(deps, { session, projectRoot: project.root, graceMs: 500 });
      killed.push(...r.killed.filter((s) => !killed.includes(s)));
    } catch (error) {
      // session_not_found: a level that never started, or one a cascade already ended.
      if (!(error instanceof LisaError && error.code === "session_not_found")) {
        errors.push(`${session}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  for (const session of sessions) {
    const events = sessionPaths(project.runtimeDir, project.hash, session).events;
    for (const path of [events, lockPathFor(events)]) {
      try {
        removeIfExists(path);
      } catch { /* best effort */ }
    }
  }
  await removeStaleSocket(deps.runner, project.socketPath, deps.config.cmdTimeoutSeconds * 1000);
  await removeSpawnLock(project.runtimeDir, project.hash);
  return { killed, errors };
}
