/**
 * The session graph built from `parentSession` links in metadata (seed 000 "Tree"). Pure: the
 * I/O side (reading metas, asking tmux which sessions live) is in `tree.ts`.
 *
 * Metadata is written by independent processes and may be inconsistent: a parent's meta may be
 * gone (killed, cleaned, other hash) and a hand-edited or colliding meta can form a cycle. Both
 * are handled: a dangling parent makes the node a root flagged `parentMissing`, and each cycle
 * is broken at its oldest member, which becomes a root flagged `cycleBroken`.
 */
import type { Agent, Mode } from "../../base/types.ts";

/** The facts of one session the graph needs (a subset of SessionMeta). */
export interface TreeInput {
  session: string;
  parentSession: string | null;
  /** null: the meta names no agent (or mode) lisa knows. */
  agent: Agent | string | null;
  mode: Mode | string | null;
  createdAt: string;
  projectHash?: string;
  projectRoot?: string;
  /** Its run, and the run of its parent (a parent of the same name elsewhere is not it). */
  runId?: string;
  parentRunId?: string;
}

/** One node of the tree (`roots[]` / `children[]` in `tree --json`). */
export interface TreeNode {
  session: string;
  parentSession: string | null;
  agent: string | null;
  mode: string | null;
  createdAt: string;
  projectHash?: string;
  projectRoot?: string;
  /** Present (true) when `parentSession` names a session that is not in the graph. */
  parentMissing?: true;
  /** Present (true) when this node's parent link was dropped to break a cycle. */
  cycleBroken?: true;
  /** Whether tmux has the session (set by the I/O layer); a finished pane kept by tmux counts. */
  active?: boolean;
  /** Whether the session's command still runs: tmux has it, its pane lives, no done file. */
  alive?: boolean;
  /** Session state (set by the I/O layer with `--with-state`): live, as `status` says. */
  state?: string;
  /** With `--with-state`: what a waiting session waits for, and the classifier's reason. */
  waitingFor?: string | null;
  classificationReason?: string;
  /** With `--with-state`: the session's alias, when it has one. */
  alias?: string | null;
  /** Exit code of a finished session, when known. */
  exitCode?: number;
  children: TreeNode[];
}

/** The graph as built from metadata. */
export interface TreeGraph {
  roots: TreeNode[];
  /** Each cycle found, parent → child, starting at the member whose parent link was dropped. */
  cycles: string[][];
  /** Parent names that had no meta (sorted, unique). */
  danglingParents: string[];
  nodeCount: number;
}

/** A parent → child link. */
export interface TreeEdge {
  parent: string;
  child: string;
}

/** One row of `tree --flat`, in depth-first order: a node without children, with its depth. */
export type FlatRow = Omit<TreeNode, "children"> & { depth: number };

function byAge(a: TreeInput, b: TreeInput): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.session < b.session ? -1 : a.session > b.session ? 1 : 0;
}

/** A node's identity: its project and its name (two projects may each have a `lisa-job`). */
function nodeKey(m: Pick<TreeInput, "session" | "projectHash">): string {
  return `${m.projectHash ?? ""}\n${m.session}`;
}

/**
 * Builds the forest from `metas` (duplicates of one project and name: the first wins). A
 * `parentSession` is looked up as the run its `parentRunId` names, else the session of that
 * name in the child's own project (where nested spawns land), else the only session of that
 * name; otherwise it dangles. Roots and children are ordered oldest first. Never throws on
 * inconsistent links.
 */
