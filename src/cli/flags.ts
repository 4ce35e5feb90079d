/**
 * Every flag of lisa's command line, declared once (the command table picks from here). A flag
 * is a stricli flag spec: its parser turns the text into a value or throws; the message names
 * what was expected, and `run.ts` maps the failure to `invalid_argument` (or the code of a
 * `LisaError` the parser threw, such as `invalid_agent`).
 */
import { UsageError } from "../base/errors.ts";
import { checkHostName } from "../base/host_name.ts";
import {
  type Agent,
  AGENTS,
  type Expect,
  EXPECTS,
  type Mode,
  MODES,
  NESTED_POLICIES,
  type NestedPolicy,
  NESTING_INTENTS,
  type NestingIntent,
  parseAgent,
  parseMode,
  SESSION_STATES,
  type SessionStateName,
} from "../base/types.ts";

// ---------------------------------------------------------------------------------------------
// Parsers. Each carries the JSON Schema of the value it yields (`schema`), so the MCP tools
// (`src/mcp/tools.ts`) type their arguments from these same declarations; a parser without one
// yields text.

/** The JSON Schema of a flag's value (the subset the MCP tools use). */
export interface ValueSchema {
  type: "integer" | "number" | "string" | "boolean" | "array";
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  items?: ValueSchema;
}

/** `parse` with the schema of its values attached (see the section's doc). */
export function typed<F extends (text: string) => unknown>(
  parse: F,
  schema: ValueSchema,
): F & { schema: ValueSchema } {
  return Object.assign(parse, { schema });
}

function bounds(min: number, max: number): { minimum: number; maximum?: number } {
  return max === Number.MAX_SAFE_INTEGER ? { minimum: min } : { minimum: min, maximum: max };
}

/** A whole number within [min, max]. */
export function intIn(min: number, max = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return typed((text: string) => {
    const n = Number(text);
    if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new UsageError(`expected a whole number from ${min} to ${max}, got "${text}"`);
    }
    return n;
  }, { type: "integer", ...bounds(min, max) });
}

/** A number (fractions allowed) within [min, max]. */
export function numberIn(min: number, max = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return typed((text: string) => {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n) || n < min || n > max) {
      throw new UsageError(`expected a number from ${min} to ${max}, got "${text}"`);
    }
    return n;
  }, { type: "number", ...bounds(min, max) });
}

/** "true" / "false" (also yes/no, 1/0, on/off). */
export const parseBool = typed((text: string): boolean => {
  const v = text.trim().toLowerCase();
  if (["true", "yes", "1", "on"].includes(v)) return true;
  if (["false", "no", "0", "off"].includes(v)) return false;
  throw new UsageError(`expected true or false, got "${text}"`);
}, { type: "boolean" });

/** One of `choices` (case-insensitive). */
export function oneOf<T extends string>(choices: readonly T[]): (text: string) => T {
  return typed((text: string) => {
    const v = text.trim().toLowerCase();
    if ((choices as readonly string[]).includes(v)) return v as T;
    throw new UsageError(`expected one of ${choices.join("|")}, got "${text}"`);
  }, { type: "string", enum: choices });
}

/** A comma-separated list (empty items dropped); a JSON caller gives an array of strings. */
export const parseList = typed(
  (text: string): string[] => text.split(",").map((s) => s.trim()).filter((s) => s.length > 0),
  { type: "array", items: { type: "string" } },
);

/** Any text, as given. */
export function parseText(text: string): string {
  return text;
}

// ---------------------------------------------------------------------------------------------
// Flag specs (stricli's shapes). `optional` flags are undefined when absent. A flag several
// verbs share says what it does for each: `brief` where it means the same, and `briefs` (route →
// text) for the verbs where it means something else or has another default. The command table
// gives each verb's help its own text ({@link briefOf}); the flag itself is declared once.

/** Per-verb help of a shared flag: route (`"session spawn"`) → what the flag does there. */
export type Briefs = Readonly<Record<string, string>>;

