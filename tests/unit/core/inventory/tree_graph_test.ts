import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  buildTree,
  filterTree,
  flattenTree,
  parseSnapshot,
  renderTreeLines,
  treeDelta,
  treeEdges,
  type TreeInput,
  type TreeNode,
  treeSnapshot,
} from "../../../../src/core/inventory/tree_graph.ts";

let clock = 0;
function meta(session: string, parentSession: string | null = null): TreeInput {
  clock++;
  return {
    session,
    parentSession,
    agent: "claude",
    mode: "exec",
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
  };
}

function shape(nodes: readonly TreeNode[]): unknown[] {
  return nodes.map((n) => ({ [n.session]: shape(n.children) }));
}

Deno.test("tree nests children under their parents, oldest first", () => {
  const g = buildTree([
    meta("lisa-a"),
    meta("lisa-b", "lisa-a"),
    meta("lisa-c", "lisa-b"),
    meta("lisa-d", "lisa-a"),
    meta("lisa-e"),
  ]);
  deepStrictEqual(shape(g.roots), [
    { "lisa-a": [{ "lisa-b": [{ "lisa-c": [] }] }, { "lisa-d": [] }] },
    { "lisa-e": [] },
  ]);
  strictEqual(g.nodeCount, 5);
  deepStrictEqual(g.cycles, []);
  deepStrictEqual(g.danglingParents, []);
  strictEqual(g.roots[0].children[0].parentSession, "lisa-a");
  strictEqual(g.roots[0].parentMissing, undefined);
});

Deno.test("tree orders siblings by creation time, not by input order", () => {
  const a = meta("lisa-a");
  const older = meta("lisa-z", "lisa-a");
  const newer = meta("lisa-b", "lisa-a");
  const g = buildTree([newer, a, older]);
  deepStrictEqual(shape(g.roots), [{ "lisa-a": [{ "lisa-z": [] }, { "lisa-b": [] }] }]);
});

Deno.test("tree makes a node with a dangling parent a root flagged parentMissing", () => {
  const g = buildTree([meta("lisa-x", "lisa-gone"), meta("lisa-y", "lisa-x")]);
  deepStrictEqual(shape(g.roots), [{ "lisa-x": [{ "lisa-y": [] }] }]);
  strictEqual(g.roots[0].parentMissing, true);
  strictEqual(g.roots[0].parentSession, "lisa-gone");
  deepStrictEqual(g.danglingParents, ["lisa-gone"]);
});

Deno.test("tree breaks a two-node cycle at its oldest member and reports it", () => {
  const g = buildTree([meta("lisa-p", "lisa-q"), meta("lisa-q", "lisa-p")]);
  deepStrictEqual(shape(g.roots), [{ "lisa-p": [{ "lisa-q": [] }] }]);
  strictEqual(g.roots[0].cycleBroken, true);
  deepStrictEqual(g.cycles, [["lisa-p", "lisa-q"]]);
});

Deno.test("tree breaks a self-parent and a longer cycle with a tail hanging off it", () => {
  const g = buildTree([
    meta("lisa-self", "lisa-self"),
    meta("lisa-1", "lisa-3"),
    meta("lisa-2", "lisa-1"),
    meta("lisa-3", "lisa-2"),
    meta("lisa-tail", "lisa-2"),
  ]);
  deepStrictEqual(shape(g.roots), [
    { "lisa-self": [] },
    { "lisa-1": [{ "lisa-2": [{ "lisa-3": [] }, { "lisa-tail": [] }] }] },
  ]);
  strictEqual(g.cycles.length, 2);
  deepStrictEqual(g.cycles.find((c) => c.length === 3), ["lisa-1", "lisa-2", "lisa-3"]);
  deepStrictEqual(g.cycles.find((c) => c.length === 1), ["lisa-self"]);
  strictEqual(g.nodeCount, 5);
});

Deno.test("tree keeps the first meta of a duplicated session", () => {
  const first = meta("lisa-a");
  const dup = { ...meta("lisa-a", "lisa-zz") };
  const g = buildTree([first, dup]);
  strictEqual(g.nodeCount, 1);
  strictEqual(g.roots[0].parentSession, null);
});

Deno.test("flat rows list nodes depth-first with their depth and no children field", () => {
  const g = buildTree([meta("lisa-a"), meta("lisa-b", "lisa-a"), meta("lisa-c", "lisa-b")]);
  const rows = flattenTree(g.roots);
  deepStrictEqual(rows.map((r) => [r.session, r.depth, r.parentSession]), [
    ["lisa-a", 0, null],
    ["lisa-b", 1, "lisa-a"],
    ["lisa-c", 2, "lisa-b"],
  ]);
  strictEqual("children" in rows[0], false);
});

