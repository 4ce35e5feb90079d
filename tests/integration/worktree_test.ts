/**
 * `spawn --worktree`, `diff`, `merge`, kill and the prune rule against real git repositories in
 * temp dirs and real tmux, with `--command` agents that edit files.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Runner, RunOptions } from "../../src/base/runner.ts";
import { pruneWorktrees } from "../../src/core/worktree/worktree_prune.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { waitFor } from "../helpers/world.ts";
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

Deno.test("two worktree agents edit one file: diff shows each, the first merges, the second conflicts and leaves main clean, prune keeps the unmerged and removes the merged", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const one = await spawnWt(
      world,
      "echo one > f.txt && git add f.txt && git commit -q -m 'agent one' && echo new > n.txt",
    );
    const two = await spawnWt(world, "echo two > f.txt");
    await waitCompleted(world, one.session);
    await waitCompleted(world, two.session);

    // Outside the repository, on their own branches, from HEAD; main shows nothing new.
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    for (const s of [one, two]) {
      ok(!s.worktree.path.startsWith(`${main}/`), s.worktree.path);
      strictEqual(s.worktree.repoRoot, main);
      strictEqual(s.worktree.base, "HEAD");
      strictEqual(s.worktree.baseCommit, head);
      ok(s.worktree.branch.startsWith("lisa/"), s.worktree.branch);
      const status = await world.lisaInProcess([
        "session",
        "status",
        "--session",
        s.session,
        "--json",
      ]);
      deepStrictEqual(status.json?.worktree, s.worktree);
    }
    strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "line\n");
    const listed = await world.lisaInProcess(["session", "list", "--json"]);
    deepStrictEqual(
      // `sessions` are the names, `items` the rows (the older Go lisa's list shape).
      [...(listed.json?.sessions as string[])].sort(),
      [one.session, two.session].sort(),
    );

    // diff: each one's change, commits plus uncommitted and untracked files.
    const d1 = await world.lisaInProcess(["session", "diff", one.session, "--json"]);
    strictEqual(d1.code, 0, d1.stdout);
    deepStrictEqual((d1.json?.commits as { subject: string }[]).map((c) => c.subject), [
      "agent one",
    ]);
    deepStrictEqual(d1.json?.untracked, ["n.txt"]);
    deepStrictEqual(d1.json?.uncommitted, []);
    deepStrictEqual(
      (d1.json?.files as { path: string; status: string }[]).map((f) => [f.path, f.status]),
      [["f.txt", "modified"], ["n.txt", "added"]],
    );
    ok(String(d1.json?.patch).includes("+one"), String(d1.json?.patch));
    ok(String(d1.json?.patch).includes("+new"));
    const d2 = await world.lisaInProcess(["session", "diff", "--session", two.session]);
    strictEqual(d2.code, 0, d2.stderr);
    ok(d2.stdout.includes("-line\n+two"), d2.stdout);
    ok(!d2.stdout.includes("+one"));
    const stat = await world.lisaInProcess(["session", "diff", two.session, "--stat"]);
    ok(stat.stdout.includes("f.txt | 2 +-"), stat.stdout);
    ok(stat.stdout.includes("pending   1 uncommitted, 0 untracked"), stat.stdout);
    // diff touched neither the worktree's index nor its files.
    strictEqual(
      await gitIn(world, two.worktree.path, ["status", "--porcelain"]),
      " M f.txt\n",
    );

    // merge of the first: pending work committed naming the session, then merged.
    const m1 = await world.lisaInProcess(["session", "merge", one.session, "--json"]);
    strictEqual(m1.code, 0, m1.stdout);
    strictEqual(m1.json?.into, "main");
    ok(m1.json?.pendingCommit, "n.txt was committed first");
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "one\n");
    strictEqual(Deno.readTextFileSync(`${main}/n.txt`), "new\n");
    const log = await gitIn(world, main, ["log", "--format=%s", "-3"]);
    ok(log.includes(`Merge lisa session ${one.session}`), log);
    ok(log.includes(`lisa: uncommitted work of session ${one.session}`), log);
    strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");

    // merge of the second: a conflict, aborted; main exactly as it was.
    const before = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    const m2 = await world.lisaInProcess(["session", "merge", two.session, "--json"]);
    strictEqual(m2.code, 2, m2.stdout);
    strictEqual(m2.json?.errorCode, "merge_conflict");
    deepStrictEqual(m2.json?.conflicts, ["f.txt"]);
    strictEqual(m2.json?.restored, true);
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), before);
    strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "one\n");
    ok(!(await exists(`${main}/.git/MERGE_HEAD`)));
    // The same with --squash (no MERGE_HEAD to abort: reset --merge), and in human form.
    const human = await world.lisaInProcess(["session", "merge", two.session, "--squash"]);
    strictEqual(human.code, 2);
    ok(human.stderr.includes("conflicts in f.txt"), human.stderr);
    ok(human.stderr.includes("as it was"), human.stderr);
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), before);
    strictEqual(await gitIn(world, main, ["status", "--porcelain"]), "");

    // Both outcomes are in the sessions' event logs.
    ok(eventReasons(world.runtimeDir, one.session).includes("worktree_merged"));
    ok(eventReasons(world.runtimeDir, two.session).includes("worktree_merge_conflict"));

    // kill keeps both worktrees and branches, and says so.
    const k1 = await world.lisaInProcess(["session", "kill", "--session", one.session, "--json"]);
    strictEqual(k1.code, 0, k1.stdout);
    deepStrictEqual(k1.json?.worktrees, [{
      session: one.session,
      path: one.worktree.path,
      branch: one.worktree.branch,
    }]);
    const k2 = await world.lisaInProcess(["session", "kill", "--session", two.session]);
    ok(k2.stdout.includes(`kept worktree ${two.worktree.path}`), k2.stdout);
    ok(await exists(one.worktree.path));
    ok(await exists(two.worktree.path));
    deepStrictEqual(
      await branches(world),
      ["main", one.worktree.branch, two.worktree.branch].sort(),
    );
    // After kill (meta gone) the worktree is still found.
    const after = await world.lisaInProcess(["session", "diff", two.session, "--json"]);
    strictEqual(after.code, 0, after.stdout);
    strictEqual((after.json?.commits as unknown[]).length, 1, "the merge's pending commit");

    // `session prune`: the merged one goes (worktree, branch, git's bookkeeping), the unmerged
    // one stays.
    type Pruned = { session: string; action: string; branchDeleted: boolean; discarded: boolean };
    type Reasoned = Pruned & { reasons: { kind: string }[] };
    const prune = async (...extra: string[]) => {
      const r = await world.lisaInProcess(["session", "prune", "--json", ...extra]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      return { rows: r.json?.worktrees as Reasoned[], stderr: r.stderr };
    };
    const dry = (await prune("--dry-run")).rows;
    deepStrictEqual(
      dry.map((r) => [r.session, r.action]).sort(),
      [
        [one.session, "would_remove"],
        [two.session, "kept"],
      ].sort(),
    );
    ok(await exists(one.worktree.path), "a dry run changes nothing");
    const pruned = (await prune()).rows;
    const byName = new Map(pruned.map((r) => [r.session, r]));
    strictEqual(byName.get(one.session)?.action, "removed");
    strictEqual(byName.get(one.session)?.branchDeleted, true);
    strictEqual(byName.get(two.session)?.action, "kept");
    deepStrictEqual(byName.get(two.session)?.reasons.map((r) => r.kind), ["unmerged_commits"]);
    ok(!(await exists(one.worktree.path)));
    ok(await exists(two.worktree.path));
    deepStrictEqual(await gitWorktrees(world), [main, two.worktree.path]);
    deepStrictEqual(await branches(world), ["main", two.worktree.branch].sort());

    // --force discards it, and says so loudly on stderr.
    const forcedRun = await prune("--force");
    const forced = forcedRun.rows;
    strictEqual(forced.length, 1);
    strictEqual(forced[0].action, "removed");
    strictEqual(forced[0].discarded, true);
    deepStrictEqual(forced[0].reasons.map((r) => r.kind), ["unmerged_commits"]);
    ok(forcedRun.stderr.includes("DISCARDED"), forcedRun.stderr);
    deepStrictEqual(await gitWorktrees(world), [main]);
    deepStrictEqual(await branches(world), ["main"]);
    deepStrictEqual(worktreeEntries(world), [one.worktree.path.split("/").at(-2)!]);
    const gone = await world.lisaInProcess(["session", "diff", two.session, "--json"]);
    strictEqual(gone.json?.errorCode, "worktree_not_found");
  } finally {
    await world.dispose();
  }
});

Deno.test("five parallel spawn --worktree calls into one repository all succeed", async () => {
  const world = await makeGitWorld();
  try {
    const calls = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        world.lisa([
          "session",
          "spawn",
          "--worktree",
          "--tag",
          `p${n}`,
          "--command",
          `echo ${n} > f.txt`,
          "--json",
        ])
      ),
    );
    for (const c of calls) strictEqual(c.code, 0, `${c.stdout}${c.stderr}`);
    const paths = calls.map((c) => (c.json?.worktree as { path: string }).path);
    strictEqual(new Set(paths).size, 5);
    deepStrictEqual((await gitWorktrees(world)).sort(), [world.projectRoot, ...paths].sort());
    strictEqual((await branches(world)).length, 6);
    for (const [i, c] of calls.entries()) {
      await waitCompleted(world, String(c.json?.session));
      strictEqual(Deno.readTextFileSync(`${paths[i]}/f.txt`), `${i + 1}\n`);
    }
    strictEqual(await gitIn(world, world.projectRoot, ["status", "--porcelain"]), "");
  } finally {
    await world.dispose();
  }
});

Deno.test("not a repository, an unknown --base, an existing or invalid --branch: clear errors, nothing created", async () => {
  const plain = await makeGitWorld({ init: false });
  try {
    const r = await plain.lisaInProcess([
      "session",
      "spawn",
      "--worktree",
      "--command",
      "true",
      "--json",
    ]);
    strictEqual(r.code, 1);
    strictEqual(r.json?.errorCode, "not_a_git_repo");
    ok(String(r.json?.error).includes(plain.projectRoot), String(r.json?.error));
    deepStrictEqual(worktreeEntries(plain), []);
    deepStrictEqual((await plain.lisaInProcess(["session", "list", "--json"])).json?.sessions, []);
  } finally {
    await plain.dispose();
  }

  const world = await makeGitWorld();
  try {
    await gitIn(world, world.projectRoot, ["branch", "taken"]);
    const cases: [string[], string][] = [
      [["--base", "no-such-ref"], "base_not_found"],
      [["--branch", "taken"], "branch_exists"],
      [["--branch", "bad..name"], "invalid_branch_name"],
    ];
    for (const [extra, code] of cases) {
      const r = await world.lisaInProcess([
        "session",
        "spawn",
        "--worktree",
        "--command",
        "true",
        ...extra,
        "--json",
      ]);
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, code, r.stdout);
    }
    const noFlag = await world.lisaInProcess([
      "session",
      "spawn",
      "--branch",
      "x",
      "--command",
      "true",
      "--json",
    ]);
    strictEqual(noFlag.json?.errorCode, "missing_argument");
    deepStrictEqual(worktreeEntries(world), []);
    deepStrictEqual(await gitWorktrees(world), [world.projectRoot]);
    deepStrictEqual(await branches(world), ["main", "taken"]);
    deepStrictEqual((await world.lisaInProcess(["session", "list", "--json"])).json?.sessions, []);

    // A dry run checks the same and reports the worktree it would create, creating nothing.
    const dry = await world.lisaInProcess([
      "session",
      "spawn",
      "--worktree",
      "--base",
      "main",
      "--command",
      "true",
      "--dry-run",
      "--json",
    ]);
    strictEqual(dry.code, 0, dry.stdout);
    strictEqual((dry.json?.worktree as { base: string }).base, "main");
    deepStrictEqual(worktreeEntries(world), []);
    deepStrictEqual(await branches(world), ["main", "taken"]);

    // A session of the same name (and directory) as a kept worktree: refused before anything.
    const first = await spawnWt(world, "true", ["--session", "lisa-same", "--branch", "same-1"]);
    await waitCompleted(world, first.session);
    await world.lisaInProcess(["session", "kill", "--session", "lisa-same"]);
    const again = await world.lisaInProcess([
      "session",
      "spawn",
      "--worktree",
      "--session",
      "lisa-same",
      "--branch",
      "same-2",
      "--command",
      "true",
      "--json",
    ]);
    strictEqual(again.json?.errorCode, "worktree_exists", again.stdout);
    deepStrictEqual(await branches(world), ["main", "same-1", "taken"]);

    // A default branch name that is taken (a kept worktree of an alias used again) gets a suffix.
    await gitIn(world, world.projectRoot, ["branch", "lisa/dflt"]);
    const suffixed = await spawnWt(world, "true", ["--session", "lisa-dflt"]);
    strictEqual(suffixed.worktree.branch, "lisa/dflt-2");
  } finally {
    await world.dispose();
  }
});

Deno.test("merge refuses while the agent works (--force merges), and refuses a main checkout whose local changes it would touch", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const busy = await spawnWt(world, "echo busy > g.txt; sleep 60");
    await waitFor(() => exists(`${busy.worktree.path}/g.txt`), 10_000);
    const refused = await world.lisaInProcess(["session", "merge", busy.session, "--json"]);
    strictEqual(refused.code, 1, refused.stdout);
    strictEqual(refused.json?.errorCode, "session_busy");
    ok(!(await exists(`${main}/g.txt`)));
    const forced = await world.lisaInProcess([
      "session",
      "merge",
      busy.session,
      "--force",
      "--json",
    ]);
    strictEqual(forced.code, 0, forced.stdout);
    strictEqual(Deno.readTextFileSync(`${main}/g.txt`), "busy\n");

    const edit = await spawnWt(world, "echo agent > f.txt");
    await waitCompleted(world, edit.session);
    Deno.writeTextFileSync(`${main}/f.txt`, "mine\n");
    Deno.writeTextFileSync(`${main}/other.txt`, "untracked, untouched\n");
    const dirty = await world.lisaInProcess(["session", "merge", edit.session, "--json"]);
    strictEqual(dirty.code, 1, dirty.stdout);
    strictEqual(dirty.json?.errorCode, "merge_dirty_checkout");
    deepStrictEqual(dirty.json?.files, ["f.txt"]);
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "mine\n");
    // Local changes the merge does not touch do not stand in its way, and survive it.
    await gitIn(world, main, ["checkout", "--", "f.txt"]);
    const merged = await world.lisaInProcess([
      "session",
      "merge",
      edit.session,
      "--squash",
      "--message",
      "take the agent's f",
      "--json",
    ]);
    strictEqual(merged.code, 0, merged.stdout);
    strictEqual(merged.json?.squash, true);
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "agent\n");
    strictEqual(Deno.readTextFileSync(`${main}/other.txt`), "untracked, untouched\n");
    strictEqual(
      (await gitIn(world, main, ["log", "-1", "--format=%s"])).trim(),
      "take the agent's f",
    );
    strictEqual((await gitIn(world, main, ["rev-list", "--count", "HEAD"])).trim(), "4");

    // The squash-merged branch counts as merged; the live session is never pruned.
    await world.lisaInProcess(["session", "kill", "--session", edit.session]);
    const pruned = await pruneWorktrees(worldDeps(world));
    const byName = new Map(pruned.map((r) => [r.session, r]));
    strictEqual(byName.get(edit.session)?.action, "removed");
    strictEqual(byName.get(busy.session)?.action, "kept");
    deepStrictEqual(byName.get(busy.session)?.reasons.map((r) => r.kind), ["session_running"]);
    ok(await exists(busy.worktree.path));
  } finally {
    await world.dispose();
  }
});

Deno.test("prune keeps a finished session's worktree with uncommitted or untracked files and lists them", async () => {
  const world = await makeGitWorld();
  try {
    const s = await spawnWt(world, "echo scratch > notes.txt && echo x >> f.txt");
    await waitCompleted(world, s.session);
    await world.lisaInProcess(["session", "kill", "--session", s.session]);
    const [kept] = await pruneWorktrees(worldDeps(world));
    strictEqual(kept.action, "kept");
    deepStrictEqual(kept.reasons.length, 1);
    const reason = kept.reasons[0];
    strictEqual(reason.kind, "uncommitted_changes");
    deepStrictEqual(reason.kind === "uncommitted_changes" ? reason.files : [], [
      "f.txt",
      "notes.txt",
    ]);
    ok(await exists(`${s.worktree.path}/notes.txt`));
  } finally {
    await world.dispose();
  }
});

Deno.test("a project root in a subdirectory starts the agent in the same subdirectory of its worktree", async () => {
  const world = await makeGitWorld();
  try {
    const sub = `${world.projectRoot}/pkg`;
    Deno.mkdirSync(sub);
    Deno.writeTextFileSync(`${sub}/a.txt`, "a\n");
    await gitIn(world, world.projectRoot, ["add", "pkg"]);
    await gitIn(world, world.projectRoot, ["commit", "-q", "-m", "pkg"]);
    const r = await world.lisaInProcess(
      ["session", "spawn", "--worktree", "--command", "pwd > here.txt", "--json"],
      { cwd: sub },
    );
    strictEqual(r.code, 0, r.stdout);
    const wt = r.json?.worktree as { path: string; repoRoot: string };
    strictEqual(wt.repoRoot, world.projectRoot);
    await waitCompleted(world, String(r.json?.session));
    strictEqual(Deno.readTextFileSync(`${wt.path}/pkg/here.txt`), `${wt.path}/pkg\n`);
  } finally {
    await world.dispose();
  }
});

Deno.test("a spawn that fails after its worktree was made removes the worktree and its branch", async () => {
  const world = await makeGitWorld();
  try {
    const real = new DenoRunner(20_000);
    const runner: Runner = {
      run(argv: readonly string[], options?: RunOptions) {
        if (argv[0] === "tmux" && argv.includes("new-session")) {
          return Promise.resolve({ code: 1, success: false, stdout: "", stderr: "boom\n" });
        }
        return real.run(argv, options);
      },
    };
    const r = await world.lisaInProcess(
      ["session", "spawn", "--worktree", "--command", "true", "--json"],
      { runner },
    );
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "spawn_tmux_error");
    deepStrictEqual(await gitWorktrees(world), [world.projectRoot]);
    deepStrictEqual(await branches(world), ["main"]);
    deepStrictEqual(worktreeEntries(world).filter((e) => e.includes("/")), []);
  } finally {
    await world.dispose();
  }
});

/** The `reason`s of a session's event log (any project hash). */
function eventReasons(runtimeDir: string, session: string): string[] {
  const file = [...Deno.readDirSync(runtimeDir)].find((e) =>
    e.name.endsWith(`-session-${session}-events.jsonl`)
  );
  if (file === undefined) return [];
  return Deno.readTextFileSync(`${runtimeDir}/${file.name}`).split("\n").filter((l) => l !== "")
    .map((l) => String(JSON.parse(l).reason));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