/** What `spec` does for the verb at `route`: its per-verb text, else its brief. */
export function briefOf(spec: { brief: string; briefs?: Briefs }, route: string): string {
  return spec.briefs?.[route] ?? spec.brief;
}

const text = (brief: string, placeholder: string, briefs?: Briefs) =>
  ({ kind: "parsed", parse: parseText, brief, placeholder, optional: true, briefs }) as const;
const bool = (brief: string, briefs?: Briefs) =>
  ({ kind: "boolean", brief, optional: true, withNegated: false, briefs }) as const;

/** The verbs that accept `--agent`/`--mode` only for the older Go lisa's command lines. */
const READ_FROM_SESSION = [
  "session status",
  "session explain",
  "session monitor",
  "session snapshot",
  "session handoff",
  "session context-pack",
];
/** `text` for each verb of `routes`. */
function each(routes: readonly string[], text: string): Briefs {
  return Object.fromEntries(routes.map((r) => [r, text]));
}
/**
 * Marks a flag that only makes sense on a terminal (output formats, redraws, progress lines):
 * the MCP tools do not offer it (a tool's result is always the `--json` document).
 */
const terminal = <S extends object>(spec: S) => ({ ...spec, terminal: true }) as const;

/**
 * `--session`: the session a verb acts on (required by those verbs, checked in `commands/`);
 * for spawn, the name to give instead of a generated one.
 */
export const session = text(
  "the session: its name, alias or a unique prefix of its alias (HOST:NAME: on that host)",
  "name",
  {
    "session spawn": "the name to give (starting with lisa-; letters, digits, . _ -; default: a " +
      "generated one, as session name prints)",
    "session status":
      "the session: its name, alias or a unique prefix of its alias (default: the " +
      "project's one running session)",
    "session attach": "the session: its name, alias or a unique prefix of its alias, as the " +
      "argument (default: the project's one running session; several: asked on a terminal)",
    "session diff": "the --worktree session: its name or alias (or give it as the argument)",
    "session merge": "the --worktree session: its name or alias (or give it as the argument)",
    "session watch": "watch only this session (default: every session of the project, or of " +
      "every project with --all-sockets)",
    "session tree": "show only this session and its descendants (default: every root)",
    "session context-pack": "the session to pack (same as --for)",
  },
);
/** `--project-root`: where the project's sessions live. */
export const projectRoot = text(
  "project root (default: LISA_PROJECT_ROOT, else the current directory)",
  "dir",
);
/** `--json`. */
export const json = terminal(
  bool("print JSON", { "session watch": "print one JSON object per line" }),
);
/** `--json-min`: the compact payload an orchestrator branches on. */
export const jsonMin = terminal(bool("print compact JSON"));
/** `--stream-json`: one JSON line per event, then the final payload. */
export const streamJson = terminal(
  bool("print one JSON line per poll, then the final payload"),
);
/** `--agent` (`auto`, accepted for compatibility, means the verb's default). */
export const agent = {
  kind: "parsed",
  parse: typed(
    (t: string): Agent | undefined => isAuto(t) ? undefined : parseAgent(t),
    { type: "string", enum: AGENTS },
  ),
  brief: "the agent: claude or codex",
  briefs: {
    "session name": "the agent the name is for: claude or codex (default and auto: claude)",
    "session spawn": "the agent to start: claude or codex (default and auto: claude; with " +
      "--command and no --agent: a command session)",
    "session detect-nested": "the agent to check for: claude or codex (default and auto: codex)",
    "session preflight": "also require this agent (claude or codex) on PATH",
    "history list": "only sessions of this agent: claude or codex",
    ...each(
      READ_FROM_SESSION,
      "accepted for the Go lisa's command lines, not used: the session's own agent counts",
    ),
  },
  placeholder: AGENTS.join("|"),
  optional: true,
} as const;
/** `--mode` (aliases `execution`, `non-interactive`; `auto` means the verb's default). */
export const mode = {
  kind: "parsed",
  parse: typed(
    (t: string): Mode | undefined => isAuto(t) ? undefined : parseMode(t),
    { type: "string", enum: MODES },
  ),
  brief: "the mode: interactive or exec (aliases execution, non-interactive)",
  briefs: {
    "session name": "the mode the name is for: interactive or exec (aliases execution, " +
      "non-interactive; default and auto: interactive)",
    "session spawn": "interactive (the agent stays for more input) or exec (one prompt, then it " +
      "exits); aliases execution, non-interactive; default and auto: interactive",
    "session detect-nested": "the mode to check for: interactive or exec (aliases execution, " +
      "non-interactive; default and auto: exec)",
    ...each(
      READ_FROM_SESSION,
      "accepted for the Go lisa's command lines, not used: the session's own mode counts",
    ),
  },
  placeholder: MODES.join("|"),
  optional: true,
} as const;
function isAuto(text: string): boolean {
  return text.trim().toLowerCase() === "auto";
}

