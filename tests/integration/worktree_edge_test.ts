/**
 * Worktree sessions at the edges a careful user reaches: a caller inside a git hook (GIT_DIR
 * set), branch names git rewrites, slow hooks (timeouts), refusing hooks, an agent that leaves
 * its branch. Real git and tmux in temp dirs.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Runner, RunOptions } from "../../src/base/runner.ts";
import { resolveProject } from "../../src/core/session/project.ts";
import { createWorktree } from "../../src/core/worktree/create.ts";
import { planWorktree } from "../../src/core/worktree/worktree_plan.ts";
import { pruneWorktrees } from "../../src/core/worktree/worktree_prune.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import {
  branches,
  gitIn,
  gitWorktrees,
  makeGitWorld,
  spawnWt,
  waitCompleted,
  worktreeEntries,
  worldDeps,
} from "./worktree_helpers.ts";

/** A runner whose git calls matching `match` get a 1 s timeout (the real runner otherwise). */
function timingOut(match: (argv: readonly string[]) => boolean): Runner {
  const real = new DenoRunner(20_000);
  return {
    run(argv: readonly string[], options?: RunOptions) {
      return real.run(
        argv,
        argv[0] === "git" && match(argv) ? { ...options, timeoutMs: 1000 } : options,
      );
    },
  };
}

/** Installs `hooks` of the repository at `main` as a shell script `body`. */
function installHook(main: string, hooks: string[], body: string): void {
  for (const name of hooks) {
    const hook = `${main}/.git/hooks/${name}`;
    Deno.writeTextFileSync(hook, `#!/bin/sh\n${body}\n`);
    Deno.chmodSync(hook, 0o755);
  }
}

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

Deno.test("a --branch name git would rewrite (@{-1}, the previous branch) is refused, and no existing branch is deleted", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    await gitIn(world, main, ["checkout", "-q", "-b", "previous"]);
    await gitIn(world, main, ["checkout", "-q", "main"]);
    for (const branch of ["@{-1}", "@{-1}-x"]) {
      const r = await world.lisaInProcess([
        "session",
        "spawn",
        "--worktree",
        "--branch",
        branch,
        "--command",
        "true",
        "--json",
      ]);
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, "invalid_branch_name", r.stdout);
      deepStrictEqual(await branches(world), ["main", "previous"]);
      deepStrictEqual(await gitWorktrees(world), [main]);
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("a worktree add that times out (a slow post-checkout hook) leaves no worktree, branch or record", async () => {
  const world = await makeGitWorld();
  try {
    installHook(world.projectRoot, ["post-checkout"], "sleep 3");
    const runner = timingOut((argv) => argv.includes("worktree") && argv.includes("add"));
    const r = await world.lisaInProcess(
      ["session", "spawn", "--worktree", "--command", "true", "--json"],
      { runner },
    );
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "command_timeout", r.stdout);
    deepStrictEqual(await gitWorktrees(world), [world.projectRoot]);
    deepStrictEqual(await branches(world), ["main"]);
    deepStrictEqual(worktreeEntries(world).filter((e) => e.includes("/")), []);
  } finally {
    await world.dispose();
  }
});

Deno.test("merge refuses a worktree its agent switched to another branch (its work would not be merged)", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "git checkout -q -b elsewhere && echo work > g.txt");
    await waitCompleted(world, s.session);
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    const r = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "merge_refused", r.stdout);
    ok(String(r.json?.error).includes("elsewhere"), r.stdout);
    // Nothing was committed anywhere; the agent's file is still pending in its worktree.
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
    strictEqual(
      (await gitIn(world, s.worktree.path, ["rev-parse", "HEAD"])).trim(),
      s.worktree.baseCommit,
    );
    strictEqual(await gitIn(world, s.worktree.path, ["status", "--porcelain"]), "?? g.txt\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("a squash merge whose commit a pre-commit hook refuses leaves the main checkout as it was", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "echo agent > h.txt && git add h.txt && git commit -q -m h");
    await waitCompleted(world, s.session);
    installHook(main, ["pre-commit"], "echo 'hook says no' >&2; exit 1");
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    const r = await world.lisaInProcess(["session", "merge", s.session, "--squash", "--json"]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "merge_failed", r.stdout);
    ok(String(r.json?.error).includes("hook says no"), r.stdout);
    strictEqual(r.json?.restored, true, r.stdout);
    strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
  } finally {
    await world.dispose();
  }
});

