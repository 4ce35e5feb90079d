/**
 * `lisa session tree` against real tmux: metadata links, live/gone sessions, states, deltas,
 * other projects, and broken metadata (cycles, dangling parents).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { projectHash } from "../../src/core/identity.ts";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";

interface Node {
  session: string;
  parentSession: string | null;
  children: Node[];
  active?: boolean;
  state?: string;
  exitCode?: number;
  parentMissing?: boolean;
  cycleBroken?: boolean;
}

function hashOf(world: World): string {
  return projectHash(Deno.realPathSync(world.projectRoot));
}

/** Writes a meta file as spawn would (no tmux session behind it). */
function plantMeta(
  world: World,
  session: string,
  parentSession: string | null,
  opts: { hash?: string; createdAt?: string } = {},
): void {
  const hash = opts.hash ?? hashOf(world);
  const meta = {
    session,
    parentSession,
    agent: "codex",
    mode: "exec",
    projectRoot: world.projectRoot,
    projectHash: hash,
    socketPath: `${world.socketDir}/lisa-tmux-none-${hash}.sock`,
    startCmd: "true",
    prompt: null,
    createdAt: opts.createdAt ?? new Date().toISOString(),
    runId: "r1",
    agentSessionId: null,
    hooks: false,
  };
  Deno.writeTextFileSync(
    `${world.runtimeDir}/.lisa-${hash}-session-${session}-meta.json`,
    JSON.stringify(meta),
    { mode: 0o600 },
  );
}

