/**
 * `list` and `tree` with `--all-hosts`: this machine's answer and each host's (its own lisa,
 * asked over ssh with `--json`, all at once) in one result. Every row names its `host` (null
 * here). A host that did not answer within `LISA_HOST_TIMEOUT_SECONDS` (or failed otherwise)
 * is listed in `hosts[]` with its `errorCode`, and the call still succeeds with what it got;
 * only this machine's own failure fails it.
 */
import type { Deps } from "../../base/deps.ts";
import {
  type HostAnswer,
  type HostOutcome,
  outcomeOf,
  queryHosts,
  usableHosts,
  withHost,
} from "../hosts/mod.ts";
import { type ListedSession, type ListOptions, type ListResult, listSessionsOf } from "./list.ts";
import type { TreeResult } from "./tree.ts";
import type { TreeNode } from "./tree_graph.ts";

/** A listed session and the host it is on (null: this machine). */
export type HostListedSession = ListedSession & { host: string | null };

/** `list --all-hosts`: every machine's sessions, and how each host answered. */
export interface FleetListResult extends ListResult {
  sessions: HostListedSession[];
  hosts: HostOutcome[];
}

/** `tree --all-hosts`: every machine's roots (each node with its host), and the hosts. */
export interface FleetTreeResult extends TreeResult {
  hosts: HostOutcome[];
}

/** The `session list` arguments of each host's lisa for `options`. Pure. */
export function remoteListArgs(options: Pick<ListOptions, "projectOnly" | "allSockets">) {
  return [
    "session",
    "list",
    "--json",
    ...(options.projectOnly ? ["--project-only"] : []),
    ...(options.allSockets ? ["--all-sockets"] : []),
  ];
}

/** The rows of a host's `session list --json` (its `items`), each with `host`. Pure. */
export function rowsOf(answer: HostAnswer): HostListedSession[] {
  if (!answer.ok || !Array.isArray(answer.doc.items)) return [];
  const tagged = withHost(answer.doc, answer.host.name);
  return tagged.items as HostListedSession[];
}

/**
 * Lists this machine (as `listSessionsOf`) and every host of the hosts file at once (see the
 * module doc). Throws `hosts_file_invalid` before anything runs when the file is broken.
 */
export async function listAllHosts(deps: Deps, options: ListOptions): Promise<FleetListResult> {
  const hosts = usableHosts(deps);
  // The hosts first: their ssh calls start before this machine's list begins its own work.
  const remote = queryHosts(deps, hosts, remoteListArgs(options));
  const [answers, local] = await Promise.all([remote, listSessionsOf(deps, options)]);
  const sessions: HostListedSession[] = [
    ...local.sessions.map((s) => ({ host: null, ...s })),
    ...answers.flatMap(rowsOf),
  ];
  return {
    ...local,
    sessions,
    count: sessions.length,
    lostCount: sessions.filter((s) => s.lost).length,
    hosts: answers.map((a) => outcomeOf(a, a.ok ? { count: rowsOf(a).length } : {})),
  };
}

/** The `session tree` arguments of each host's lisa. Pure. */
export function remoteTreeArgs(options: {
  allHashes?: boolean;
  activeOnly?: boolean;
  withState?: boolean;
}): string[] {
  return [
    "session",
    "tree",
    "--json",
    ...(options.allHashes ? ["--all-hashes"] : []),
    ...(options.activeOnly ? ["--active-only"] : []),
    ...(options.withState ? ["--with-state"] : []),
  ];
}

function count(key: string, doc: Record<string, unknown>): number {
  return typeof doc[key] === "number" ? doc[key] as number : 0;
}

/**
 * This machine's tree (`local`, run once the hosts were asked) and every host's, each node with
 * its `host`; the hosts' cycles and dangling parents are named `host:session`.
 */
export async function treeAllHosts(
  deps: Deps,
  local: () => Promise<TreeResult>,
  options: { allHashes?: boolean; activeOnly?: boolean; withState?: boolean },
): Promise<FleetTreeResult> {
  const hosts = usableHosts(deps);
  const remote = queryHosts(deps, hosts, remoteTreeArgs(options));
  const [answers, mine] = await Promise.all([remote, local()]);
  const here = withHost({ ...mine }, null) as unknown as TreeResult;
  const result: FleetTreeResult = { ...mine, roots: here.roots, hosts: [] };
  for (const a of answers) {
    result.hosts.push(outcomeOf(a, a.ok ? { nodeCount: count("nodeCount", a.doc) } : {}));
    if (!a.ok) continue;
    const tagged = withHost(a.doc, a.host.name);
    const named = (s: unknown) => `${a.host.name}:${s}`;
    result.roots.push(...(Array.isArray(tagged.roots) ? tagged.roots as TreeNode[] : []));
    result.nodeCount += count("nodeCount", a.doc);
    result.activeCount += count("activeCount", a.doc);
    if (Array.isArray(a.doc.cycles)) {
      result.cycles.push(...(a.doc.cycles as unknown[][]).map((c) => c.map(named)));
    }
    if (Array.isArray(a.doc.danglingParents)) {
      result.danglingParents.push(...a.doc.danglingParents.map(named));
    }
  }
  return result;
}
