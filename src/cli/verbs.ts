/**
 * The command table: every verb of lisa, assembled from the verbs' own declarations
 * (`commands/<group>/<verb>_spec.ts`: route, flags picked from `flags.ts` where each shared flag
 * is declared once, help, and a lazy loader of the implementation beside it). `route_map.ts`
 * turns it into stricli's route map; help, completions and the reference page read it too
 * (the pre-parsed paths read only their verb's declaration). Loading this module loads no verb
 * and not stricli.
 *
 * `lisa hook` is not here: `main()` dispatches it raw (it must accept anything and never fail).
 */
import { versionVerb } from "./commands/version_spec.ts";
import { doctorVerb } from "./commands/doctor_spec.ts";
import { cleanupVerb } from "./commands/cleanup_spec.ts";
import { completionsVerb } from "./commands/completions_spec.ts";
import { mcpVerb } from "./commands/mcp_spec.ts";
import { nameVerb } from "./commands/session/name_spec.ts";
import { spawnVerb } from "./commands/session/spawn_spec.ts";
import { diffVerb } from "./commands/session/diff_spec.ts";
import { mergeVerb } from "./commands/session/merge_spec.ts";
import { sendVerb } from "./commands/session/send_spec.ts";
import { turnsVerb } from "./commands/session/turns_spec.ts";
import { statusVerb } from "./commands/session/status_spec.ts";
import { explainVerb } from "./commands/session/explain_spec.ts";
import { monitorVerb } from "./commands/session/monitor_spec.ts";
import { captureVerb } from "./commands/session/capture_spec.ts";
import { snapshotVerb } from "./commands/session/snapshot_spec.ts";
import { listVerb } from "./commands/session/list_spec.ts";
import { attachVerb } from "./commands/session/attach_spec.ts";
import { pruneVerb } from "./commands/session/prune_spec.ts";
import { watchVerb } from "./commands/session/watch_spec.ts";
import { existsVerb } from "./commands/session/exists_spec.ts";
import { killVerb } from "./commands/session/kill_spec.ts";
import { killAllVerb } from "./commands/session/kill_all_spec.ts";
import { treeVerb } from "./commands/session/tree_spec.ts";
import { smokeVerb } from "./commands/session/smoke_spec.ts";
import { detectNestedVerb } from "./commands/session/detect_nested_spec.ts";
import { guardVerb } from "./commands/session/guard_spec.ts";
import { preflightVerb } from "./commands/session/preflight_spec.ts";
import { handoffVerb } from "./commands/session/handoff_spec.ts";
import { contextPackVerb } from "./commands/session/context_pack_spec.ts";
import { historyListVerb } from "./commands/history/list_spec.ts";
import { historyShowVerb } from "./commands/history/show_spec.ts";
import { historySearchVerb } from "./commands/history/search_spec.ts";
import { skillInstallVerb } from "./commands/skill/install_spec.ts";
import { skillShowVerb } from "./commands/skill/show_spec.ts";
import { hostsListVerb } from "./commands/hosts/list_spec.ts";
import { hostsCheckVerb } from "./commands/hosts/check_spec.ts";
import type { VerbSpec } from "./verb_spec.ts";

export type { FlagsOf, Guard, ImplOverrides, VerbImpl, VerbModule, VerbSpec } from "./verb_spec.ts";

/** Every verb, in the order help and the reference list them. */
const SPECS: readonly VerbSpec[] = [
  versionVerb,
  doctorVerb,
  cleanupVerb,
  completionsVerb,
  mcpVerb,
  nameVerb,
  spawnVerb,
  diffVerb,
  mergeVerb,
  sendVerb,
  turnsVerb,
  statusVerb,
  explainVerb,
  monitorVerb,
  captureVerb,
  snapshotVerb,
  listVerb,
  attachVerb,
  pruneVerb,
  watchVerb,
  existsVerb,
  killVerb,
  killAllVerb,
  treeVerb,
  smokeVerb,
  detectNestedVerb,
  guardVerb,
  preflightVerb,
  handoffVerb,
  contextPackVerb,
  historyListVerb,
  historyShowVerb,
  historySearchVerb,
  skillInstallVerb,
  skillShowVerb,
  hostsListVerb,
  hostsCheckVerb,
];

/** Route → verb spec: the whole command line of lisa. */
export const VERBS: Readonly<Record<string, VerbSpec>> = Object.fromEntries(
  SPECS.map((spec) => [spec.route, spec]),
);

/** Documentation of the route maps (groups). */
export const GROUPS: Readonly<Record<string, string>> = {
  "": "Start, watch, drive and clean up AI coding agents (claude, codex, any command) in tmux.",
  "session": "spawn, drive, watch and end sessions",
  "history": "what every session did: turns, tools, replies (a SQLite store)",
  "skill": "the Agent Skill that teaches claude and codex to drive lisa",
  "hosts": "other machines lisa reaches over ssh (--host, --all-hosts)",
};
