/**
 * The one module that reads `LISA_*` variables. Every variable has a default; an invalid value
 * (negative, non-numeric, unknown word) falls back to the default and is reported by `doctor`.
 */

/** The environment as a plain record (a snapshot of `Deno.env.toObject()` or a test fake). */
export type Env = Readonly<Record<string, string>>;

/** Typed settings derived from the environment. */
export interface Config {
  cmdTimeoutSeconds: number;
  stateLockTimeoutMs: number;
  eventLockTimeoutMs: number;
  processListCacheMs: number;
  processScanIntervalSeconds: number;
  heartbeatStaleSeconds: number;
  outputStaleSeconds: number;
  eventsMaxBytes: number;
  eventsMaxLines: number;
  eventRetentionDays: number;
  agentProcessMatch: string[];
  agentProcessMatchClaude: string[];
  agentProcessMatchCodex: string[];
  cleanupAllHashes: boolean;
  /** Project root routed from a parent lisa session (used when `--project-root` is absent). */
  projectRoot: string | undefined;
  tmuxSocketDir: string | undefined;
  runtimeDir: string;
  hooks: "on" | "off";
  /** Seconds without progress after which a working agent is `stuck` (issue 13). */
  stallSeconds: number;
  /** Seconds after spawn during which a quiet session is `just_started` (the grace window). */
  graceSeconds: number;
  /** Seconds without CPU, output or input after which an interactive agent is quiet. */
  quietSeconds: number;
  /** Set inside a lisa session: its name (used as `parentSession` by nested spawns). */
  sessionName: string | undefined;
  /** Set inside a lisa session: the hook sidecar file that `lisa hook` appends to. */
  hookFile: string | undefined;
  /** Set inside a lisa session: the run id of the current spawn. */
  runId: string | undefined;
  /** The history database (default: `${XDG_STATE_HOME:-~/.local/state}/lisa/history.db`). */
  historyDb: string | undefined;
  /** A turn with no activity for this long, in a session no longer working, is interrupted. */
  turnStaleSeconds: number;
  /** Where `spawn --worktree` puts worktrees (`LISA_WORKTREE_DIR`). */
  worktreeDir: string;
  /** Time limit of one git step (worktree add and remove, merge, commit) in seconds. */
  gitTimeoutSeconds: number;
  /** `lisa mcp`: seconds between two progress notifications of a call that prints nothing. */
  mcpProgressSeconds: number;
  /** Longest wait of a session's wrapper for tmux to show the command's last output. */
  doneBarrierSeconds: number;
  /** The hosts file (`LISA_HOSTS_FILE`; default under `XDG_CONFIG_HOME`, see core/hosts). */
  hostsFile: string | undefined;
  /** The ssh program (`LISA_SSH`; default `ssh` on PATH). */
  sshProgram: string | undefined;
  /** ssh's ConnectTimeout for another host, in seconds. */
  hostConnectTimeoutSeconds: number;
  /** The longest lisa waits for one host's answer (fleet queries, one-shot verbs). */
  hostTimeoutSeconds: number;
}

type Kind = "int" | "bool" | "list" | "path" | "enum" | "context";

interface VarSpec {
  name: string;
  key: keyof Config;
  kind: Kind;
  description: string;
  /** Default as shown in docs; for `runtimeDir` it depends on the uid. */
  defaultValue: number | boolean | string | string[] | undefined;
  min?: number;
  choices?: string[];
}

/**
 * Default of `LISA_DONE_BARRIER_SECONDS`: long enough for a loaded machine's tmux, paid in full
 * only where tmux never answers (see `core/spawn/startup_script.ts`).
 */
export const DEFAULT_DONE_BARRIER_SECONDS = 10;