/** `--tag`. */
export const tag = text("tag appended to the name (lowercase alphanumerics, at most 16)", "tag");
/** `--prompt` (spawn: the agent's prompt; detect-nested: the prompt to analyse, required). */
export const prompt = text(
  "the agent's first prompt (never read by a shell; '-' reads stdin)",
  "text",
  {
    "session detect-nested": "the prompt to check (required; taken as given, '-' included)",
  },
);
/** `--prompt-file`. */
export const promptFile = text("read the prompt from this file ('-' reads stdin)", "path");
/** `--command` (spawn: what runs instead of the agent; guard: the command you plan to run). */
export const command = text(
  "run this shell command instead of an agent (shell syntax; without --agent: a command session)",
  "shell",
  { "session guard": "the cleanup or kill command you plan to run, to rate its risk" },
);
/** `--agent-args`. */
export const agentArgs = text("extra agent arguments (shell syntax, inserted as-is)", "shell", {
  "session detect-nested": "the agent arguments spawn would get, checked with the prompt",
});
/** `--model`. */
export const model = text("the agent's model (passed to it as --model)", "model", {
  "session smoke": "recorded in the report only (smoke runs lisa itself, no agent)",
  "session detect-nested": "the model the previewed command passes",
  "session preflight": "record this model in the report (lisa never probes a model)",
});
/** `--width`. */
export const width = {
  kind: "parsed",
  parse: intIn(20, 10_000),
  brief: "pane width (default 200)",
  placeholder: "cols",
  optional: true,
} as const;
/** `--height`. */
export const height = {
  kind: "parsed",
  parse: intIn(5, 10_000),
  brief: "pane height (default 50)",
  placeholder: "rows",
  optional: true,
} as const;
/** `--dangerously-skip-permissions` (on by default for claude; `--no-…` turns it off). */
export const dangerouslySkipPermissions = {
  kind: "boolean",
  brief: "claude: pass --dangerously-skip-permissions (--no-… to leave it out)",
  default: true,
} as const;
/** `--hooks` (on by default; `--no-hooks` like LISA_HOOKS=off). */
export const hooks = {
  kind: "boolean",
  brief: "inject agent hooks (--no-hooks: like LISA_HOOKS=off)",
  default: true,
} as const;
/** `--nested-policy`. */
export const nestedPolicy = {
  kind: "parsed",
  parse: oneOf<NestedPolicy>(NESTED_POLICIES),
  brief: "codex exec's sandbox bypass for nested lisa calls: auto (when the prompt asks for " +
    "them), force (always), off (never)",
  placeholder: NESTED_POLICIES.join("|"),
  default: "auto",
} as const;
/** `--nesting-intent`. */
export const nestingIntent = {
  kind: "parsed",
  parse: oneOf<NestingIntent>(NESTING_INTENTS),
  brief: "override the nested-prompt heuristic: nested, neutral (auto: the heuristic decides)",
  placeholder: NESTING_INTENTS.join("|"),
  default: "auto",
} as const;
/** `--dry-run`. */
export const dryRun = bool("report what would be done, change nothing", {
  "cleanup": "list what would be removed, remove nothing",
  "session spawn": "resolve the name, the command and the startup script and print them; " +
    "start nothing",
  "session prune": "list what would be pruned, remove nothing",
});
/** `--text` of send. */
export const textFlag = text("text to paste (multi-line allowed; '-' reads stdin)", "text");
/** `--text-file` of send. */
export const textFile = text("paste the content of this file ('-' reads stdin)", "path");
/** `--keys` of send. */
export const keys = text("tmux key names separated by spaces (e.g. 'Escape', 'C-c', 'y')", "keys");
/** `--enter` of send. */
export const enter = bool("press Enter afterwards (after a short per-agent delay)");
/** `--lines`. */
export const lines = {
  kind: "parsed",
  parse: intIn(1, 1_000_000),
  brief: "at most the last N lines (default 200; a delta is uncapped unless given)",
  briefs: {
    "session capture": "at most the last N lines, or messages of a claude transcript (default " +
      "200; a delta is uncapped unless given)",
    "session context-pack": "lines of output the pack draws from (default 200; the budget " +
      "trims them)",
  },
  placeholder: "n",
  optional: true,
} as const;
/** `--raw`. */
export const raw = bool(
  "read the pane, not a claude session's transcript (filtered as usual; --verbatim: unfiltered)",
);
/** `--keep-noise`. */
export const keepNoise = bool("keep agent start-up noise (MCP/auth warnings, banners, tips)");
/** `--strip-noise` (the default; accepted for compatibility). */
export const stripNoise = bool("filter start-up noise (the default; accepted for compatibility)");
/** `--delta-from`. */
export const deltaFrom = text(
  "only what appeared since this nextOffset (opaque token) or line count; or a time (@unix, " +
    "RFC 3339): everything if the pane changed since, else nothing",
  "offset",
);
/** `--cursor-file`. */
export const cursorFile = text(
  "read the delta's start from PATH when present; write nextOffset to it afterwards",
  "path",
  {
    "session list": "keep the previous list in PATH for --delta-json (needs it)",
    "session tree": "keep the previous tree in PATH for --delta-json (needs it)",
  },
);
/** `--markers`. */
export const markers = {
  kind: "parsed",
  parse: parseList,
  brief: "comma-separated markers to look for in the text",
  placeholder: "list",
  optional: true,
} as const;
/** `--fail-not-found`. */
export const failNotFound = bool("exit 1 when the session does not exist (default: exit 0)");
/** `--events` of explain. */
export const events = {
  kind: "parsed",
  parse: intIn(1, 100_000),
  brief: "number of recent events (default 10)",
  briefs: {
    "session handoff": "number of recent events (default 5)",
    "session context-pack": "number of recent events read (default 10; --strategy keeps at " +
      "most 3, 5 or 10)",
  },
  placeholder: "n",
  optional: true,
} as const;
/** `--since` of explain. */
export const since = text(
  "only events since a duration ago (15m, 2h, 1d) or an ISO time",
  "when",
  { "history list": "only sessions started since a duration ago (15m, 2h, 1d) or an ISO time" },
);
/** `--poll-interval`. */
export const pollInterval = {
  kind: "parsed",
  parse: numberIn(0),
  brief: "seconds between polls, fractions allowed (default 30)",
  briefs: { "session smoke": "seconds between L1's polls, fractions allowed (default 0.5)" },
  placeholder: "seconds",
  optional: true,
} as const;
/** `--max-polls`. */
export const maxPolls = {
  kind: "parsed",
  parse: intIn(1),
  brief: "stop after N polls (default 120; no limit with only --timeout-seconds)",
  briefs: {
    "session smoke": "at most N polls of L1 (default: no limit, --timeout-seconds bounds the run)",
  },
  placeholder: "n",
  optional: true,
} as const;
/** `--timeout-seconds`. */
export const timeoutSeconds = {
  kind: "parsed",
  parse: numberIn(0),
  brief: "stop after this many seconds",
  briefs: {
    "session monitor": "stop after this many seconds: exitReason timeout, exit 2 (default: no " +
      "limit, --max-polls bounds the run)",
    "session send": "with --wait: stop waiting after this many seconds, outcome timeout, exit 2 " +
      "(default 1800)",
    "session watch": "stop after this many seconds: exit 2 when --until was not met (default: " +
      "no limit)",
    "session smoke": "the whole run's limit, each level's monitor included (default 120)",
  },
  placeholder: "seconds",
  optional: true,
} as const;
/** `--until-marker`. */
export const untilMarker = text(
  "stop when this text appears in the pane or its history (prompt echoes ignored)",
  "text",
);
/** `--until-state`. */
export const untilState = {
  kind: "parsed",
  parse: oneOf<SessionStateName>(SESSION_STATES),
  brief: "stop when the session reaches this state",
  placeholder: "state",
  optional: true,
} as const;
/** `--stop-on-waiting`. */
export const stopOnWaiting = {
  kind: "parsed",
  parse: parseBool,
  brief: "stop on waiting_input",
  placeholder: "true|false",
  default: "true",
} as const;
/** `--expect`. */
export const expect = {
  kind: "parsed",
  parse: oneOf<Expect>(EXPECTS),
  brief: "what counts as success",
  placeholder: EXPECTS.join("|"),
  default: "any",
} as const;
/** `--levels` of smoke. */
export const levels = {
  kind: "parsed",
  parse: intIn(1),
  brief: "nesting depth, 1-4 (default 3)",
  placeholder: "n",
  optional: true,
} as const;
/** `--project-only`. */
export const projectOnly = bool("only the current project's sessions", {
  "cleanup": "only the current project's stale files (default: every project's)",
  "session list": "only the current project's sessions (not other projects' on its server)",
  "session kill-all": "only the current project's sessions (default: every lisa session on " +
    "every lisa server)",
});
/** `--all-sockets`. */
export const allSockets = bool("every project's tmux server in the socket dir");
/** `--cleanup-all-hashes`. */
export const cleanupAllHashes = bool("also remove artifacts under every project hash", {
  "session spawn": "after the spawn, remove what earlier sessions of the same name left under " +
    "other project hashes (never a running one's)",
  "session kill": "also remove what gone sessions of the name left under other project hashes",
  "session kill-all": "remove the sessions' files under every project hash (the default " +
    "without --project-only)",
});
/** `--all-hashes` of tree. */
export const allHashes = bool("include sessions of every project in the runtime dir");
/** `--active-only` of tree. */
export const activeOnly = bool("only sessions tmux still has");
/** `--with-state` of tree. */
export const withState = bool("add each session's live state");
/** `--flat` of tree. */
export const flat = bool("one row per session with its depth");
/** `--delta` of tree. */
export const delta = bool("report edges added/removed since the previous --delta call");
/** `--keep-sessions` of smoke. */
export const keepSessions = bool("do not kill the smoke sessions at the end");
/** `--shared-tmux` of guard. */
export const sharedTmux = bool("inspect the default tmux server (read-only list-sessions)");

