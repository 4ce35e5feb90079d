/**
 * The command table as data: every verb of lisa, its flags (picked from `flags.ts`, where each
 * flag is declared once), its one-line doc, and a lazy loader of its implementation
 * (`commands/<route>.ts`, default export). `table.ts` turns it into stricli's route map; help,
 * completions, the status pre-parser and the README's command map read it too. Loading this
 * module loads no verb and not stricli.
 *
 * `lisa hook` is not here: `main()` dispatches it raw (it must accept anything and never fail).
 */
import * as F from "./flags.ts";
import type { LisaContext } from "./context.ts";
import { lazyImport } from "../base/lazy.ts";

/** The value a flag spec parses to. */
type ValueOf<S> = S extends { kind: "boolean" } ? boolean
  : S extends { parse: (text: string) => infer T } ? T
  : never;

/** The flags object a verb receives for the flag specs `S`. */
export type FlagsOf<S> = {
  readonly [K in keyof S]: S[K] extends { optional: true } ? ValueOf<S[K]> | undefined
    : ValueOf<S[K]>;
};

/** A verb implementation: `this` is the context, then the parsed flags and positionals. */
export type VerbImpl<S, A extends readonly unknown[] = []> = (
  this: LisaContext,
  flags: FlagsOf<S>,
  ...args: A
) => void | Promise<void>;

/** A module of `commands/`: its default export is the verb. */
// deno-lint-ignore no-explicit-any
export type VerbModule = { default: VerbImpl<any, any> };

/** Replaces verb implementations (CLI tests: argv → flags without running anything). */
// deno-lint-ignore no-explicit-any
export type ImplOverrides = Partial<Record<string, VerbImpl<any, any>>>;

/** Wraps an implementation so the route id travels with it (errors name the verb's help). */
export type Guard = (route: string, impl: VerbModule["default"]) => VerbModule["default"];

// ---------------------------------------------------------------------------------------------
// Flag sets of the verbs (exported for the implementations' types).