/** Every variable lisa reads, with its default and meaning (docs/reference.md's table shows it). */
export const VARIABLES: readonly VarSpec[] = [
  {
    name: "LISA_CMD_TIMEOUT_SECONDS",
    key: "cmdTimeoutSeconds",
    kind: "int",
    defaultValue: 20,
    min: 1,
    description: "Timeout of each tmux/ps subprocess",
  },
  {
    name: "LISA_STATE_LOCK_TIMEOUT_MS",
    key: "stateLockTimeoutMs",
    kind: "int",
    defaultValue: 2500,
    min: 0,
    description: "State-file lock timeout",
  },
  {
    name: "LISA_EVENT_LOCK_TIMEOUT_MS",
    key: "eventLockTimeoutMs",
    kind: "int",
    defaultValue: 2500,
    min: 0,
    description: "Event-file lock timeout",
  },
  {
    name: "LISA_PROCESS_LIST_CACHE_MS",
    key: "processListCacheMs",
    kind: "int",
    defaultValue: 500,
    min: 0,
    description: "Cache TTL of a full process listing (ps fallback)",
  },
  {
    name: "LISA_PROCESS_SCAN_INTERVAL_SECONDS",
    key: "processScanIntervalSeconds",
    kind: "int",
    defaultValue: 8,
    min: 0,
    description: "Minimum interval between full pane-subtree scans when the agent pid is known",
  },
  {
    name: "LISA_HEARTBEAT_STALE_SECONDS",
    key: "heartbeatStaleSeconds",
    kind: "int",
    defaultValue: 8,
    min: 1,
    description: "Heartbeat age after which it counts as stale",
  },
  {
    name: "LISA_OUTPUT_STALE_SECONDS",
    key: "outputStaleSeconds",
    kind: "int",
    defaultValue: 240,
    min: 1,
    description: "Output age after which it counts as stale",
  },
  {
    name: "LISA_EVENTS_MAX_BYTES",
    key: "eventsMaxBytes",
    kind: "int",
    defaultValue: 1_000_000,
    min: 1024,
    description: "Event/hook file size that triggers compaction",
  },
  {
    name: "LISA_EVENTS_MAX_LINES",
    key: "eventsMaxLines",
    kind: "int",
    defaultValue: 2000,
    min: 1,
    description: "Event/hook file line count that triggers compaction",
  },
  {
    name: "LISA_EVENT_RETENTION_DAYS",
    key: "eventRetentionDays",
    kind: "int",
    defaultValue: 14,
    min: 0,
    description: "Event files older than this are pruned",
  },
  {
    name: "LISA_AGENT_PROCESS_MATCH",
    key: "agentProcessMatch",
    kind: "list",
    defaultValue: [],
    description: "Extra executable names counted as an agent (any agent), comma-separated",
  },
  {
    name: "LISA_AGENT_PROCESS_MATCH_CLAUDE",
    key: "agentProcessMatchClaude",
    kind: "list",
    defaultValue: [],
    description: "Extra executable names counted as claude",
  },
  {
    name: "LISA_AGENT_PROCESS_MATCH_CODEX",
    key: "agentProcessMatchCodex",
    kind: "list",
    defaultValue: [],
    description: "Extra executable names counted as codex",
  },
  {
    name: "LISA_CLEANUP_ALL_HASHES",
    key: "cleanupAllHashes",
    kind: "bool",
    defaultValue: false,
    description: "Default of --cleanup-all-hashes",
  },
  {
    name: "LISA_PROJECT_ROOT",
    key: "projectRoot",
    kind: "path",
    defaultValue: undefined,
    description: "Project root used when --project-root is absent (set inside lisa sessions)",
  },
  {
    name: "LISA_TMUX_SOCKET_DIR",
    key: "tmuxSocketDir",
    kind: "path",
    defaultValue: undefined,
    description: "Directory for per-project tmux sockets (default: the runtime dir)",
  },
  {
    name: "LISA_RUNTIME_DIR",
    key: "runtimeDir",
    kind: "path",
    defaultValue: "/tmp/lisa-<uid>",
    description: "Private directory for all artifacts",
  },
  {
    name: "LISA_HOOKS",
    key: "hooks",
    kind: "enum",
    defaultValue: "on",
    choices: ["on", "off"],
    description: "Inject agent hooks at spawn (on|off)",
  },
  {
    name: "LISA_STALL_SECONDS",
    key: "stallSeconds",
    kind: "int",
    defaultValue: 300,
    min: 1,
    description: "Seconds without progress (CPU, output, tool child, hook) before `stuck`",
  },
  {
    name: "LISA_GRACE_SECONDS",
    key: "graceSeconds",
    kind: "int",
    defaultValue: 8,
    min: 1,
    description: "Start-up grace window: a quiet session this young is `just_started`",
  },
  {
    name: "LISA_QUIET_SECONDS",
    key: "quietSeconds",
    kind: "int",
    defaultValue: 3,
    min: 1,
    description: "An interactive agent quiet this long (no CPU, output, input) waits for input",
  },
  {
    name: "LISA_SESSION_NAME",
    key: "sessionName",
    kind: "context",
    defaultValue: undefined,
    description: "Set inside a lisa session: its name (parent of nested spawns)",
  },
  {
    name: "LISA_HOOK_FILE",
    key: "hookFile",
    kind: "context",
    defaultValue: undefined,
    description: "Set inside a lisa session: file `lisa hook` appends to",
  },
  {
    name: "LISA_RUN_ID",
    key: "runId",
    kind: "context",
    defaultValue: undefined,
    description: "Set inside a lisa session: run id of the spawn",
  },
  {
    name: "LISA_HISTORY_DB",
    key: "historyDb",
    kind: "path",
    defaultValue: undefined,
    description: "History database (default: ~/.local/state/lisa/history.db, see History)",
  },
  {
    name: "LISA_TURN_STALE_SECONDS",
    key: "turnStaleSeconds",
    kind: "int",
    defaultValue: 300,
    min: 1,
    description: "History sweep: a turn idle this long in an idle session becomes interrupted",
  },
  // issue 15
  {
    name: "LISA_WORKTREE_DIR",
    key: "worktreeDir",
    kind: "path",
    defaultValue: "$XDG_STATE_HOME/lisa/worktrees",
    description: "Where `spawn --worktree` creates worktrees (default: XDG_STATE_HOME, else " +
      "~/.local/state)",
  },
  // issue 21: a checkout of a large repository takes far longer than a tmux call
  {
    name: "LISA_GIT_TIMEOUT_SECONDS",
    key: "gitTimeoutSeconds",
    kind: "int",
    defaultValue: 300,
    min: 1,
    description: "Time limit of each git step (worktree add/remove, merge, commit)",
  },
  {
    name: "LISA_MCP_PROGRESS_SECONDS",
    key: "mcpProgressSeconds",
    kind: "int",
    defaultValue: 5,
    min: 1,
    description: "lisa mcp: longest gap between progress notifications of a call (progressToken)",
  },
  {
    name: "LISA_DONE_BARRIER_SECONDS",
    key: "doneBarrierSeconds",
    kind: "int",
    defaultValue: DEFAULT_DONE_BARRIER_SECONDS,
    min: 1,
    description: "Longest wait of a session's wrapper for tmux to show the command's last output " +
      "before it writes the done file (spawn time)",
  },
  // issue 24
  {
    name: "LISA_HOSTS_FILE",
    key: "hostsFile",
    kind: "path",
    defaultValue: "$XDG_CONFIG_HOME/lisa/hosts.json",
    description: "The hosts `--host` and `--all-hosts` reach (default: XDG_CONFIG_HOME, else " +
      "~/.config)",
  },
  {
    name: "LISA_SSH",
    key: "sshProgram",
    kind: "path",
    defaultValue: undefined,
    description: "The ssh program lisa runs to reach a host (default: ssh on PATH)",
  },
  {
    name: "LISA_HOST_CONNECT_TIMEOUT_SECONDS",
    key: "hostConnectTimeoutSeconds",
    kind: "int",
    defaultValue: 5,
    min: 1,
    description: "ssh's ConnectTimeout when lisa reaches another host",
  },
  {
    name: "LISA_HOST_TIMEOUT_SECONDS",
    key: "hostTimeoutSeconds",
    kind: "int",
    defaultValue: 30,
    min: 1,
    description: "The longest lisa waits for a host's answer (not for watch, monitor, send, " +
      "smoke, attach)",
  },
];