// issue 14
/** `--wait` of send. */
export const wait = bool(
  "press Enter, then wait for the turn this send started to end and print its reply " +
    "(exit 0 completed, 2 otherwise)",
);
/** `--all-projects` of history list. */
export const allProjects = bool("sessions of every project (default: the current project's)");
// issue 15
/** `--worktree` of spawn. */
export const worktree = bool(
  "run the agent in a new git worktree on a new branch (outside the repository's working tree)",
);
/** `--branch` of spawn --worktree. */
export const branch = text("the worktree's new branch (default lisa/<alias>)", "name");
/** `--base` of spawn --worktree. */
export const base = text("the commit the worktree's branch starts at (default HEAD)", "ref");
/** `--stat` of diff. */
export const stat = bool("a summary per file instead of the patch");
/** `--squash` of merge. */
export const squash = bool("one commit on the current branch instead of a merge commit");
/** `--message` of merge. */
export const message = text("the merge (or squash) commit's message", "text");
/** `--force` of merge, send, prune and skill install: each skips its own safety check. */
export const force = bool("skip the safety check", {
  "session merge": "merge even while the agent is working",
  "session send": "type --text even into a permission dialog or a starting agent",
  "session prune": "also prune a worktree with unmerged or uncommitted work (that work is lost)",
  "skill install": "write over a SKILL.md lisa did not write, or one edited since",
});
// issue 13
/** `--ready-timeout` of send. */
export const readyTimeout = {
  kind: "parsed",
  parse: intIn(0, 3600),
  brief: "seconds to wait for a starting agent to accept input before typing (default 20)",
  placeholder: "seconds",
  optional: true,
} as const;