/** `lisa version`. */
export const versionFlags = { json: F.json, verbose: F.verbose };
/** `lisa doctor`. */
export const doctorFlags = { json: F.json };
/** `lisa cleanup`. */
export const cleanupFlags = {
  dryRun: F.dryRun,
  projectOnly: F.projectOnly,
  projectRoot: F.projectRoot,
  json: F.json,
};
/** `lisa completions <shell>`. */
export const completionsFlags = {};
/** `lisa session name`. */
export const nameFlags = {
  agent: F.agent,
  mode: F.mode,
  tag: F.tag,
  projectRoot: F.projectRoot,
  json: F.json,
};
/** `lisa session spawn`. */
export const spawnFlags = {
  agent: F.agent,
  mode: F.mode,
  prompt: F.prompt,
  promptFile: F.promptFile,
  command: F.command,
  agentArgs: F.agentArgs,
  model: F.model,
  session: F.session,
  tag: F.tag,
  projectRoot: F.projectRoot,
  width: F.width,
  height: F.height,
  dangerouslySkipPermissions: F.dangerouslySkipPermissions,
  hooks: F.hooks,
  nestedPolicy: F.nestedPolicy,
  nestingIntent: F.nestingIntent,
  worktree: F.worktree,
  branch: F.branch,
  base: F.base,
  dryRun: F.dryRun,
  json: F.json,
  detectNested: F.detectNestedFlag,
  cleanupAllHashes: F.cleanupAllHashes,
};
/** `lisa session diff`. */
export const diffFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  stat: F.stat,
  json: F.json,
};
/** `lisa session merge`. */
export const mergeFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  squash: F.squash,
  message: F.message,
  force: F.force,
  json: F.json,
};
/** `lisa session send`. */
export const sendFlags = {
  session: F.session,
  text: F.textFlag,
  textFile: F.textFile,
  keys: F.keys,
  enter: F.enter,
  projectRoot: F.projectRoot,
  json: F.json,
  jsonMin: F.jsonMin,
  wait: F.wait,
  timeoutSeconds: F.timeoutSeconds,
  force: F.force,
  readyTimeout: F.readyTimeout,
};
/** `lisa session turns`. */
export const turnsFlags = { session: F.session, projectRoot: F.projectRoot, json: F.json };
/** `lisa session status`. */
export const statusFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  json: F.json,
  jsonMin: F.jsonMin,
  failNotFound: F.failNotFound,
  agent: F.agent,
  mode: F.mode,
};
/** `lisa session explain`. */
export const explainFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  events: F.events,
  since: F.since,
  json: F.json,
  jsonMin: F.jsonMin,
  recent: F.recent,
  agent: F.agent,
  mode: F.mode,
};
/** `lisa session monitor`. */
export const monitorFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  pollInterval: F.pollInterval,
  maxPolls: F.maxPolls,
  timeoutSeconds: F.timeoutSeconds,
  untilMarker: F.untilMarker,
  untilState: F.untilState,
  stopOnWaiting: F.stopOnWaiting,
  expect: F.expect,
  json: F.json,
  jsonMin: F.jsonMin,
  streamJson: F.streamJson,
  agent: F.agent,
  mode: F.mode,
  untilJsonpath: F.untilJsonpath,
  adaptivePoll: F.adaptivePoll,
  waitingRequiresTurnComplete: F.waitingRequiresTurnComplete,
  verbose: F.verbose,
  emitHandoff: F.emitHandoff,
  handoffCursorFile: F.handoffCursorFile,
};
/** `lisa session capture`. */
export const captureFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  lines: F.lines,
  raw: F.raw,
  keepNoise: F.keepNoise,
  stripNoise: F.stripNoise,
  deltaFrom: F.deltaFrom,
  cursorFile: F.cursorFile,
  markers: F.markers,
  json: F.json,
  jsonMin: F.jsonMin,
  markersJson: F.markersJson,
  stripBanner: F.stripBanner,
  verbatim: F.verbatim,
};
/** `lisa session snapshot`. */
export const snapshotFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  lines: F.lines,
  markers: F.markers,
  keepNoise: F.keepNoise,
  deltaFrom: F.deltaFrom,
  json: F.json,
  jsonMin: F.jsonMin,
  stripNoise: F.stripNoise,
  failNotFound: F.failNotFound,
  markersJson: F.markersJson,
  agent: F.agent,
  mode: F.mode,
};
/** `lisa session list`. */
export const listFlags = {
  projectOnly: F.projectOnly,
  allSockets: F.allSockets,
  projectRoot: F.projectRoot,
  json: F.json,
  wide: F.wide,
  watch: F.watchTable,
  jsonMin: F.jsonMin,
  stale: F.stale,
  prunePreview: F.prunePreview,
  deltaJson: F.deltaJson,
  cursorFile: F.cursorFile,
  withNextAction: F.withNextAction,
};
/** `lisa session attach [id]`. */
export const attachFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  readOnly: F.readOnly,
  json: F.json,
};
/** `lisa session prune`. */
export const pruneFlags = {
  olderThan: F.olderThan,
  dryRun: F.dryRun,
  force: F.force,
  projectRoot: F.projectRoot,
  json: F.json,
};
/** `lisa session watch`. */
export const watchFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  allSockets: F.allSockets,
  until: F.until,
  any: F.anyFlag,
  all: F.allFlag,
  timeoutSeconds: F.timeoutSeconds,
  json: F.json,
};
/** `lisa session exists`. */
export const existsFlags = { session: F.session, projectRoot: F.projectRoot, json: F.json };
/** `lisa session kill`. */
export const killFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  cleanupAllHashes: F.cleanupAllHashes,
  json: F.json,
};
/** `lisa session kill-all`. */
export const killAllFlags = {
  projectOnly: F.projectOnly,
  cleanupAllHashes: F.cleanupAllHashes,
  projectRoot: F.projectRoot,
  json: F.json,
};
/** `lisa session tree`. */
export const treeFlags = {
  projectRoot: F.projectRoot,
  allHashes: F.allHashes,
  activeOnly: F.activeOnly,
  withState: F.withState,
  flat: F.flat,
  delta: F.delta,
  json: F.json,
  session: F.session,
  jsonMin: F.jsonMin,
  deltaJson: F.deltaJson,
  cursorFile: F.cursorFile,
};
/** `lisa session smoke`. */
export const smokeFlags = {
  levels: F.levels,
  projectRoot: F.projectRoot,
  keepSessions: F.keepSessions,
  timeoutSeconds: F.timeoutSeconds,
  json: F.json,
  reportMin: F.reportMin,
  promptStyle: F.promptStyle,
  matrixFile: F.matrixFile,
  model: F.model,
  pollInterval: F.pollInterval,
  maxPolls: F.maxPolls,
};
/** `lisa session detect-nested`. */
export const detectNestedFlags = {
  prompt: F.prompt,
  agent: F.agent,
  mode: F.mode,
  nestedPolicy: F.nestedPolicy,
  nestingIntent: F.nestingIntent,
  json: F.json,
  agentArgs: F.agentArgs,
  model: F.model,
  projectRoot: F.projectRoot,
  rewrite: F.rewrite,
  why: F.why,
};
/** `lisa history list`. */
export const historyListFlags = {
  projectRoot: F.projectRoot,
  allProjects: F.allProjects,
  since: F.since,
  agent: F.agent,
  json: F.json,
};
/** `lisa history show <session|alias>`. */
export const historyShowFlags = { json: F.json };
/** `lisa history search <words>`. */
export const historySearchFlags = { json: F.json };
/** `lisa session guard`. */
export const guardFlags = {
  sharedTmux: F.sharedTmux,
  command: F.command,
  json: F.json,
  enforce: F.enforce,
  adviceOnly: F.adviceOnly,
  projectRoot: F.projectRoot,
};
/** `lisa session preflight`. */
export const preflightFlags = {
  projectRoot: F.projectRoot,
  agent: F.agent,
  model: F.model,
  autoModel: F.autoModel,
  autoModelCandidates: F.autoModelCandidates,
  fast: F.fast,
  json: F.json,
};
/** `lisa session handoff`. */
export const handoffFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  agent: F.agent,
  mode: F.mode,
  events: F.events,
  deltaFrom: F.deltaFrom,
  cursorFile: F.cursorFile,
  json: F.json,
  jsonMin: F.jsonMin,
};
/** `lisa session context-pack`. */
export const contextPackFlags = {
  for: F.forSession,
  session: F.session,
  projectRoot: F.projectRoot,
  agent: F.agent,
  mode: F.mode,
  events: F.events,
  lines: F.lines,
  tokenBudget: F.tokenBudget,
  strategy: F.strategy,
  json: F.json,
  jsonMin: F.jsonMin,
};