/** Default of `LISA_WORKTREE_DIR`: under `$XDG_STATE_HOME`, else `$HOME/.local/state`. */
export function defaultWorktreeDir(env: Env, uid: number): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && xdg.startsWith("/")) return `${xdg.replace(/\/+$/, "")}/lisa/worktrees`;
  const home = env.HOME;
  if (home !== undefined && home.startsWith("/")) {
    return `${home.replace(/\/+$/, "")}/.local/state/lisa/worktrees`;
  }
  return `/tmp/lisa-${uid}-worktrees`;
}

/**
 * Default of `LISA_HOSTS_FILE`: `${XDG_CONFIG_HOME:-~/.config}/lisa/hosts.json` (an
 * `XDG_CONFIG_HOME` that is not absolute is ignored, as the XDG spec says); undefined without
 * either.
 */
export function defaultHostsFile(env: Env): string | undefined {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && xdg.startsWith("/")) return `${xdg.replace(/\/+$/, "")}/lisa/hosts.json`;
  const home = env.HOME;
  if (home !== undefined && home.startsWith("/")) {
    return `${home.replace(/\/+$/, "")}/.config/lisa/hosts.json`;
  }
  return undefined;
}

/** One variable as `doctor` reports it. */
export interface ConfigEntry {
  name: string;
  value: number | boolean | string | string[] | null;
  defaultValue: number | boolean | string | string[] | null;
  /** The raw value from the environment, or null when unset. */
  raw: string | null;
  source: "env" | "default";
  valid: boolean;
  message?: string;
  description: string;
}

