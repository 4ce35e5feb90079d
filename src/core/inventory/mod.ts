/**
 * The inventory domain's face: what lisa has out there: the sessions of every lisa tmux server
 * (`list`, `exists`, `tree`, `watch`), those whose tmux session is gone (`list --stale`), and the
 * files lisa left behind that are provably stale (the plan `lisa cleanup` carries out).
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). Only the
 * listing (`list.ts`, which every poll of the fleet runs) and small pure helpers load with the
 * face; `tree`, `watch`, `exists`, picking a session, the stale reports and the fleet views of
 * `--all-hosts` load on their first call.
 */
import { lazyImport } from "../../base/lazy.ts";

export type { FleetListResult, FleetTreeResult, HostListedSession } from "./all_hosts.ts";
export { listDelta } from "./cursor_delta.ts";
export {
  gatherSessions,
  lisaSockets,
  type ListedSession,
  type ListResult,
  listSessionsOf,
} from "./list.ts";
export type { AskSession } from "./pick.ts";
export type { CleanupPlan, CleanupPlanOptions, GoneSession, LiveSession } from "./stale_files.ts";
export { flattenTree, renderTreeLines, type TreeNode } from "./tree_graph.ts";
export { WATCH_STOPPED_EXIT, type WatchEvent } from "./watch.ts";
export type { FleetWatchEvent } from "./watch_hosts.ts";

type AllHosts = typeof import("./all_hosts.ts");
type Exists = typeof import("./exists.ts");
type Pick = typeof import("./pick.ts");
type Stale = typeof import("./stale.ts");
type StaleFiles = typeof import("./stale_files.ts");
type Tree = typeof import("./tree.ts");
type Watch = typeof import("./watch.ts");
type WatchHosts = typeof import("./watch_hosts.ts");

/** `lisa session exists` (`exists.ts`). */
export async function sessionExists(...args: Parameters<Exists["sessionExists"]>) {
  const m = await lazyImport<Exists>(new URL("./exists.ts", import.meta.url));
  return await m.sessionExists(...args);
}

/** The session a verb acts on when `--session` is left out (`pick.ts`). */
export async function pickSession(...args: Parameters<Pick["pickSession"]>) {
  const m = await lazyImport<Pick>(new URL("./pick.ts", import.meta.url));
  return await m.pickSession(...args);
}

/** `session list --stale` (`stale.ts`). */
export async function staleReport(...args: Parameters<Stale["staleReport"]>) {
  const m = await lazyImport<Stale>(new URL("./stale.ts", import.meta.url));
  return await m.staleReport(...args);
}

/** What `lisa cleanup` would remove and keep (`stale_files.ts`); changes nothing. */
export async function planCleanup(...args: Parameters<StaleFiles["planCleanup"]>) {
  const m = await lazyImport<StaleFiles>(new URL("./stale_files.ts", import.meta.url));
  return await m.planCleanup(...args);
}

/** `lisa session tree` (`tree.ts`). */
export async function runTree(...args: Parameters<Tree["runTree"]>) {
  const m = await lazyImport<Tree>(new URL("./tree.ts", import.meta.url));
  return await m.runTree(...args);
}

/** `lisa session watch` (`watch.ts`). */
export async function watchSessions(...args: Parameters<Watch["watchSessions"]>) {
  const m = await lazyImport<Watch>(new URL("./watch.ts", import.meta.url));
  return await m.watchSessions(...args);
}

/** `lisa session list --all-hosts` (`all_hosts.ts`). */
export async function listAllHosts(...args: Parameters<AllHosts["listAllHosts"]>) {
  const m = await lazyImport<AllHosts>(new URL("./all_hosts.ts", import.meta.url));
  return await m.listAllHosts(...args);
}

/** `lisa session tree --all-hosts` (`all_hosts.ts`). */
export async function treeAllHosts(...args: Parameters<AllHosts["treeAllHosts"]>) {
  const m = await lazyImport<AllHosts>(new URL("./all_hosts.ts", import.meta.url));
  return await m.treeAllHosts(...args);
}

/** `lisa session watch --all-hosts` (`watch_hosts.ts`). */
export async function watchAllHosts(...args: Parameters<WatchHosts["watchAllHosts"]>) {
  const m = await lazyImport<WatchHosts>(new URL("./watch_hosts.ts", import.meta.url));
  return await m.watchAllHosts(...args);
}