export function buildTree(metas: readonly TreeInput[]): TreeGraph {
  const info = new Map<string, TreeInput>();
  for (const m of metas) if (!info.has(nodeKey(m))) info.set(nodeKey(m), m);
  const byName = new Map<string, string[]>();
  const byRun = new Map<string, string>();
  for (const [key, m] of info) {
    byName.set(m.session, [...(byName.get(m.session) ?? []), key]);
    if (m.runId) byRun.set(m.runId, key);
  }
  const parentKeyOf = (m: TreeInput): string | null => {
    const p = m.parentSession as string;
    const run = m.parentRunId ? byRun.get(m.parentRunId) : undefined;
    if (run !== undefined && info.get(run)!.session === p) return run;
    const same = nodeKey({ session: p, projectHash: m.projectHash });
    if (info.has(same)) return same;
    const named = byName.get(p) ?? [];
    return named.length === 1 ? named[0] : null;
  };
  const parent = new Map<string, string | null>();
  const dangling = new Set<string>();
  const missing = new Set<string>();
  for (const [key, m] of info) {
    const p = m.parentSession;
    if (p === null || p === undefined || p === "") {
      parent.set(key, null);
      continue;
    }
    const found = parentKeyOf(m);
    if (found === null) {
      dangling.add(p);
      missing.add(key);
    }
    parent.set(key, found);
  }

  const { cycles, broken } = breakCycles(info, parent);
  const nodes = new Map<string, TreeNode>();
  for (const [key, m] of info) {
    const node: TreeNode = {
      session: m.session,
      parentSession: m.parentSession ?? null,
      agent: m.agent,
      mode: m.mode,
      createdAt: m.createdAt,
      children: [],
    };
    if (m.projectHash !== undefined) node.projectHash = m.projectHash;
    if (m.projectRoot !== undefined) node.projectRoot = m.projectRoot;
    if (missing.has(key)) node.parentMissing = true;
    if (broken.has(key)) node.cycleBroken = true;
    nodes.set(key, node);
  }
  const roots: TreeNode[] = [];
  for (const [key] of [...info].sort((x, y) => byAge(x[1], y[1]))) {
    const p = parent.get(key) ?? null;
    const node = nodes.get(key)!;
    if (p === null) roots.push(node);
    else nodes.get(p)!.children.push(node);
  }
  return { roots, cycles, danglingParents: [...dangling].sort(), nodeCount: nodes.size };
}

/**
 * Walks each chain of `parent` links upwards; a chain that revisits one of its own nodes is a
 * cycle, broken at its oldest node (which becomes a root). The cycles, parent → child from the
 * new root, and the nodes where they were broken.
 */
function breakCycles(
  info: ReadonlyMap<string, TreeInput>,
  parent: Map<string, string | null>,
): { cycles: string[][]; broken: Set<string> } {
  const cycles: string[][] = [];
  const broken = new Set<string>();
  const resolved = new Set<string>();
  for (const start of [...info.keys()].sort()) {
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let cur: string | null = start;
    while (cur !== null && !resolved.has(cur)) {
      if (onPath.has(cur)) {
        const members = path.slice(onPath.get(cur)!);
        const oldest = members.map((k) => ({ k, m: info.get(k)! })).sort((x, y) =>
          byAge(x.m, y.m)
        )[0].k;
        const at = members.indexOf(oldest);
        // `members` runs child → parent; report parent → child from the new root.
        const upward = [...members.slice(at), ...members.slice(0, at)]
          .map((k) => info.get(k)!.session);
        cycles.push([upward[0], ...upward.slice(1).reverse()]);
        parent.set(oldest, null);
        broken.add(oldest);
        break;
      }
      onPath.set(cur, path.length);
      path.push(cur);
      cur = parent.get(cur) ?? null;
    }
    for (const k of path) resolved.add(k);
  }

  return { cycles, broken };
}

/** Visits every node depth-first (parents before children), with its depth. */
export function walkTree(roots: readonly TreeNode[], visit: (n: TreeNode, depth: number) => void) {
  const stack: [TreeNode, number][] = roots.map((r) => [r, 0] as [TreeNode, number]).reverse();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    visit(node, depth);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i], depth + 1]);
  }
}

/** The rows of `tree --flat`: depth-first, each with its depth. */
export function flattenTree(roots: readonly TreeNode[]): FlatRow[] {
  const rows: FlatRow[] = [];
  walkTree(roots, (n, depth) => {
    const { children: _children, ...rest } = n;
    rows.push({ ...rest, depth });
  });
  return rows;
}

/** Keeps only the nodes `keep` accepts; a kept node under a dropped one moves up to its
 * nearest kept ancestor, or becomes a root. */