Deno.test("a merge that times out (a slow merge hook) leaves the main checkout as it was", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "echo agent > h.txt && git add h.txt && git commit -q -m h");
    await waitCompleted(world, s.session);
    installHook(main, ["pre-merge-commit", "pre-commit"], "sleep 3");
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    for (const squash of [[], ["--squash"]]) {
      // git is killed while the hook of its commit runs: the merge is half done. (Only the
      // merge and the commit: the `merge --abort` that undoes it keeps the usual timeout.)
      const runner = timingOut((argv) =>
        argv[2] === main && !argv.includes("--abort") &&
        (argv[3] === "merge" || argv[3] === "commit")
      );
      const r = await world.lisaInProcess(
        ["session", "merge", s.session, ...squash, "--json"],
        { runner },
      );
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, "command_timeout", r.stdout);
      strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");
      strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
      const merging = await new Deno.Command("git", {
        args: ["-C", main, "rev-parse", "-q", "--verify", "MERGE_HEAD"],
        env: world.env,
        clearEnv: true,
        stdout: "null",
        stderr: "null",
      }).output();
      strictEqual(merging.success, false, "no merge left in progress");
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("diff's patch applies with git apply to the base commit, binary files included", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    Deno.writeFileSync(`${main}/bin.dat`, new Uint8Array([97, 0, 98]));
    await gitIn(world, main, ["add", "bin.dat"]);
    await gitIn(world, main, ["commit", "-q", "-m", "binary"]);
    const s = await spawnWt(
      world,
      "printf 'c\\0d' > bin.dat && printf '\\0\\0' > new.bin && echo more >> f.txt",
    );
    await waitCompleted(world, s.session);
    const r = await world.lisaInProcess(["session", "diff", s.session]);
    strictEqual(r.code, 0, r.stderr);
    const copy = `${world.base}/copy`;
    await gitIn(world, main, ["worktree", "add", "-q", "--detach", copy, s.worktree.baseCommit]);
    Deno.writeTextFileSync(`${world.base}/p.diff`, r.stdout);
    await gitIn(world, copy, ["apply", `${world.base}/p.diff`]);
    deepStrictEqual([...Deno.readFileSync(`${copy}/bin.dat`)], [99, 0, 100]);
    deepStrictEqual([...Deno.readFileSync(`${copy}/new.bin`)], [0, 0]);
    strictEqual(Deno.readTextFileSync(`${copy}/f.txt`), "line\nmore\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("diff --stat names non-ASCII paths as the person named them, and the patch with them still applies", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "echo hi > 'grüße ü.txt' && echo more >> f.txt");
    await waitCompleted(world, s.session);
    const stat = await world.lisaInProcess(["session", "diff", s.session, "--stat"]);
    strictEqual(stat.code, 0, stat.stderr);
    ok(stat.stdout.includes(" grüße ü.txt "), stat.stdout);
    ok(!stat.stdout.includes("\\303"), stat.stdout);
    const json = await world.lisaInProcess(["session", "diff", s.session, "--stat", "--json"]);
    ok(String(json.json?.stat).includes(" grüße ü.txt "), json.stdout);
    const patch = await world.lisaInProcess(["session", "diff", s.session]);
    const copy = `${world.base}/copy`;
    await gitIn(world, main, ["worktree", "add", "-q", "--detach", copy, s.worktree.baseCommit]);
    Deno.writeTextFileSync(`${world.base}/p.diff`, patch.stdout);
    await gitIn(world, copy, ["apply", `${world.base}/p.diff`]);
    strictEqual(Deno.readTextFileSync(`${copy}/grüße ü.txt`), "hi\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("prune keeps a worktree whose agent committed on a detached HEAD (removing it would lose those commits)", async () => {
  const world = await makeGitWorld();
  try {
    const s = await spawnWt(
      world,
      "git checkout -q --detach && echo d > d.txt && git add d.txt && git commit -q -m detached",
    );
    await waitCompleted(world, s.session);
    await world.lisaInProcess(["session", "kill", "--session", s.session]);
    const [kept] = await pruneWorktrees(worldDeps(world));
    strictEqual(kept.action, "kept", JSON.stringify(kept));
    const reason = kept.reasons.find((r) => r.kind === "unmerged_commits");
    deepStrictEqual(
      reason?.kind === "unmerged_commits" ? reason.commits.map((c) => c.subject) : [],
      ["detached"],
    );
    strictEqual(Deno.readTextFileSync(`${s.worktree.path}/d.txt`), "d\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("merge names an untracked file of the main checkout where the branch adds a directory, and one where it adds a file over an untracked directory", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "mkdir a && echo b > a/b.txt && echo x > x");
    await waitCompleted(world, s.session);
    Deno.writeTextFileSync(`${main}/a`, "mine\n");
    Deno.mkdirSync(`${main}/x`);
    Deno.writeTextFileSync(`${main}/x/y.txt`, "mine too\n");
    const r = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "merge_dirty_checkout", r.stdout);
    deepStrictEqual(r.json?.files, ["a", "x/y.txt"]);
    strictEqual(Deno.readTextFileSync(`${main}/a`), "mine\n");
    strictEqual(Deno.readTextFileSync(`${main}/x/y.txt`), "mine too\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("two spawns of one session name racing: the second's worktree creation fails without touching the first's worktree", async () => {
  const world = await makeGitWorld();
  try {
    const deps = worldDeps(world);
    const project = resolveProject(deps, world.projectRoot);
    const session = "lisa-twice";
    // Both planned before either creates (the race): each sees a free path.
    const first = await planWorktree(deps, { project, session, branch: "one" });
    const second = await planWorktree(deps, { project, session, branch: "two" });
    const base = {
      session,
      projectRoot: project.root,
      projectHash: project.hash,
      socketPath: project.socketPath,
      createdAt: new Date().toISOString(),
    };
    await createWorktree(deps, project.runtimeDir, first, base);
    Deno.writeTextFileSync(`${first.info.path}/work.txt`, "the first agent's work\n");
    const error = await createWorktree(deps, project.runtimeDir, second, base).then(
      () => undefined,
      (e) => e,
    );
    strictEqual(error?.code, "worktree_exists", String(error));
    strictEqual(
      Deno.readTextFileSync(`${first.info.path}/work.txt`),
      "the first agent's work\n",
    );
    deepStrictEqual(await gitWorktrees(world), [world.projectRoot, first.info.path]);
    deepStrictEqual(await branches(world), ["main", "one"]);
  } finally {
    await world.dispose();
  }
});

Deno.test("LISA_WORKTREE_DIR leading into the repository through a symlink is refused (git status of the main checkout stays clean)", async () => {
  const world = await makeGitWorld();
  try {
    const link = `${world.base}/link`;
    Deno.symlinkSync(world.projectRoot, link);
    const r = await world.lisaInProcess(
      ["session", "spawn", "--worktree", "--command", "true", "--json"],
      { env: { LISA_WORKTREE_DIR: `${link}/worktrees` } },
    );
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "worktree_dir_inside_repo", r.stdout);
    strictEqual(await gitIn(world, world.projectRoot, ["status", "--porcelain"]), "");
    deepStrictEqual(await branches(world), ["main"]);
  } finally {
    await world.dispose();
  }
});

Deno.test("diff does not rewrite the agent's index (git status takes no optional index.lock under a working agent)", async () => {
  const world = await makeGitWorld();
  try {
    // The file's content is unchanged but its stat is not: a plain `git status` would refresh
    // the worktree's index, taking its index.lock while the agent may be running git.
    const s = await spawnWt(world, "sleep 1.1 && touch f.txt");
    await waitCompleted(world, s.session);
    const index = (await gitIn(world, s.worktree.path, [
      "rev-parse",
      "--path-format=absolute",
      "--git-path",
      "index",
    ])).trim();
    const before = Deno.readFileSync(index);
    const r = await world.lisaInProcess(["session", "diff", s.session, "--json"]);
    strictEqual(r.code, 0, r.stdout);
    deepStrictEqual(r.json?.files, []);
    deepStrictEqual(Deno.readFileSync(index), before);
  } finally {
    await world.dispose();
  }
});

Deno.test("pruning every project goes on past a worktree whose repository was deleted, and keeps that worktree (its files are all that is left)", async () => {
  const world = await makeGitWorld();
  try {
    const gone = `${world.base}/gone`;
    Deno.mkdirSync(gone);
    await gitIn(world, gone, ["init", "-q", "-b", "main"]);
    Deno.writeTextFileSync(`${gone}/g.txt`, "g\n");
    await gitIn(world, gone, ["add", "g.txt"]);
    await gitIn(world, gone, ["commit", "-q", "-m", "g"]);
    const lost = await spawnWt(world, "echo only-copy > notes.txt", ["--project-root", gone]);
    const done = await spawnWt(world, "true");
    await waitCompleted(world, lost.session);
    await waitCompleted(world, done.session);
    await world.lisaInProcess(["session", "kill-all", "--json"]);
    Deno.removeSync(gone, { recursive: true });

    const results = await pruneWorktrees(worldDeps(world), { allProjects: true });
    const byName = new Map(results.map((r) => [r.session, r]));
    strictEqual(byName.get(done.session)?.action, "removed", JSON.stringify(results));
    strictEqual(byName.get(lost.session)?.action, "kept", JSON.stringify(results));
    strictEqual(Deno.readTextFileSync(`${lost.worktree.path}/notes.txt`), "only-copy\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("diff sees a same-size edit made in the same second the worktree's index was written (racy git)", async () => {
  const world = await makeGitWorld();
  try {
    const s = await spawnWt(world, "true");
    await waitCompleted(world, s.session);
    const wt = s.worktree.path;
    // The edit lands in the index's own second: only git's racy check (entry mtime not older
    // than the index file) tells it from a clean file. ctime is left out of the stat check so
    // the test does not depend on when the edit ran.
    await gitIn(world, wt, ["config", "core.trustctime", "false"]);
    const index = (await gitIn(world, wt, [
      "rev-parse",
      "--path-format=absolute",
      "--git-path",
      "index",
    ])).trim();
    // `touch -r` copies timestamps to the nanosecond (Deno's utime takes milliseconds).
    const ref = `${world.base}/stamp`;
    const touch = async (...args: string[]) =>
      strictEqual((await new Deno.Command("touch", { args }).output()).success, true);
    await touch("-r", `${wt}/f.txt`, ref);
    Deno.writeTextFileSync(`${wt}/f.txt`, "LINE\n"); // "line\n": same size
    await touch("-r", ref, `${wt}/f.txt`);
    await touch("-r", ref, index);
    // Past the index's second, a fresh copy of the index would no longer look racy to git.
    const past = Deno.statSync(ref).mtime!.getTime() + 1100 - Date.now();
    if (past > 0) await new Promise((r) => setTimeout(r, past));
    strictEqual(
      await gitIn(world, wt, ["--no-optional-locks", "status", "--porcelain"]),
      " M f.txt\n",
    );
    const r = await world.lisaInProcess(["session", "diff", s.session, "--json"]);
    strictEqual(r.code, 0, r.stdout);
    deepStrictEqual(
      (r.json?.files as { path: string }[]).map((f) => f.path),
      ["f.txt"],
      r.stdout,
    );
  } finally {
    await world.dispose();
  }
});

Deno.test("merge refuses a worktree left in the middle of a conflicted merge (it would commit the conflict markers into main)", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "echo agent > f.txt && git commit -q -a -m agent");
    await waitCompleted(world, s.session);
    Deno.writeTextFileSync(`${main}/f.txt`, "main\n");
    await gitIn(world, main, ["commit", "-q", "-a", "-m", "main"]);
    // The agent (or a person) merged main into the worktree and stopped at the conflict.
    const conflicted = await new Deno.Command("git", {
      args: ["-C", s.worktree.path, "merge", "-q", "main"],
      env: world.env,
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).output();
    strictEqual(conflicted.success, false);
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    const r = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "merge_refused", r.stdout);
    ok(String(r.json?.error).includes("f.txt"), r.stdout);
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "main\n");
    // The worktree is left as it was: still mid-merge, nothing committed.
    ok(Deno.readTextFileSync(`${s.worktree.path}/f.txt`).includes("<<<<<<<"));
    strictEqual(
      (await gitIn(world, s.worktree.path, ["ls-files", "-u"])).trim() !== "",
      true,
    );
  } finally {
    await world.dispose();
  }
});

Deno.test("a pre-commit hook refusing the commit of the worktree's pending work: merge_failed, the worktree's index as the agent left it, main untouched", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    // One change staged by the agent, one not, one untracked file.
    const s = await spawnWt(
      world,
      "echo staged > f.txt && git add f.txt && echo more >> f.txt && echo new > n.txt",
    );
    await waitCompleted(world, s.session);
    installHook(main, ["pre-commit"], "echo 'lint says no' >&2; exit 1");
    const status = () => gitIn(world, s.worktree.path, ["status", "--porcelain"]);
    const before = await status();
    strictEqual(before, "MM f.txt\n?? n.txt\n");
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    const r = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "merge_failed", r.stdout);
    ok(String(r.json?.error).includes("lint says no"), r.stdout);
    strictEqual(await status(), before);
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
    strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");
  } finally {
    await world.dispose();
  }
});
