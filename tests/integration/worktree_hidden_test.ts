/**
 * merge and a person's files that `git status` does not show (issue 20 §7, issue 21 "never lose
 * a person's checkout"): an ignored file where the agent's branch adds one (git's merge
 * overwrites ignored files without a word), and a tracked file marked assume-unchanged or
 * skip-worktree holding local edits (git refuses the merge; lisa's undo then wrote HEAD's
 * version over the edits and said the checkout was as it was). Each is merge_dirty_checkout,
 * naming the file, with nothing changed.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Runner, RunOptions, RunResult } from "../../src/base/runner.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { gitIn, makeGitWorld, spawnWt, waitCompleted } from "./worktree_helpers.ts";

Deno.test("merge refuses to overwrite an ignored file of the main checkout where the branch adds a file, or needs a directory", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    Deno.writeTextFileSync(`${main}/.gitignore`, "secret.env\nout\n");
    await gitIn(world, main, ["add", ".gitignore"]);
    await gitIn(world, main, ["commit", "-q", "-m", "ignore"]);
    const s = await spawnWt(
      world,
      "echo agent > secret.env && mkdir out && echo o > out/x.txt && " +
        "git add -f secret.env out/x.txt && git commit -q -m 'agent adds ignored paths'",
    );
    await waitCompleted(world, s.session);
    Deno.writeTextFileSync(`${main}/secret.env`, "MY SECRET\n");
    Deno.writeTextFileSync(`${main}/out`, "my build log\n");
    const head = await gitIn(world, main, ["rev-parse", "HEAD"]);
    const r = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "merge_dirty_checkout", r.stdout);
    deepStrictEqual(r.json?.files, ["out", "secret.env"]);
    strictEqual(Deno.readTextFileSync(`${main}/secret.env`), "MY SECRET\n");
    strictEqual(Deno.readTextFileSync(`${main}/out`), "my build log\n");
    strictEqual(await gitIn(world, main, ["rev-parse", "HEAD"]), head);
    // Moved out of the way, the merge goes through.
    Deno.removeSync(`${main}/secret.env`);
    Deno.removeSync(`${main}/out`);
    const again = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(again.code, 0, again.stdout);
    strictEqual(Deno.readTextFileSync(`${main}/secret.env`), "agent\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("merge refuses files with local edits hidden from git status (assume-unchanged, skip-worktree) and leaves the edits", async () => {
  for (const flag of ["--assume-unchanged", "--skip-worktree"]) {
    const world = await makeGitWorld();
    const main = world.projectRoot;
    try {
      Deno.writeTextFileSync(`${main}/cfg.txt`, "cfg=base\n");
      await gitIn(world, main, ["add", "cfg.txt"]);
      await gitIn(world, main, ["commit", "-q", "-m", "cfg"]);
      const s = await spawnWt(world, "echo cfg=agent > cfg.txt && git commit -q -a -m agent");
      await waitCompleted(world, s.session);
      await gitIn(world, main, ["update-index", flag, "cfg.txt"]);
      Deno.writeTextFileSync(`${main}/cfg.txt`, "cfg=MY LOCAL\n");
      strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "", "status hides it");
      const r = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
      strictEqual(r.code, 1, `${flag}: ${r.stdout}`);
      strictEqual(r.json?.errorCode, "merge_dirty_checkout", `${flag}: ${r.stdout}`);
      deepStrictEqual(r.json?.files, ["cfg.txt"]);
      strictEqual(Deno.readTextFileSync(`${main}/cfg.txt`), "cfg=MY LOCAL\n", flag);
    } finally {
      await world.dispose();
    }
  }
});

Deno.test("a person's edit made while merge prepares (after its checks, before git's merge) survives git's refusal", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "echo agent > f.txt && git commit -q -a -m agent");
    await waitCompleted(world, s.session);
    // The edit lands right before `git merge` runs: git refuses ("local changes would be
    // overwritten"), having written nothing, and lisa's undo used to write HEAD's f.txt over it.
    const real = new DenoRunner(20_000);
    let edited = false;
    const runner: Runner = {
      run(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
        if (!edited && argv.includes("merge") && argv.includes("--no-ff")) {
          edited = true;
          Deno.writeTextFileSync(`${main}/f.txt`, "typed meanwhile\n");
        }
        return real.run(argv, options);
      },
    };
    const r = await world.lisaInProcess(["session", "merge", s.session, "--json"], { runner });
    ok(edited, "git merge never ran");
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "merge_failed", r.stdout);
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "typed meanwhile\n");
    // The answer names the file, and says it was kept rather than that the checkout is broken.
    deepStrictEqual(r.json?.kept, ["f.txt"], r.stdout);
    ok(/would be overwritten by merge: f\.txt/.test(String(r.json?.error)), r.stdout);
  } finally {
    await world.dispose();
  }
});