// issue 23
/** `--confirm-timeout` of send. */
export const confirmTimeout = {
  kind: "parsed",
  parse: intIn(0, 600),
  brief: "seconds to wait for the agent's receipt of text sent with Enter (default 5; 0: none)",
  placeholder: "seconds",
  optional: true,
} as const;
/** `--retry-enter` of send. */
export const retryEnter = bool(
  "when the agent shows no receipt by --confirm-timeout, press Enter once more and wait again",
);

/** The value of a flag a verb needs; throws `missing_argument` naming it when absent. */
export function needed<T>(value: T | undefined, flag: string): T {
  if (value === undefined) {
    throw new UsageError(`${flag} is required`, "missing_argument", { flag });
  }
  return value;
}

// issue 11
/** `--wide` of list: full session names beside the aliases. */
export const wide = bool("show full session names beside the aliases");
/** `--watch [seconds]` of list: redraw the table until Ctrl-C (default every 2 s). */
export const watchTable = terminal(
  {
    kind: "parsed",
    parse: (text: string) => text.trim() === "" ? 2 : numberIn(0.2, 3600)(text),
    brief: "redraw the table every N seconds (default 2) until Ctrl-C",
    placeholder: "seconds",
    optional: true,
    inferEmpty: true,
  } as const,
);
/** `--read-only` of attach. */
export const readOnly = terminal(bool("attach read-only (keys are not sent to the session)"));
/** `--older-than` of prune. */
export const olderThan = text(
  "prune sessions whose end (or last sign of life) is older than this (7d, 12h, 0s; default 7d)",
  "duration",
);
/** What `--until` of watch names: a session state, or `terminal` (any terminal state). */
export type UntilState = SessionStateName | "terminal";
const UNTIL_STATES: readonly UntilState[] = [...SESSION_STATES, "terminal"];

