/** `lisa session tree`: the parent/child graph of sessions from their metadata. */
import type { LisaContext } from "../../context.ts";
import { printJson, relativeAge, renderTable } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { treeFlags } from "./tree_spec.ts";
import {
  flattenTree,
  type FleetTreeResult,
  renderTreeLines,
  runTree,
  treeAllHosts,
  type TreeNode,
} from "../../../core/inventory/mod.ts";
import { UsageError } from "../../../base/errors.ts";
import { resolvePath } from "../../../base/paths.ts";
import {
  isValidSessionName,
  locateSession,
  resolveProject,
  resolveSession,
} from "../../../core/session/mod.ts";

/** The flags of tree that read or keep this machine's files only (refused with --all-hosts). */
function checkAllHosts(flags: FlagsOf<typeof treeFlags>): void {
  const local = [
    [flags.delta, "--delta"],
    [flags.deltaJson, "--delta-json"],
    [flags.cursorFile !== undefined, "--cursor-file"],
    [flags.session !== undefined, "--session"],
  ] as const;
  for (const [given, name] of local) {
    if (given) {
      throw new UsageError(
        `${name} does not go with --all-hosts (use --host for one host's tree)`,
        "conflicting_options",
      );
    }
  }
}

/** The state word of a node: its state, else active / exited N / gone; "?" when unknown. */
function stateLabel(n: Omit<TreeNode, "children">): string {
  if (n.state !== undefined) return n.state;
  if (n.active === undefined) return "?";
  if (!n.active) return "gone";
  // tmux keeps a finished pane (remain-on-exit): the session exists but its command ended.
  if (n.alive === false) return n.exitCode === undefined ? "exited" : `exited ${n.exitCode}`;
  return "active";
}

/** A node's session as a person addresses it: `host:session` on another host. */
function named(n: { session: string; host?: string | null }): string {
  return n.host ? `${n.host}:${n.session}` : n.session;
}

function describe(n: TreeNode, now: Date): string {
  const created = Date.parse(n.createdAt);
  const parts = [...(n.alias ? [n.alias] : []), `${n.agent ?? "-"}/${n.mode ?? "-"}`];
  if (!Number.isNaN(created)) parts.push(relativeAge(new Date(created), now));
  const label = stateLabel(n);
  if (label !== "?") parts.push(label);
  if (n.parentMissing) parts.push(`parent ${n.parentSession} missing`);
  if (n.cycleBroken) parts.push("cycle broken here");
  return `${named(n)} (${parts.join(", ")})`;
}

/** The node of `session` (of project `hash` when given), depth-first. */
function findNode(
  nodes: readonly TreeNode[],
  session: string,
  hash?: string,
): TreeNode | undefined {
  for (const n of nodes) {
    if (n.session === session && (hash === undefined || n.projectHash === hash)) return n;
    const inner = findNode(n.children, session, hash);
    if (inner) return inner;
  }
  return undefined;
}

function countNodes(n: TreeNode): number {
  return 1 + n.children.reduce((sum, c) => sum + countNodes(c), 0);
}

/** What `runTree` gives (this machine's tree). */
type Tree = Awaited<ReturnType<typeof runTree>>;

/** The tree the flags ask for: this machine's, or with --all-hosts every host's (`fleet`). */
async function gatherTree(
  deps: LisaContext["deps"],
  flags: FlagsOf<typeof treeFlags>,
): Promise<{ result: Tree; fleet?: FleetTreeResult }> {
  const local = () =>
    runTree(deps, {
      projectRoot: flags.projectRoot,
      allHashes: flags.allHashes === true,
      activeOnly: flags.activeOnly === true,
      withState: flags.withState === true,
      delta: flags.delta === true || flags.deltaJson === true,
      ...(flags.cursorFile ? { deltaPath: resolvePath(deps.cwd, flags.cursorFile) } : {}),
    });
  if (!flags.allHosts) return { result: await local() };
  const fleet = await treeAllHosts(deps, local, {
    allHashes: flags.allHashes,
    activeOnly: flags.activeOnly,
    withState: flags.withState,
  });
  for (const h of fleet.hosts) {
    if (!h.ok) deps.io.err(`lisa: host ${h.name}: ${h.errorCode}: ${h.error}\n`);
  }
  return { result: fleet, fleet };
}