async function tree(world: World, args: string[] = []): Promise<Record<string, unknown>> {
  const r = await world.lisaInProcess(["session", "tree", "--json", ...args]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  return r.json!;
}

async function spawn(world: World, session: string, command: string, env = {}) {
  const r = await world.lisaInProcess(
    ["session", "spawn", "--session", session, "--mode", "exec", "--command", command, "--json"],
    { env },
  );
  strictEqual(r.code, 0, r.stdout + r.stderr);
  return r.json!;
}

Deno.test("tree reports dangling parents as flagged roots and breaks cycles", async () => {
  const world = await makeWorld();
  try {
    plantMeta(world, "lisa-orphan", "lisa-vanished", { createdAt: "2026-01-01T00:00:00Z" });
    plantMeta(world, "lisa-cyc-a", "lisa-cyc-b", { createdAt: "2026-01-01T00:00:01Z" });
    plantMeta(world, "lisa-cyc-b", "lisa-cyc-a", { createdAt: "2026-01-01T00:00:02Z" });
    const t = await tree(world);
    const roots = t.roots as Node[];
    deepStrictEqual(roots.map((r) => r.session), ["lisa-orphan", "lisa-cyc-a"]);
    strictEqual(roots[0].parentMissing, true);
    strictEqual(roots[1].cycleBroken, true);
    strictEqual(roots[1].children[0].session, "lisa-cyc-b");
    deepStrictEqual(t.cycles, [["lisa-cyc-a", "lisa-cyc-b"]]);
    deepStrictEqual(t.danglingParents, ["lisa-vanished"]);
    strictEqual(roots[0].active, false);
    // Text output names the cycle on stderr and draws the tree on stdout.
    const text = await world.lisaInProcess(["session", "tree"]);
    strictEqual(text.code, 0);
    ok(text.stdout.includes("└─ lisa-cyc-b"), text.stdout);
    ok(text.stderr.includes("cycle"), text.stderr);
  } finally {
    await world.dispose();
  }
});

Deno.test("tree --active-only drops gone sessions and --with-state adds states", async () => {
  const world = await makeWorld();
  try {
    await spawn(world, "lisa-live-root", "sleep 60");
    await spawn(world, "lisa-live-kid", "sleep 60", { LISA_SESSION_NAME: "lisa-live-root" });
    await spawn(world, "lisa-done-kid", "exit 3", { LISA_SESSION_NAME: "lisa-live-root" });
    plantMeta(world, "lisa-gone-kid", "lisa-live-root");

    const full = await waitFor(async () => {
      const t = await tree(world, ["--with-state"]);
      const kids = (t.roots as Node[])[0]?.children ?? [];
      return kids.find((k) => k.session === "lisa-done-kid")?.state === "crashed" ? t : undefined;
    }, 20_000);
    ok(full, "the exited session never showed as crashed");
    const root = (full.roots as Node[])[0];
    strictEqual(root.session, "lisa-live-root");
    const bySession = new Map(root.children.map((k) => [k.session, k]));
    strictEqual(bySession.get("lisa-done-kid")?.exitCode, 3);
    strictEqual(bySession.get("lisa-gone-kid")?.state, "not_found");
    strictEqual(bySession.get("lisa-gone-kid")?.active, false);
    strictEqual(bySession.get("lisa-live-kid")?.active, true);
    ok(["in_progress", "just_started"].includes(bySession.get("lisa-live-kid")!.state!));
    strictEqual(full.nodeCount, 4);
    // The exited pane is still a tmux session (remain-on-exit): it counts as active.
    strictEqual(full.activeCount, 3);

    const active = await tree(world, ["--active-only"]);
    const kids = (active.roots as Node[])[0].children.map((k) => k.session).sort();
    deepStrictEqual(kids, ["lisa-done-kid", "lisa-live-kid"]);

    const flat = await tree(world, ["--flat", "--active-only"]);
    strictEqual((flat.rows as unknown[]).length, 3);
    strictEqual(flat.roots, undefined);
  } finally {
    await world.dispose();
  }
});

Deno.test("tree --delta reports edges added and removed since the previous call", async () => {
  const world = await makeWorld();
  try {
    plantMeta(world, "lisa-p", null);
    plantMeta(world, "lisa-c1", "lisa-p");
    const first = (await tree(world, ["--delta"])).delta as Record<string, unknown>;
    strictEqual(first.previousAt, null);
    deepStrictEqual(first.added, [{ parent: "lisa-p", child: "lisa-c1" }]);

    const second = (await tree(world, ["--delta"])).delta as Record<string, unknown>;
    deepStrictEqual(second.added, []);
    deepStrictEqual(second.removed, []);
    ok(typeof second.previousAt === "string");

    Deno.removeSync(`${world.runtimeDir}/.lisa-${hashOf(world)}-session-lisa-c1-meta.json`);
    plantMeta(world, "lisa-c2", "lisa-p");
    const third = (await tree(world, ["--delta"])).delta as Record<string, unknown>;
    deepStrictEqual(third.added, [{ parent: "lisa-p", child: "lisa-c2" }]);
    deepStrictEqual(third.removed, [{ parent: "lisa-p", child: "lisa-c1" }]);
    // The snapshot lives in the runtime dir.
    ok(Deno.statSync(`${world.runtimeDir}/.lisa-${hashOf(world)}-tree-delta.json`).isFile);
  } finally {
    await world.dispose();
  }
});

Deno.test("tree shows only this project unless --all-hashes", async () => {
  const world = await makeWorld();
  try {
    plantMeta(world, "lisa-mine", null);
    plantMeta(world, "lisa-theirs", null, { hash: "0badc0de" });
    const mine = await tree(world);
    deepStrictEqual((mine.roots as Node[]).map((r) => r.session), ["lisa-mine"]);
    const all = await tree(world, ["--all-hashes"]);
    deepStrictEqual((all.roots as Node[]).map((r) => r.session).sort(), [
      "lisa-mine",
      "lisa-theirs",
    ]);
    // --project-root from elsewhere reads the same project.
    const elsewhere = await world.lisaInProcess(
      ["session", "tree", "--json", "--project-root", world.projectRoot],
      { cwd: "/" },
    );
    deepStrictEqual((elsewhere.json!.roots as Node[]).map((r) => r.session), ["lisa-mine"]);
  } finally {
    await world.dispose();
  }
});