Deno.test("filtering keeps live descendants of a dropped node under the nearest kept ancestor", () => {
  const g = buildTree([
    meta("lisa-a"),
    meta("lisa-b", "lisa-a"),
    meta("lisa-c", "lisa-b"),
    meta("lisa-d"),
    meta("lisa-e", "lisa-d"),
  ]);
  const kept = filterTree(g.roots, (n) => n.session !== "lisa-b" && n.session !== "lisa-d");
  deepStrictEqual(shape(kept), [{ "lisa-a": [{ "lisa-c": [] }] }, { "lisa-e": [] }]);
  // The input tree is not modified.
  strictEqual(g.roots[0].children[0].session, "lisa-b");
});

Deno.test("edges list every parent-child link", () => {
  const g = buildTree([meta("lisa-a"), meta("lisa-b", "lisa-a"), meta("lisa-c", "lisa-a")]);
  deepStrictEqual(treeEdges(g.roots), [
    { parent: "lisa-a", child: "lisa-b" },
    { parent: "lisa-a", child: "lisa-c" },
  ]);
});

Deno.test("delta reports edges and sessions added and removed since the previous snapshot", () => {
  const at = new Date("2026-01-01T00:00:00Z");
  const before = treeSnapshot(
    buildTree([meta("lisa-a"), meta("lisa-b", "lisa-a"), meta("lisa-old", "lisa-a")]).roots,
    at,
  );
  const after = treeSnapshot(
    buildTree([meta("lisa-a"), meta("lisa-b", "lisa-a"), meta("lisa-new", "lisa-b")]).roots,
    new Date("2026-01-01T00:01:00Z"),
  );
  const d = treeDelta(before, after);
  deepStrictEqual(d.added, [{ parent: "lisa-b", child: "lisa-new" }]);
  deepStrictEqual(d.removed, [{ parent: "lisa-a", child: "lisa-old" }]);
  deepStrictEqual(d.addedSessions, ["lisa-new"]);
  deepStrictEqual(d.removedSessions, ["lisa-old"]);
  strictEqual(d.previousAt, at.toISOString());
});

Deno.test("the first delta counts every edge as added", () => {
  const snap = treeSnapshot(
    buildTree([meta("lisa-a"), meta("lisa-b", "lisa-a")]).roots,
    new Date(),
  );
  const d = treeDelta(undefined, snap);
  strictEqual(d.previousAt, null);
  deepStrictEqual(d.added, [{ parent: "lisa-a", child: "lisa-b" }]);
  deepStrictEqual(d.removed, []);
});

Deno.test("a stored snapshot round-trips and junk is rejected", () => {
  const snap = treeSnapshot(
    buildTree([meta("lisa-a"), meta("lisa-b", "lisa-a")]).roots,
    new Date(),
  );
  deepStrictEqual(parseSnapshot(JSON.parse(JSON.stringify(snap))), snap);
  strictEqual(parseSnapshot(null), undefined);
  strictEqual(parseSnapshot({ version: 2 }), undefined);
  strictEqual(parseSnapshot([1, 2]), undefined);
});

Deno.test("text rendering draws branches with box characters", () => {
  const g = buildTree([
    meta("lisa-a"),
    meta("lisa-b", "lisa-a"),
    meta("lisa-c", "lisa-b"),
    meta("lisa-d", "lisa-a"),
    meta("lisa-e"),
  ]);
  deepStrictEqual(renderTreeLines(g.roots, (n) => n.session), [
    "lisa-a",
    "├─ lisa-b",
    "│  └─ lisa-c",
    "└─ lisa-d",
    "lisa-e",
  ]);
});

Deno.test("two projects' sessions of one name are two nodes; a child hangs under its own project's (or run's) parent", () => {
  const inProject = (m: TreeInput, projectHash: string, extra: Partial<TreeInput> = {}) => ({
    ...m,
    projectHash,
    ...extra,
  });
  const g = buildTree([
    inProject(meta("lisa-job"), "aaaaaaaa", { runId: "run-a" }),
    inProject(meta("lisa-job"), "bbbbbbbb", { runId: "run-b" }),
    inProject(meta("lisa-kid-b", "lisa-job"), "bbbbbbbb"),
    // Filed under another hash, but its parent run is a's: a's child.
    inProject(meta("lisa-kid-a", "lisa-job"), "cccccccc", { parentRunId: "run-a" }),
  ]);
  strictEqual(g.nodeCount, 4);
  deepStrictEqual(
    g.roots.map((r) => [r.projectHash, r.children.map((c) => c.session)]),
    [["aaaaaaaa", ["lisa-kid-a"]], ["bbbbbbbb", ["lisa-kid-b"]]],
  );
  deepStrictEqual(g.danglingParents, []);
  // Neither its project's nor its run's, and two of that name elsewhere: it dangles.
  const lost = buildTree([
    inProject(meta("lisa-job"), "aaaaaaaa"),
    inProject(meta("lisa-job"), "bbbbbbbb"),
    inProject(meta("lisa-kid", "lisa-job"), "cccccccc"),
  ]);
  deepStrictEqual(lost.danglingParents, ["lisa-job"]);
  strictEqual(lost.roots.find((r) => r.session === "lisa-kid")?.parentMissing, true);
});