/** Result of {@link loadConfig}. */
export interface LoadedConfig {
  config: Config;
  entries: ConfigEntry[];
}

function parseValue(
  spec: VarSpec,
  raw: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  switch (spec.kind) {
    case "int": {
      if (!/^\s*\d+\s*$/.test(raw)) return { ok: false, message: `not a non-negative integer` };
      const n = Number(raw.trim());
      if (!Number.isSafeInteger(n)) return { ok: false, message: `too large` };
      if (spec.min !== undefined && n < spec.min) {
        return { ok: false, message: `below the minimum ${spec.min}` };
      }
      return { ok: true, value: n };
    }
    case "bool": {
      const v = raw.trim().toLowerCase();
      if (["1", "true", "yes", "on"].includes(v)) return { ok: true, value: true };
      if (["0", "false", "no", "off", ""].includes(v)) return { ok: true, value: false };
      return { ok: false, message: `not a boolean (true/false)` };
    }
    case "list":
      return {
        ok: true,
        value: raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0),
      };
    case "path": {
      const v = raw.trim();
      if (v === "") return { ok: true, value: undefined };
      if (!v.startsWith("/")) return { ok: false, message: `not an absolute path` };
      return { ok: true, value: v.length > 1 ? v.replace(/\/+$/, "") : v };
    }
    case "enum": {
      const v = raw.trim().toLowerCase();
      if (spec.choices?.includes(v)) return { ok: true, value: v };
      return { ok: false, message: `expected one of ${spec.choices?.join("|")}` };
    }
    case "context":
      return { ok: true, value: raw === "" ? undefined : raw };
  }
}

/**
 * Reads every lisa variable from `env`. Never throws: invalid values fall back to defaults and
 * are flagged in `entries`.
 */
export function loadConfig(env: Env, uid: number): LoadedConfig {
  const config: Record<string, unknown> = {};
  const entries: ConfigEntry[] = [];
  for (const spec of VARIABLES) {
    const def = spec.key === "runtimeDir"
      ? `/tmp/lisa-${uid}`
      : spec.key === "worktreeDir"
      ? defaultWorktreeDir(env, uid)
      : spec.key === "hostsFile"
      ? defaultHostsFile(env)
      : spec.defaultValue;
    const raw = env[spec.name];
    let value: unknown = def;
    let valid = true;
    let message: string | undefined;
    if (raw !== undefined) {
      const parsed = parseValue(spec, raw);
      if (parsed.ok) {
        value = parsed.value === undefined ? def : parsed.value;
      } else {
        valid = false;
        message = `${spec.name}="${raw}" is ${parsed.message}; using the default`;
      }
    }
    config[spec.key] = value;
    entries.push({
      name: spec.name,
      value: (value ?? null) as ConfigEntry["value"],
      defaultValue: (def ?? null) as ConfigEntry["defaultValue"],
      raw: raw ?? null,
      source: raw !== undefined && valid ? "env" : "default",
      valid,
      ...(message ? { message } : {}),
      description: spec.description,
    });
  }
  return { config: config as unknown as Config, entries };
}