export function filterTree(roots: readonly TreeNode[], keep: (n: TreeNode) => boolean): TreeNode[] {
  const out: TreeNode[] = [];
  const visit = (node: TreeNode, into: TreeNode[]) => {
    if (keep(node)) {
      const copy: TreeNode = { ...node, children: [] };
      into.push(copy);
      for (const c of node.children) visit(c, copy.children);
    } else {
      for (const c of node.children) visit(c, into);
    }
  };
  for (const r of roots) visit(r, out);
  return out;
}

/** The parent → child edges of the forest (sorted). */
export function treeEdges(roots: readonly TreeNode[]): TreeEdge[] {
  const edges: TreeEdge[] = [];
  walkTree(roots, (n) => {
    for (const c of n.children) edges.push({ parent: n.session, child: c.session });
  });
  return edges.sort((a, b) => edgeKey(a) < edgeKey(b) ? -1 : edgeKey(a) > edgeKey(b) ? 1 : 0);
}

function edgeKey(e: TreeEdge): string {
  return `${e.parent}\u0000${e.child}`;
}

/** What `tree --delta` keeps between calls. */
export interface TreeSnapshot {
  version: 1;
  at: string;
  sessions: string[];
  edges: TreeEdge[];
}

/** The `delta` object of `tree --delta`. */
export interface TreeDelta {
  /** Time of the previous snapshot; null on the first call (everything counts as added). */
  previousAt: string | null;
  added: TreeEdge[];
  removed: TreeEdge[];
  addedSessions: string[];
  removedSessions: string[];
}

/** The snapshot of `roots` taken at `at`. */
export function treeSnapshot(roots: readonly TreeNode[], at: Date): TreeSnapshot {
  const sessions: string[] = [];
  walkTree(roots, (n) => sessions.push(n.session));
  return { version: 1, at: at.toISOString(), sessions: sessions.sort(), edges: treeEdges(roots) };
}

/** Differences between `previous` (undefined on the first call) and `current`. */
export function treeDelta(previous: TreeSnapshot | undefined, current: TreeSnapshot): TreeDelta {
  const prevEdges = new Set((previous?.edges ?? []).map(edgeKey));
  const curEdges = new Set(current.edges.map(edgeKey));
  const prevSessions = new Set(previous?.sessions ?? []);
  const curSessions = new Set(current.sessions);
  return {
    previousAt: previous?.at ?? null,
    added: current.edges.filter((e) => !prevEdges.has(edgeKey(e))),
    removed: (previous?.edges ?? []).filter((e) => !curEdges.has(edgeKey(e))),
    addedSessions: current.sessions.filter((s) => !prevSessions.has(s)),
    removedSessions: (previous?.sessions ?? []).filter((s) => !curSessions.has(s)),
  };
}

/** Parses a stored snapshot; undefined when it is missing or not a snapshot. */
export function parseSnapshot(value: unknown): TreeSnapshot | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<TreeSnapshot>;
  if (v.version !== 1 || typeof v.at !== "string") return undefined;
  if (!Array.isArray(v.sessions) || !Array.isArray(v.edges)) return undefined;
  const edges = v.edges.filter((e): e is TreeEdge =>
    typeof e === "object" && e !== null && typeof e.parent === "string" &&
    typeof e.child === "string"
  );
  const sessions = v.sessions.filter((s): s is string => typeof s === "string");
  return { version: 1, at: v.at, sessions, edges };
}

/** Renders the forest as indented text lines, one per node, using `label` for each node. */
export function renderTreeLines(
  roots: readonly TreeNode[],
  label: (n: TreeNode) => string,
): string[] {
  const lines: string[] = [];
  const visit = (node: TreeNode, prefix: string, last: boolean, top: boolean) => {
    lines.push(top ? label(node) : `${prefix}${last ? "└─ " : "├─ "}${label(node)}`);
    const childPrefix = top ? "" : `${prefix}${last ? "   " : "│  "}`;
    node.children.forEach((c, i) => visit(c, childPrefix, i === node.children.length - 1, false));
  };
  roots.forEach((r) => visit(r, "", true, true));
  return lines;
}
