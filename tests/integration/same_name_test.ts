/**
 * Issue 20 §5 against real tmux: two projects each with a session of the same name. A name
 * means the current project's session first (history included), fleet views show both, and a
 * name that could mean either from a third directory is `session_ambiguous`.
 */
import { strictEqual } from "node:assert/strict";
import { makeWorld, type World } from "../helpers/world.ts";
import { endStray, spawn, type Spawned } from "./lifecycle_helpers.ts";

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
