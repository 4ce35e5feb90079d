/**
 * The vocabulary shared across layers: agents and modes (with their parsers), the nested
 * policies, session states, and the records kept in the runtime dir (DESIGN §4.4).
 */
import { UsageError } from "./errors.ts";

/** The agents lisa knows how to drive. */
export const AGENTS = ["claude", "codex"] as const;
/** One of {@link AGENTS}. */
export type Agent = typeof AGENTS[number];
/** Session modes. */
export const MODES = ["interactive", "exec"] as const;
/** One of {@link MODES}. */
export type Mode = typeof MODES[number];

/** Returns `value` as an Agent, or throws `invalid_agent` (exit 1). */
export function parseAgent(value: string): Agent {
  const v = value.trim().toLowerCase();
  if ((AGENTS as readonly string[]).includes(v)) return v as Agent;
  throw new UsageError(`Unknown agent "${value}" (expected claude or codex)`, "invalid_agent");
}

/** Other names of the modes (the older Go lisa's aliases: `execution`, `non-interactive`). */
export const MODE_ALIASES: Readonly<Record<string, Mode>> = {
  "execution": "exec",
  "non-interactive": "exec",
};

/** Returns `value` (or an alias) as a Mode, or throws `invalid_mode` (exit 1). */
export function parseMode(value: string): Mode {
  const v = value.trim().toLowerCase();
  if ((MODES as readonly string[]).includes(v)) return v as Mode;
  if (Object.hasOwn(MODE_ALIASES, v)) return MODE_ALIASES[v];
  throw new UsageError(`Unknown mode "${value}" (expected interactive or exec)`, "invalid_mode");
}

/** `--nested-policy`: auto (follow intent/detection), force (always bypass), off (never). */
export const NESTED_POLICIES = ["auto", "force", "off"] as const;
/** One of {@link NESTED_POLICIES}. */
export type NestedPolicy = typeof NESTED_POLICIES[number];
/** `--nesting-intent`: auto (use the prompt heuristic), nested (bypass), neutral (do not). */
export const NESTING_INTENTS = ["auto", "nested", "neutral"] as const;
/** One of {@link NESTING_INTENTS}. */
export type NestingIntent = typeof NESTING_INTENTS[number];

/** Spawn facts (`…-meta.json`). Written once at spawn. */
export interface SessionMeta {
  session: string;
  parentSession: string | null;
  /**
   * The run id of the session that spawned this one (its `LISA_RUN_ID`), telling it apart from
   * another session of the same name (another project's, or an earlier run); absent without a
   * parent and in metas written before this field.
   */
  parentRunId?: string;
  agent: Agent;
  mode: Mode;
  projectRoot: string;
  projectHash: string;
  socketPath: string;
  /** The command the pane runs (shell syntax, as shown by spawn --json). */
  startCmd: string;
  prompt: string | null;
  createdAt: string;
  runId: string;
  /** claude `--session-id` when hooks are injected. */
  agentSessionId: string | null;
  hooks: boolean;
  /**
   * The agent's version as spawn found it (`2.1.197`; it decides which hooks it gets); absent
   * when unknown, for `--command` sessions and in metas written before this field.
   */
  agentVersion?: string;
  /** Bypass flags added by the nested policy (visible in spawn --json). */
  nestedBypass?: string[];
  /**
   * True for a `--command` session spawned without an explicit `--agent`: `agent` then only
   * fills the name's agent word, and status expects no agent (no agent screen rules, no
   * preferred agent when matching processes). Absent in metas written before this field.
   */
  commandOnly?: boolean;
  /**
   * Short human name `{slug}-{adjective}-{noun}`, unique among the user's known sessions
   * (issue 11); absent in metas written before it and for sessions spawned without one.
   */
  alias?: string;
  /** `spawn --worktree`: the git worktree the session runs in (absent otherwise). */
  worktree?: WorktreeInfo;
  /**
   * tmux's ids of the window (`@N`) and pane (`%N`) spawn created: every tmux call that reads
   * or writes the session's pane targets exactly that pane (`=NAME:.%P`), never whichever
   * one tmux calls active. Absent in metas written before them (and when tmux did not print
   * them); the session's first pane is targeted then.
   */
  windowId?: string;
  paneId?: string;
}

/** A session's own git worktree (`spawn --worktree`), as meta and `--json` payloads show it. */
export interface WorktreeInfo {
  /** The worktree's directory (outside the repository's working tree). */
  path: string;
  /** The branch created for it. */
  branch: string;
  /** `--base` as given (default `HEAD`). */
  base: string;
  /** The commit `base` resolved to when the worktree was created. */
  baseCommit: string;
  /** The main checkout it was created from (where `merge` merges into). */
  repoRoot: string;
}

/** What `monitor --expect` accepts as success. */
export const EXPECTS = ["any", "terminal", "marker"] as const;
/** One of {@link EXPECTS}. */
export type Expect = typeof EXPECTS[number];

/** States a session can be in (seed 003). */
export const SESSION_STATES = [
  "just_started",
  "in_progress",
  "waiting_input",
  "completed",
  "crashed",
  "stuck",
  "degraded",
  "not_found",
] as const;
/** One of {@link SESSION_STATES}. */
export type SessionStateName = typeof SESSION_STATES[number];

/** Terminal states (monitor stops on them). */
export const TERMINAL_STATES: readonly SessionStateName[] = [
  "completed",
  "crashed",
  "stuck",
  "not_found",
];

/** A CPU sample of one process: ticks (utime+stime) at a wall time. */
export interface CpuSample {
  pid: number;
  startTime: number;
  ticks: number;
  atMs: number;
}

/** Poll cache (`…-state.json`), read-modify-written under the state lock. */
export interface SessionStateFile {
  pollCount: number;
  hasEverBeenActive: boolean;
  /** Last known agent pid and its start time (to skip rescans while it lives). */
  agentPid: number | null;
  agentStartTime: number | null;
  lastScanAtMs: number | null;
  cpuSamples: CpuSample[];
  /** Hash of the last visible screen and when it last changed. */
  outputHash: string | null;
  outputChangedAtMs: number | null;
  lastInputAtMs: number | null;
  lastState: SessionStateName | null;
  lastReason: string | null;
  lastSnapshotEventAtMs: number | null;
  /** When the agent was last seen busy (CPU, child, output). */
  lastActiveAtMs: number | null;
  outputWritten: boolean;
  /**
   * Progress tracking for stall detection (issue 13): when a poll last saw the agent's CPU or
   * a tool child busy, and a checkpoint of the agent's CPU ticks (sum over its processes) taken
   * at `progressMarkAtMs`, against which a later poll
   * measures what happened in between, however rarely it polls.
   */
  lastBusyAtMs: number | null;
  progressMarkAtMs: number | null;
  progressMarkTicks: number | null;
}

/** An event log record (one JSONL line). */
export interface EventRecord {
  at: string;
  type: "lifecycle" | "transition" | "snapshot";
  session: string;
  runId?: string | null;
  state?: string | null;
  status?: string | null;
  reason: string;
  poll?: number | null;
  signals?: Record<string, unknown>;
  [extra: string]: unknown;
}

/** A process group lisa started (its id is its leader's pid), as recorded on disk. */
export interface RecordedGroup {
  pgid: number;
  /** The leader's start time (clock ticks since boot; null when unknown). */
  startTime: number | null;
}
