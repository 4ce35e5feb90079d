/**
 * Issue 20 §5 against real tmux: two projects each with a session of the same name. A name
 * means the current project's session first (history included), fleet views show both, and a
 * name that could mean either from a third directory is `session_ambiguous`.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, type World } from "../helpers/world.ts";
import { endStray, spawn, type Spawned } from "./lifecycle_helpers.ts";

/** What a running `sleep` session reads as, depending on how soon after its spawn it is asked. */
const LIVE = ["just_started", "in_progress"];

/** Two more project dirs beside the world's (b, c), canonical paths. */
function projects(world: World): { a: string; b: string; c: string } {
  const b = `${world.base}/b`;
  const c = `${world.base}/c`;
  Deno.mkdirSync(b);
  Deno.mkdirSync(c);
  return {
    a: Deno.realPathSync(world.projectRoot),
    b: Deno.realPathSync(b),
    c: Deno.realPathSync(c),
  };
}

/** `lisa-job` spawned in project `root` (a long-running command). */
function spawnJob(world: World, root: string): Promise<Spawned> {
  return spawn(world, ["--command", "sleep 120", "--session", "lisa-job", "--project-root", root]);
}

Deno.test("session turns and history show of a name two projects used take the current project's run", async () => {
  const world = await makeWorld();
  try {
    const p = projects(world);
    const a = await spawnJob(world, p.a);
    const b = await spawnJob(world, p.b); // the newer run of the name
    const check = async (root: string, want: Spawned) => {
      const turns = await world.lisaInProcess([
        "session",
        "turns",
        "--session",
        "lisa-job",
        "--json",
      ], {
        cwd: root,
      });
      strictEqual(turns.code, 0, turns.stdout + turns.stderr);
      strictEqual(turns.json!.runId, want.runId, `turns from ${root}`);
      const shown = await world.lisaInProcess(["history", "show", "lisa-job", "--json"], {
        cwd: root,
      });
      strictEqual(shown.code, 0, shown.stdout + shown.stderr);
      strictEqual(shown.json!.runId, want.runId, `history show from ${root}`);
      strictEqual(shown.json!.projectRoot, want.projectRoot);
    };
    await check(p.a, a);
    await check(p.b, b);
    // Killed (metas gone, event logs kept): still each project's own run.
    for (const root of [p.a, p.b]) {
      const k = await world.lisaInProcess(["session", "kill", "--session", "lisa-job", "--json"], {
        cwd: root,
      });
      strictEqual(k.code, 0, k.stdout);
    }
    await check(p.a, a);
    await check(p.b, b);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("two projects' live lisa-job: list, tree and watch show both; kill from a third directory is session_ambiguous and ends nothing", async () => {
  const world = await makeWorld();
  try {
    const p = projects(world);
    const a = await spawnJob(world, p.a);
    const b = await spawnJob(world, p.b);
    const roots = (rows: { projectRoot?: string | null }[]) =>
      rows.map((r) => r.projectRoot).sort();
    const both = [p.a, p.b].sort();

    const list = await world.lisaInProcess(["session", "list", "--all-sockets", "--json"], {
      cwd: p.c,
    });
    strictEqual(list.code, 0, list.stdout);
    const items = list.json!.items as { session: string; projectRoot: string; state: string }[];
    deepStrictEqual(roots(items), both, list.stdout);
    ok(items.every((i) => i.session === "lisa-job" && LIVE.includes(i.state)), list.stdout);

    for (const extra of [[], ["--with-state"]]) {
      const tree = await world.lisaInProcess(
        ["session", "tree", "--all-hashes", "--flat", "--json", ...extra],
        { cwd: p.c },
      );
      strictEqual(tree.code, 0, tree.stdout);
      const rows = tree.json!.rows as { projectRoot: string; active: boolean; state?: string }[];
      deepStrictEqual(roots(rows), both, tree.stdout);
      ok(rows.every((r) => r.active === true), tree.stdout);
      if (extra.length > 0) ok(rows.every((r) => LIVE.includes(r.state!)), tree.stdout);
    }

    const watch = await world.lisa(
      ["session", "watch", "--all-sockets", "--json", "--timeout-seconds", "1"],
      { cwd: p.c },
    );
    const appeared = watch.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => e.type === "appeared");
    deepStrictEqual(roots(appeared), both, watch.stdout);

    // From a third project, the name could mean either: refused, both still run.
    for (const verb of ["kill", "status"]) {
      const r = await world.lisaInProcess(["session", verb, "--session", "lisa-job", "--json"], {
        cwd: p.c,
      });
      strictEqual(r.code, 1, `${verb}: ${r.stdout}`);
      strictEqual(r.json!.errorCode, "session_ambiguous");
      deepStrictEqual(
        roots(r.json!.candidates as { projectRoot: string }[]),
        both,
      );
    }
    for (const s of [a, b]) {
      const has = await world.tmux(s.socketPath, ["has-session", "-t", "=lisa-job:"]);
      strictEqual(has.code, 0, `${s.projectRoot}'s lisa-job was ended`);
    }
    // From its own project, the name is that project's session.
    const own = await world.lisaInProcess(
      ["session", "status", "--session", "lisa-job", "--json"],
      {
        cwd: p.b,
      },
    );
    strictEqual(own.code, 0, own.stdout);
    ok(LIVE.includes(own.json!.sessionState as string), own.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("--cleanup-all-hashes removes what gone sessions of the name left in other projects, never the files of one another project runs", async () => {
  const world = await makeWorld();
  try {
    const p = projects(world);
    const a = await spawnJob(world, p.a);
    const metaA = `${world.runtimeDir}/.lisa-${a.projectHash}-session-lisa-job-meta.json`;
    const other = ["--command", "sleep 120", "--session", "lisa-job", "--project-root", p.b];
    // Project b's spawn and kill of its own lisa-job took project a's running one's meta,
    // heartbeat and hooks with them.
    await spawn(world, [...other, "--cleanup-all-hashes"]);
    strictEqual(JSON.parse(Deno.readTextFileSync(metaA)).runId, a.runId, "spawn took a's meta");
    const killed = await world.lisaInProcess([
      "session",
      "kill",
      "--session",
      "lisa-job",
      "--project-root",
      p.b,
      "--cleanup-all-hashes",
      "--json",
    ]);
    strictEqual(killed.code, 0, killed.stdout);
    strictEqual(JSON.parse(Deno.readTextFileSync(metaA)).runId, a.runId, "kill took a's meta");
    // Once a's session is gone, its files are what --cleanup-all-hashes is for.
    strictEqual((await world.tmux(a.socketPath, ["kill-server"])).code, 0);
    await spawn(world, [...other, "--cleanup-all-hashes"]);
    const left = [...Deno.readDirSync(world.runtimeDir)].map((e) => e.name)
      .filter((n) => n.includes(`-${a.projectHash}-session-`) && !n.includes("-events.jsonl"));
    deepStrictEqual(left, []);
  } finally {
    await endStray();
    await world.dispose();
  }
});