/**
 * One state of {@link UNTIL_STATES} or several, comma-separated (each once, in the order
 * given); a JSON caller gives an array, or the same text.
 */
export const parseUntilStates = typed((text: string): UntilState[] => {
  const one = oneOf(UNTIL_STATES);
  const states = [...new Set(parseList(text).map(one))];
  if (states.length === 0) {
    throw new UsageError(`expected one of ${UNTIL_STATES.join("|")} (or several, comma-separated)`);
  }
  return states;
}, { type: "array", items: { type: "string", enum: UNTIL_STATES } });

/** `--until` of watch. */
export const until = {
  kind: "parsed",
  parse: parseUntilStates,
  brief: "stop when sessions reach this state, or one of several comma-separated " +
    "(waiting_input,terminal; terminal: any terminal state)",
  placeholder: "states",
  optional: true,
} as const;
/** `--sessions` of watch: several sessions (each as --session takes one). */
export const sessions = {
  kind: "parsed",
  parse: parseList,
  brief: "only these sessions, comma-separated (each a name, alias or alias prefix)",
  placeholder: "list",
  optional: true,
} as const;
/** `--any` of watch. */
export const anyFlag = bool("with --until: stop when the first session gets there (default)");
/** `--all` of watch. */
export const allFlag = bool(
  "with --until: stop when every watched session got there (each to any of the states)",
);
// ---------------------------------------------------------------------------------------------
// issue 12: the flags orchestrators written for the older Go lisa's skill pass.

