/**
 * Issue 20 §4 against real tmux: `list` and `tree --with-state` agree on a session whose server
 * died, and `prune` acts on the current project only (unless `--all-projects`) and says what it
 * would do.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn } from "./lifecycle_helpers.ts";

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
