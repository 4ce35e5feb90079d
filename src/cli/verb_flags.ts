/**
 * The flag sets of the verbs (each picked from `flags.ts`, where every flag is declared once) and
 * the types derived from them. Apart from `verbs.ts`, whose table refers to every verb's loader,
 * so that the pre-parsed paths (`fast_status.ts`, `fast_list.ts`) read their verb's flags without
 * the rest of the command line coming with them (into their module graph, or their bundle).
 */
import * as F from "./flags.ts";
import type { LisaContext } from "./context.ts";

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
  host: F.host,
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
  host: F.host,
};
/** `lisa session diff`. */
export const diffFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  stat: F.stat,
  json: F.json,
  host: F.host,
};
/** `lisa session merge`. */
export const mergeFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  squash: F.squash,
  message: F.message,
  force: F.force,
  json: F.json,
  host: F.host,
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
  host: F.host,
};
/** `lisa session turns`. */
export const turnsFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  json: F.json,
  host: F.host,
};
/** `lisa session status`. */
export const statusFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  json: F.json,
  jsonMin: F.jsonMin,
  failNotFound: F.failNotFound,
  agent: F.agent,
  mode: F.mode,
  host: F.host,
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
  host: F.host,
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
  host: F.host,
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
  host: F.host,
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
  host: F.host,
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
  host: F.host,
  allHosts: F.allHosts,
};
/** `lisa session attach [id]`. */
export const attachFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  readOnly: F.readOnly,
  json: F.json,
  host: F.host,
};
/** `lisa session prune`. */
export const pruneFlags = {
  olderThan: F.olderThan,
  dryRun: F.dryRun,
  force: F.force,
  projectRoot: F.projectRoot,
  allProjects: F.allProjects,
  json: F.json,
  host: F.host,
};
/** `lisa session watch`. */
export const watchFlags = {
  session: F.session,
  sessions: F.sessions,
  projectRoot: F.projectRoot,
  allSockets: F.allSockets,
  until: F.until,
  any: F.anyFlag,
  all: F.allFlag,
  timeoutSeconds: F.timeoutSeconds,
  json: F.json,
  host: F.host,
  allHosts: F.allHosts,
};
/** `lisa mcp`. */
export const mcpFlags = { projectRoot: F.projectRoot };
/** `lisa session exists`. */
export const existsFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  json: F.json,
  host: F.host,
};
/** `lisa session kill`. */
export const killFlags = {
  session: F.session,
  projectRoot: F.projectRoot,
  cleanupAllHashes: F.cleanupAllHashes,
  json: F.json,
  host: F.host,
};
/** `lisa session kill-all`. */
export const killAllFlags = {
  projectOnly: F.projectOnly,
  cleanupAllHashes: F.cleanupAllHashes,
  projectRoot: F.projectRoot,
  json: F.json,
  host: F.host,
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
  host: F.host,
  allHosts: F.allHosts,
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
  host: F.host,
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
  host: F.host,
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
  host: F.host,
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
  host: F.host,
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
  host: F.host,
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
  host: F.host,
};
/** `lisa skill install`. */
export const skillInstallFlags = {
  agent: F.skillAgent,
  scope: F.scope,
  projectRoot: F.projectRoot,
  force: F.force,
  dryRun: F.dryRun,
  json: F.json,
};
/** `lisa skill show`. */
export const skillShowFlags = { json: F.json };
/** `lisa hosts list`. */
export const hostsListFlags = { json: F.json };
/** `lisa hosts check`. */
export const hostsCheckFlags = { json: F.json };
