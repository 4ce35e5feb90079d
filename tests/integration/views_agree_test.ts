/**
 * Issue 20 §4 against real tmux: `list` and `tree --with-state` agree on a session whose server
 * died, and `prune` acts on the current project only (unless `--all-projects`) and says what it
 * would do.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn, waitDone } from "./lifecycle_helpers.ts";
import { makeGitWorld, spawnWt, waitCompleted } from "./worktree_helpers.ts";

Deno.test("list shows a session whose server died as not_found (server_gone) until pruned, and says how many were lost", async () => {
  const world = await makeWorld();
  try {
    const other = `${world.base}/other`;
    Deno.mkdirSync(other);
    const lost = await spawn(world, ["--command", "sleep 120"]);
    const live = await spawn(world, ["--command", "sleep 120", "--project-root", other]);
    await world.tmux(lost.socketPath, ["kill-server"]);

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
    deepStrictEqual(
      (all.json!.items as { session: string; state: string }[])
        .map((i) => [i.session, i.state]).sort(),
      [[lost.session, "not_found"], [live.session, "in_progress"]].sort(),
    );
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
    await waitDone(world, mine);
    await waitDone(world, theirs);

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
    await waitCompleted(world, s.session);
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
