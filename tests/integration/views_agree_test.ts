/**
 * Issue 20 §4 against real tmux: `list` and `tree --with-state` agree on a session whose server
 * died, and `prune` acts on the current project only (unless `--all-projects`) and says what it
 * would do.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn } from "./lifecycle_helpers.ts";
import { makeGitWorld, spawnWt } from "./worktree_helpers.ts";

/** Waits until the session's command ended and tmux shows its pane dead (what prune checks). */
async function paneDead(world: World, s: { session: string; socketPath: string }): Promise<void> {
  const dead = await waitFor(async () => {
    const r = await world.tmux(s.socketPath, [
      "display-message",
      "-p",
      "-t",
      `=${s.session}:`,
      "#{pane_dead}",
    ]);
    return r.stdout.trim() === "1";
  }, 30_000);
  ok(dead, `${s.session} never finished`);
}

/** What a running `sleep` session reads as, depending on how soon after its spawn it is asked. */
const LIVE = ["just_started", "in_progress"];

Deno.test("list shows a session whose server died as not_found (server_gone) until pruned, and says how many were lost", async () => {
  const world = await makeWorld();
  try {
    const other = `${world.base}/other`;
    Deno.mkdirSync(other);
    const lost = await spawn(world, ["--command", "sleep 120"]);
    const live = await spawn(world, ["--command", "sleep 120", "--project-root", other]);
    await world.tmux(lost.socketPath, ["kill-server"]);
    // Gone once nothing answers on its socket any more.
    ok(
      await waitFor(async () => {
        const r = await world.tmux(lost.socketPath, ["list-sessions"]);
        return r.code !== 0 && /no server|error connecting/i.test(r.stderr);
      }, 10_000),
      "the killed server still answers",
    );

    const json = await world.lisaInProcess(["session", "list", "--json"]);
    strictEqual(json.code, 0, json.stdout);
    const items = json.json!.items as Record<string, unknown>[];
    deepStrictEqual(
      items.map((i) => [i.session, i.state, i.classificationReason, i.alive, i.lost]),
      [[lost.session, "not_found", "server_gone", false, true]],
    );
    strictEqual(json.json!.lostCount, 1);
    const table = await world.lisaInProcess(["session", "list"]);
    ok(table.stdout.includes(lost.alias as string), table.stdout);
    ok(table.stdout.includes("1 session lost"), table.stdout);
    const tree = await world.lisaInProcess(["session", "tree", "--with-state", "--flat", "--json"]);
    deepStrictEqual(
      (tree.json!.rows as { session: string; state: string }[]).map((r) => [r.session, r.state]),
      [[lost.session, "not_found"]],
    );

    // Every project's servers: the live one and the lost one, also once its socket is gone.
    try {
      Deno.removeSync(lost.socketPath);
    } catch { /* tmux removed it on the way out */ }
    const all = await world.lisaInProcess(["session", "list", "--all-sockets", "--json"]);
    const rows = all.json!.items as { session: string; state: string; lost: boolean }[];
    deepStrictEqual(
      rows.map((i) => [i.session, i.lost]).sort(),
      [[lost.session, true], [live.session, false]].sort(),
    );
    strictEqual(rows.find((i) => i.lost)!.state, "not_found");
    ok(LIVE.includes(rows.find((i) => !i.lost)!.state), all.stdout);
    strictEqual(all.json!.lostCount, 1);

    // Pruned, it is gone from the list too.
    const pruned = await world.lisaInProcess(["session", "prune", "--older-than", "0s", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout);
    const after = await world.lisaInProcess(["session", "list"]);
    strictEqual(after.stdout, "no lisa sessions\n");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("prune acts on the current project's finished sessions only, every project's with --all-projects", async () => {
  const world = await makeWorld();
  try {
    const other = `${world.base}/other`;
    Deno.mkdirSync(other);
    const mine = await spawn(world, ["--command", "true"]);
    const theirs = await spawn(world, ["--command", "true", "--project-root", other]);
    await paneDead(world, mine);
    await paneDead(world, theirs);

    const here = await world.lisaInProcess(["session", "prune", "--older-than", "0s", "--json"]);
    strictEqual(here.code, 0, here.stdout);
    deepStrictEqual((here.json!.pruned as { session: string }[]).map((p) => p.session), [
      mine.session,
    ]);
    strictEqual(here.json!.allProjects, false);
    strictEqual(readIf(artifact(world, mine, "meta.json")), undefined);
    ok(readIf(artifact(world, theirs, "meta.json")) !== undefined, "another project's was pruned");

    const all = await world.lisaInProcess([
      "session",
      "prune",
      "--older-than",
      "0s",
      "--all-projects",
      "--json",
    ]);
    strictEqual(all.code, 0, all.stdout);
    deepStrictEqual((all.json!.pruned as { session: string }[]).map((p) => p.session), [
      theirs.session,
    ]);
    strictEqual(readIf(artifact(world, theirs, "meta.json")), undefined);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("prune --dry-run never says nothing to prune above a worktree it would remove", async () => {
  const world = await makeGitWorld();
  try {
    const s = await spawnWt(world, "true");
    await paneDead(world, s);
    const dry = await world.lisaInProcess(["session", "prune", "--dry-run"]);
    strictEqual(dry.code, 0, dry.stdout + dry.stderr);
    ok(!dry.stdout.includes("nothing to prune"), dry.stdout);
    ok(
      dry.stdout.includes(`worktree ${s.worktree.path} (${s.worktree.branch}) would be removed`),
      dry.stdout,
    );
    // Run for real it goes; a second dry run has nothing left to remove, and says so.
    const real = await world.lisaInProcess(["session", "prune", "--json"]);
    deepStrictEqual(
      (real.json!.worktrees as { action: string }[]).map((w) => w.action),
      ["removed"],
    );
    const again = await world.lisaInProcess(["session", "prune", "--dry-run"]);
    strictEqual(again.stdout, "nothing to prune\n");
  } finally {
    await endStray();
    await world.dispose();
  }
});
