/**
 * `lisa session tree` against real tmux: metadata links, live/gone sessions, states, deltas,
 * other projects, and broken metadata (cycles, dangling parents).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { projectHash } from "../../src/core/session/identity.ts";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";

interface Node {
  session: string;
  parentSession: string | null;
  children: Node[];
  active?: boolean;
  alive?: boolean;
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

function pathIn(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
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

Deno.test("tree --with-state takes a gone session's verdict from its done file", async () => {
  const world = await makeWorld();
  try {
    const ok0 = await spawn(world, "lisa-exec-ok", "exit 0");
    const bad = await spawn(world, "lisa-exec-bad", "exit 4");
    const done = (s: Record<string, unknown>) =>
      `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-done.txt`;
    for (const s of [ok0, bad]) {
      ok(await waitFor(() => pathIn(done(s)), 20_000), `no done file for ${s.session}`);
    }
    // Gone from tmux (killed by hand), done file kept.
    await world.tmux(String(ok0.socketPath), ["kill-session", "-t", "=lisa-exec-ok"]);
    await world.tmux(String(ok0.socketPath), ["kill-session", "-t", "=lisa-exec-bad"]);
    const t = await tree(world, ["--with-state"]);
    const bySession = new Map((t.roots as Node[]).map((n) => [n.session, n]));
    strictEqual(bySession.get("lisa-exec-ok")?.active, false);
    strictEqual(bySession.get("lisa-exec-ok")?.state, "completed");
    strictEqual(bySession.get("lisa-exec-ok")?.exitCode, 0);
    strictEqual(bySession.get("lisa-exec-bad")?.state, "crashed");
    strictEqual(bySession.get("lisa-exec-bad")?.exitCode, 4);
    // status agrees.
    const st = await world.lisaInProcess([
      "session",
      "status",
      "--session",
      "lisa-exec-ok",
      "--json",
    ]);
    strictEqual(st.json?.sessionState, "completed");
  } finally {
    await world.dispose();
  }
});

Deno.test("plain tree labels a finished session by its exit, not as active", async () => {
  const world = await makeWorld();
  try {
    await spawn(world, "lisa-tree-live", "sleep 60");
    const fin = await spawn(world, "lisa-tree-fin", "exit 3", {
      LISA_SESSION_NAME: "lisa-tree-live",
    });
    await spawn(world, "lisa-tree-ok", "exit 0", { LISA_SESSION_NAME: "lisa-tree-live" });
    plantMeta(world, "lisa-tree-gone", "lisa-tree-live");
    const doneFile = `${world.runtimeDir}/.lisa-${fin.projectHash}-session-lisa-tree-fin-done.txt`;
    ok(await waitFor(() => pathIn(doneFile), 20_000));
    const text = await waitFor(async () => {
      const r = await world.lisaInProcess(["session", "tree"]);
      return r.stdout.includes("lisa-tree-ok (") && /lisa-tree-ok \([^)]*exited 0/.test(r.stdout)
        ? r.stdout
        : undefined;
    }, 20_000);
    ok(text, "the finished sessions never showed their exit");
    const line = (name: string) => text.split("\n").find((l) => l.includes(`${name} (`)) ?? "";
    ok(/, active\)$/.test(line("lisa-tree-live")), line("lisa-tree-live"));
    ok(/, exited 3\)$/.test(line("lisa-tree-fin")), line("lisa-tree-fin"));
    ok(/, exited 0\)$/.test(line("lisa-tree-ok")), line("lisa-tree-ok"));
    ok(/, gone\)$/.test(line("lisa-tree-gone")), line("lisa-tree-gone"));
    const flat = await world.lisaInProcess(["session", "tree", "--flat"]);
    const row = flat.stdout.split("\n").find((l) => l.includes("lisa-tree-fin")) ?? "";
    ok(row.includes("exited 3") && !row.includes("active"), row);
    // JSON: `active` still says whether tmux has the session; `alive` whether it still runs.
    const t = await tree(world);
    const kids = new Map((t.roots as Node[])[0].children.map((k) => [k.session, k]));
    strictEqual(kids.get("lisa-tree-fin")?.active, true);
    strictEqual(kids.get("lisa-tree-fin")?.alive, false);
    strictEqual((t.roots as Node[])[0].alive, true);
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

Deno.test("tree --with-state copes with an older or damaged meta: partial, or of wrong types", async () => {
  const world = await makeWorld();
  try {
    await spawn(world, "lisa-live-root", "sleep 60");
    const hash = hashOf(world);
    const write = (session: string, meta: Record<string, unknown>) =>
      Deno.writeTextFileSync(
        `${world.runtimeDir}/.lisa-${hash}-session-${session}-meta.json`,
        JSON.stringify({ session, ...meta }),
        { mode: 0o600 },
      );
    write("lisa-partial", {});
    write("lisa-odd", { runId: 5, agent: ["x"], projectRoot: null, socketPath: 7 });
    const t = await tree(world, ["--with-state"]);
    const sessions = (t.roots as Node[]).map((r) => r.session).sort();
    deepStrictEqual(sessions, ["lisa-live-root", "lisa-odd", "lisa-partial"]);
    const live = (t.roots as Node[]).find((r) => r.session === "lisa-live-root")!;
    ok(["in_progress", "just_started"].includes(live.state!), String(live.state));
  } finally {
    await world.dispose();
  }
});