/**
 * With --session, `result` narrowed to that session's subtree; the session's name (undefined
 * without --session).
 */
async function narrowToSession(
  deps: LisaContext["deps"],
  flags: FlagsOf<typeof treeFlags>,
  result: Tree,
): Promise<string | undefined> {
  // A full name, an alias or an unambiguous prefix of an alias (session_ambiguous otherwise); a
  // value that matches no session keeps the empty answer.
  const session = flags.session === undefined ? undefined : (await resolveSession(
    deps,
    resolveProject(deps, flags.projectRoot).runtimeDir,
    flags.session,
  ))?.session ?? flags.session;
  if (session !== undefined) {
    // The subtree of one session (the older Go lisa's root filter): of the project the name
    // means (the current one first), when several projects have a session of that name.
    const hash = isValidSessionName(session)
      ? (await locateSession(deps, session, flags.projectRoot)).hash
      : undefined;
    const found = findNode(result.roots, session, hash) ?? findNode(result.roots, session);
    result.roots = found ? [found] : [];
    result.nodeCount = found ? countNodes(found) : 0;
  }
  return session;
}

/** Prints the session tree (nested, flat, or JSON) and, with --delta, the edge changes. */
export default async function tree(
  this: LisaContext,
  flags: FlagsOf<typeof treeFlags>,
): Promise<void> {
  const deps = this.deps;
  if (flags.cursorFile !== undefined && !flags.deltaJson) {
    throw new UsageError("--cursor-file needs --delta-json", "cursor_file_requires_delta_json");
  }
  if (flags.allHosts) checkAllHosts(flags);
  const { result, fleet } = await gatherTree(deps, flags);
  const session = await narrowToSession(deps, flags, result);
  if (flags.jsonMin) {
    const slim = (n: TreeNode): Record<string, unknown> => ({
      ...(fleet ? { host: (n as { host?: string | null }).host ?? null } : {}),
      session: n.session,
      ...(n.state !== undefined ? { state: n.state } : {}),
      children: n.children.map(slim),
    });
    printJson(deps.io, {
      session: session ?? null,
      nodeCount: result.nodeCount,
      roots: result.roots.map(slim),
      ...(result.delta ? { delta: result.delta } : {}),
      ...(fleet ? { hosts: fleet.hosts } : {}),
    });
    return;
  }
  if (flags.json || flags.deltaJson) {
    if (flags.flat) {
      const { roots, ...rest } = result;
      printJson(deps.io, { session: session ?? null, ...rest, rows: flattenTree(roots) });
    } else printJson(deps.io, { session: session ?? null, ...result });
    return;
  }
  printTreeText(deps, flags.flat === true, result);
}

/** The tree for a person: nested or flat (`flat`), its cycles, and the edge changes. */
function printTreeText(deps: LisaContext["deps"], flat: boolean, result: Tree): void {
  const now = deps.now();
  if (flat) {
    const rows = flattenTree(result.roots).map((r) => [
      `${"  ".repeat(r.depth)}${named(r)}`,
      r.parentSession ?? "-",
      `${r.agent ?? "-"}/${r.mode ?? "-"}`,
      stateLabel(r),
      Number.isNaN(Date.parse(r.createdAt)) ? "-" : relativeAge(new Date(r.createdAt), now),
    ]);
    deps.io.out(renderTable(["SESSION", "PARENT", "AGENT/MODE", "STATE", "CREATED"], rows));
  } else if (result.roots.length === 0) {
    deps.io.out("no sessions\n");
  } else {
    deps.io.out(renderTreeLines(result.roots, (n) => describe(n, now)).join("\n") + "\n");
  }
  for (const c of result.cycles) {
    deps.io.err(`lisa: parent links form a cycle (${c.join(" -> ")}); broken at ${c[0]}\n`);
  }
  if (result.delta) {
    const d = result.delta;
    for (const e of d.added) deps.io.out(`+ ${e.parent} -> ${e.child}\n`);
    for (const e of d.removed) deps.io.out(`- ${e.parent} -> ${e.child}\n`);
    if (d.added.length === 0 && d.removed.length === 0) deps.io.out("no edge changes\n");
  }
}