/** "true"/"false" like {@link parseBool}; a bare flag (empty value) means true. */
export const parseBoolBare = typed(
  (text: string): boolean => text.trim() === "" ? true : parseBool(text),
  { type: "boolean" },
);
const boolValue = (brief: string) =>
  ({
    kind: "parsed",
    parse: parseBoolBare,
    brief,
    placeholder: "true|false",
    optional: true,
    inferEmpty: true,
  }) as const;
/** `--until-jsonpath` of monitor. */
export const untilJsonpath = text(
  "stop when a field of the poll matches: '$.field=value' (exitReason jsonpath_matched)",
  "expr",
);
/** `--adaptive-poll` of monitor. */
export const adaptivePoll = bool(
  "poll sooner while the session just started or is busy, up to --poll-interval when quiet",
);
/** `--waiting-requires-turn-complete` of monitor. */
export const waitingRequiresTurnComplete = boolValue(
  "stop on waiting_input only once the agent's turn is known complete (hook or transcript)",
);
/** `--verbose` (monitor: one progress line per poll on stderr; version: more detail). */
export const verbose = terminal(bool("more detail", {
  "version": "also V8's and TypeScript's versions and the platform",
  "session monitor": "a progress line per poll on stderr",
}));
/** `--emit-handoff` of monitor. */
export const emitHandoff = terminal(bool(
  "with --stream-json: also a handoff line (reason, nextAction, nextOffset) per poll",
));
/** `--handoff-cursor-file` of monitor. */
export const handoffCursorFile = text(
  "with --emit-handoff: write the last handoff's nextOffset to PATH",
  "path",
);
/** `--markers-json` of capture/snapshot. */
export const markersJson = bool(
  "print the marker summary as JSON, with markerHits: each occurrence's marker, line, start, " +
    "end, at (needs --markers)",
);
/** `--strip-banner` of capture (the default; accepted for compatibility). */
export const stripBanner = bool("drop agent banners (the default; accepted for compatibility)");
/** `--verbatim` of capture: the pane text exactly as tmux shows it. */
export const verbatim = bool(
  "the pane text exactly as tmux shows it (no noise filtering, lisa's markers kept)",
);
/** `--stale` of list. */
export const stale = bool("also report sessions whose metadata remains but tmux has no session");
/** `--prune-preview` of list. */
export const prunePreview = bool("with --stale: the artifacts cleanup would remove (read-only)");
/** `--delta-json` of list/tree. */
export const deltaJson = bool(
  "only what changed since the --cursor-file snapshot (added, removed, changed)",
);
/** `--with-next-action` of list. */
export const withNextAction = bool("add each session's state and suggested next action");
/** `--enforce` of guard. */
export const enforce = bool("exit 1 when the command is risky (the default)");
/** `--advice-only` of guard. */
export const adviceOnly = bool("report the risk but exit 0");
/** `--report-min` of smoke. */
export const reportMin = terminal(bool(
  "compact JSON: ok, errorCode, finalState, missingMarkers (a failure adds error, output)",
));
/** `--prompt-style` of smoke. */
export const promptStyle = {
  kind: "parsed",
  parse: oneOf(["none", "dot-slash", "spawn", "nested", "neutral"]),
  brief: "also probe nested-prompt detection with a prompt of this wording",
  placeholder: "none|dot-slash|spawn|nested|neutral",
  optional: true,
} as const;
/** `--matrix-file` of smoke. */
export const matrixFile = text(
  "lines 'bypass|full-auto|any|<prompt>': expected nested detection, checked before the run",
  "path",
);
/** `--detect-nested` of spawn. */
export const detectNestedFlag = bool("include the nested detection in the output (always in JSON)");
/** `--rewrite` of detect-nested. */
export const rewrite = bool("suggest prompt rewrites that trigger (or avoid) the bypass");
/** `--why` of detect-nested. */
export const why = bool("explain which spans of the prompt matched and why");
/** `--fast` of preflight. */
export const fast = bool("skip the agent version probes");
/** `--auto-model` of preflight. */
export const autoModel = bool("pick the first candidate model (see --auto-model-candidates)");
/** `--auto-model-candidates` of preflight. */
export const autoModelCandidates = {
  kind: "parsed",
  parse: parseList,
  brief: "comma-separated model candidates for --auto-model",
  placeholder: "list",
  optional: true,
} as const;
/** `--recent` of explain. */
export const recent = {
  kind: "parsed",
  parse: intIn(0, 100_000),
  brief: "number of recent events (alias of --events)",
  placeholder: "n",
  optional: true,
} as const;
/** `--token-budget` of context-pack. */
export const tokenBudget = {
  kind: "parsed",
  parse: intIn(1, 1_000_000),
  brief: "approximate token budget of the pack (4 characters a token; default 700)",
  placeholder: "n",
  optional: true,
} as const;
/** `--strategy` of context-pack. */
export const strategy = {
  kind: "parsed",
  parse: oneOf(["terse", "balanced", "full"]),
  brief: "how the budget is shared: terse (3 events, a quarter for output), balanced (the " +
    "default: 5 events, 60 %), full (10 events, 80 %)",
  placeholder: "terse|balanced|full",
  optional: true,
} as const;
/** `--for` of context-pack (the session). */
export const forSession = text("the session to pack (alias of --session)", "name");
/**
 * The session a verb acts on, from `--session` or its optional positional id (issue 15);
 * throws `missing_argument` when neither is given and `conflicting_options` when they differ.
 */
