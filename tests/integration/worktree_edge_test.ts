/**
 * Worktree sessions at the edges a careful user reaches: a caller inside a git hook (GIT_DIR
 * set), branch names git rewrites, slow hooks (timeouts), refusing hooks, an agent that leaves
 * its branch. Real git and tmux in temp dirs.
 */
import { strictEqual } from "node:assert/strict";
import { gitIn, makeGitWorld, waitCompleted } from "./worktree_helpers.ts";

Deno.test("a caller's GIT_DIR and GIT_INDEX_FILE (lisa run from a git hook) do not reach the agent in its worktree", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const r = await world.lisaInProcess([
      "session",
      "spawn",
      "--worktree",
      "--command",
      "echo x > y.txt && git add y.txt && git rev-parse --show-toplevel > top.txt",
      "--json",
    ], { env: { GIT_DIR: `${main}/.git`, GIT_INDEX_FILE: `${main}/.git/index` } });
    strictEqual(r.code, 0, r.stdout);
    const wt = r.json?.worktree as { path: string };
    await waitCompleted(world, String(r.json?.session));
    strictEqual(Deno.readTextFileSync(`${wt.path}/top.txt`), `${wt.path}\n`);
    // The agent's `git add` went to its own index, not the main checkout's.
    strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");
    strictEqual(await gitIn(world, wt.path, ["status", "--porcelain"]), "A  y.txt\n?? top.txt\n");
  } finally {
    await world.dispose();
  }
});