// ---------------------------------------------------------------------------------------------
// The verbs.

/** One verb of the table. */
export interface VerbSpec {
  brief: string;
  fullDescription?: string;
  // deno-lint-ignore no-explicit-any
  flags: Record<string, any>;
  /** Positional arguments (a tuple), in stricli's shape. */
  positional?: {
    kind: "tuple";
    parameters: readonly {
      brief: string;
      placeholder: string;
      // deno-lint-ignore no-explicit-any
      parse: (t: string) => any;
      optional?: boolean;
    }[];
  };
  /** One-letter flag aliases (`{ v: "verbose" }` lets `-v` stand for `--verbose`). */
  aliases?: Readonly<Record<string, string>>;
  load: () => Promise<VerbModule>;
}

/** An optional session id as the first word (`session diff [id]`), instead of `--session`. */
const sessionPositional: VerbSpec["positional"] = {
  kind: "tuple",
  parameters: [{
    brief: "the session (same as --session)",
    placeholder: "id",
    parse: (t: string) => t,
    optional: true,
  }],
};

/** Route → verb spec: the whole command line of lisa. */
export const VERBS: Readonly<Record<string, VerbSpec>> = {
  "version": {
    brief: "print lisa's version, commit and Deno version",
    flags: versionFlags,
    aliases: { v: "verbose" },
    load: () => lazyImport(new URL("./commands/version.ts", import.meta.url)),
  },
  "doctor": {
    brief: "check tmux, claude, codex, the runtime dir and LISA_* variables",
    flags: doctorFlags,
    load: () => lazyImport(new URL("./commands/doctor.ts", import.meta.url)),
  },
  "cleanup": {
    brief: "remove stale lisa sockets, artifacts of gone sessions and old startup scripts; " +
      "never kills a server",
    flags: cleanupFlags,
    load: () => lazyImport(new URL("./commands/cleanup.ts", import.meta.url)),
  },
  "completions": {
    brief: "print a shell completion script (bash, zsh or fish)",
    fullDescription: "Load it with: source <(lisa completions bash)  (zsh: source " +
      "<(lisa completions zsh); fish: lisa completions fish | source). Session names " +
      "complete from the live sessions.",
    flags: completionsFlags,
    positional: {
      kind: "tuple",
      parameters: [{
        brief: "the shell: bash, zsh or fish",
        placeholder: "bash|zsh|fish",
        parse: F.oneOf(["bash", "zsh", "fish", "sessions"]),
      }],
    },
    load: () => lazyImport(new URL("./commands/completions.ts", import.meta.url)),
  },
  "session name": {
    brief: "print the session name spawn would use",
    flags: nameFlags,
    load: () => lazyImport(new URL("./commands/session/name.ts", import.meta.url)),
  },
  "session spawn": {
    brief: "start an agent (or any command) in a new tmux session",
    flags: spawnFlags,
    load: () => lazyImport(new URL("./commands/session/spawn.ts", import.meta.url)),
  },
  "session diff": {
    brief: "what a --worktree session's agent changed since its base: its branch's commits " +
      "plus uncommitted and untracked files",
    flags: diffFlags,
    positional: sessionPositional,
    load: () => lazyImport(new URL("./commands/session/diff.ts", import.meta.url)),
  },
  "session merge": {
    brief: "commit a --worktree session's pending work and merge its branch into the main " +
      "checkout's current branch (a conflict aborts: exit 2)",
    flags: mergeFlags,
    positional: sessionPositional,
    load: () => lazyImport(new URL("./commands/session/merge.ts", import.meta.url)),
  },
  "session send": {
    brief: "send text (bracketed paste) and/or keys to a session",
    flags: sendFlags,
    load: () => lazyImport(new URL("./commands/session/send.ts", import.meta.url)),
  },
  "session turns": {
    brief: "list a session's turns (prompt, outcome, reply, tools) from history",
    flags: turnsFlags,
    load: () => lazyImport(new URL("./commands/session/turns.ts", import.meta.url)),
  },
  "session status": {
    brief: "classify a session: state, reason, exit code, and the signals seen",
    flags: statusFlags,
    load: () => lazyImport(new URL("./commands/session/status.ts", import.meta.url)),
  },
  "session explain": {
    brief: "show a session's status and its recent events (transitions, lifecycle)",
    flags: explainFlags,
    load: () => lazyImport(new URL("./commands/session/explain.ts", import.meta.url)),
  },
  "session monitor": {
    brief: "poll a session until it completes, fails, waits for input, or a gate opens " +
      "(exit 0 success, 2 non-success, 1 error)",
    flags: monitorFlags,
    load: () => lazyImport(new URL("./commands/session/monitor.ts", import.meta.url)),
  },
  "session capture": {
    brief: "print a session's pane text, or only what appeared since an earlier capture",
    flags: captureFlags,
    load: () => lazyImport(new URL("./commands/session/capture.ts", import.meta.url)),
  },
  "session snapshot": {
    brief: "a session's status and its pane text (with nextOffset and markers) at once",
    flags: snapshotFlags,
    load: () => lazyImport(new URL("./commands/session/snapshot.ts", import.meta.url)),
  },
  "session list": {
    brief: "list lisa sessions",
    flags: listFlags,
    load: () => lazyImport(new URL("./commands/session/list.ts", import.meta.url)),
  },
  "session attach": {
    brief: "attach this terminal to a live session (inside tmux: opens a new window)",
    fullDescription: "The session is a full name, an alias or an unambiguous prefix, given " +
      "as an argument or with --session; left out, the one running session of the project " +
      "(several: asked on a terminal). Detach with the tmux prefix then d.",
    flags: attachFlags,
    positional: {
      kind: "tuple",
      parameters: [{
        brief: "session name, alias or prefix",
        placeholder: "session",
        parse: F.parseText,
        optional: true,
      }],
    },
    load: () => lazyImport(new URL("./commands/session/attach.ts", import.meta.url)),
  },
  "session prune": {
    brief: "remove the files of finished or gone sessions older than --older-than (never a " +
      "live one), and event logs past retention",
    flags: pruneFlags,
    load: () => lazyImport(new URL("./commands/session/prune.ts", import.meta.url)),
  },
  "session watch": {
    brief: "one JSON line per state change of any session; with --until, exit 0 when met, " +
      "2 on --timeout-seconds",
    flags: watchFlags,
    load: () => lazyImport(new URL("./commands/session/watch.ts", import.meta.url)),
  },
  "session exists": {
    brief: "exit 0 when the session exists, 1 when it does not",
    flags: existsFlags,
    load: () => lazyImport(new URL("./commands/session/exists.ts", import.meta.url)),
  },
  "session kill": {
    brief: "end a session: its descendants first, every process of its pane, its artifacts " +
      "(the event log is kept)",
    flags: killFlags,
    load: () => lazyImport(new URL("./commands/session/kill.ts", import.meta.url)),
  },
  "session kill-all": {
    brief: "end every lisa session on every lisa tmux server (or only the project's)",
    flags: killAllFlags,
    load: () => lazyImport(new URL("./commands/session/kill_all.ts", import.meta.url)),
  },
  "session tree": {
    brief: "show sessions as a tree of parent/child links (from metadata)",
    flags: treeFlags,
    load: () => lazyImport(new URL("./commands/session/tree.ts", import.meta.url)),
  },
  "session smoke": {
    brief: "nested self-test: L1 spawns L2 … LN (lisa itself, no agent), each monitors its " +
      "child and passes the markers up",
    flags: smokeFlags,
    load: () => lazyImport(new URL("./commands/session/smoke.ts", import.meta.url)),
  },
  "session detect-nested": {
    brief: "show whether a prompt would make spawn add the codex sandbox bypass",
    flags: detectNestedFlags,
    load: () => lazyImport(new URL("./commands/session/detect_nested.ts", import.meta.url)),
  },
  "session guard": {
    brief: "check whether a planned cleanup/kill command is risky for the default tmux " +
      "server (read-only; exit 1 when risky)",
    flags: guardFlags,
    load: () => lazyImport(new URL("./commands/session/guard.ts", import.meta.url)),
  },
  "session preflight": {
    brief: "an orchestrator's first step: environment checks plus a self-check of the " +
      "contracts it relies on (exit 0 ready, 1 not)",
    flags: preflightFlags,
    load: () => lazyImport(new URL("./commands/session/preflight.ts", import.meta.url)),
  },
  "session handoff": {
    brief: "a compact transfer payload: state, reason, nextAction, nextOffset, recent output " +
      "and events (incremental with --cursor-file)",
    flags: handoffFlags,
    load: () => lazyImport(new URL("./commands/session/handoff.ts", import.meta.url)),
  },
  "session context-pack": {
    brief: "a handoff that fits a --token-budget: state, recent events and the output's tail",
    flags: contextPackFlags,
    load: () => lazyImport(new URL("./commands/session/context_pack.ts", import.meta.url)),
  },
  "history list": {
    brief: "sessions lisa ran (alias, agent, project, start, duration, turns, final state)",
    flags: historyListFlags,
    load: () => lazyImport(new URL("./commands/history/list.ts", import.meta.url)),
  },
  "history show": {
    brief: "one session turn by turn: prompt, tools, reply, durations (and plans)",
    flags: historyShowFlags,
    positional: {
      kind: "tuple",
      parameters: [{ brief: "session name or alias", placeholder: "session", parse: F.parseText }],
    },
    load: () => lazyImport(new URL("./commands/history/show.ts", import.meta.url)),
  },
  "history search": {
    brief: "full-text search of prompts and replies (every word must match)",
    flags: historySearchFlags,
    positional: {
      kind: "tuple",
      parameters: [{ brief: "words (quote several)", placeholder: "words", parse: F.parseText }],
    },
    load: () => lazyImport(new URL("./commands/history/search.ts", import.meta.url)),
  },
};

/** Documentation of the route maps (groups). */
export const GROUPS: Readonly<Record<string, string>> = {
  "": "Start, watch, drive and clean up AI coding agents (claude, codex, any command) in tmux.",
  "session": "spawn, drive, watch and end sessions",
  "history": "what every session did: turns, tools, replies (a SQLite store)",
};