export function sessionOf(flag: string | undefined, positional: string | undefined): string {
  if (flag !== undefined && positional !== undefined && flag !== positional) {
    throw new UsageError(
      `--session "${flag}" and the id "${positional}" name different sessions`,
      "conflicting_options",
    );
  }
  return needed(flag ?? positional, "--session");
}

// issue 22: the skill.
/**
 * `--agent` of skill install: which agents get the skill. Not {@link agent}: `all` is no agent,
 * and no other verb may take it (the one flag name with two specs, see tests/cli/table_test.ts).
 */
export const skillAgent = {
  kind: "parsed",
  parse: oneOf<Agent | "all">([...AGENTS, "all"]),
  brief: "the agents to install the skill for: claude, codex or all",
  placeholder: [...AGENTS, "all"].join("|"),
  default: "all",
} as const;
/** `--scope` of skill install. */
export const scope = {
  kind: "parsed",
  parse: oneOf(["user", "project"] as const),
  brief: "user: where the agent reads skills in every project (under HOME); project: the " +
    "project's own skill folder (--project-root, else the current directory)",
  placeholder: "user|project",
  default: "user",
} as const;

/** An optional session id as the first word (`session diff [id]`), instead of `--session`. */
export const sessionPositional = {
  kind: "tuple",
  parameters: [{
    brief: "the session (same as --session)",
    placeholder: "id",
    parse: parseText,
    optional: true,
    completes: "sessions",
  }],
} as const;

// issue 24: other hosts.
/**
 * `--host` of the session verbs: run the verb with the lisa of a host of the hosts file (over
 * ssh). A value that is not a host name (`-oProxyCommand=…`) is refused here: `invalid_host`.
 */
export const host = {
  kind: "parsed",
  parse: checkHostName,
  brief: "run it on this host of the hosts file (over ssh), like --session HOST:NAME",
  briefs: {
    "session spawn": "start the agent on this host of the hosts file (over ssh); --project-root " +
      "is then a directory there",
    "session list": "list the sessions of this host of the hosts file (over ssh)",
    "session attach": "attach to a session on this host of the hosts file (ssh -t)",
  },
  placeholder: "name",
  optional: true,
} as const;
/** `--all-hosts` of list, tree and watch: this machine and every host of the hosts file. */
export const allHosts = bool(
  "also every host of the hosts file, asked in parallel; each row names its host",
  {
    "session watch": "also every host of the hosts file: their watch streams merged into one, " +
      "each event naming its host",
  },
);
