/**
 * Nothing of an agent's work is lost by prune: "merged" is a fact about the repository when
 * prune runs, not a record of a past merge a person may have undone. Real git and tmux in temp
 * dirs.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { branches, gitIn, makeGitWorld, spawnWt, waitCompleted } from "./worktree_helpers.ts";

/** One row of `session prune --json`'s `worktrees`. */
interface PrunedRow {
  session: string;
  action: string;
  branchDeleted: boolean;
  reasons: { kind: string; commits?: { subject: string }[] }[];
}

Deno.test("prune keeps an agent's commits after a person undid their merge or squash (git reset --hard HEAD~1), and removes them once merged again", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const plain = await spawnWt(world, "echo x > p.txt; git add p.txt; git commit -qm 'precious'");
    const squashed = await spawnWt(world, "echo y > q.txt; git add q.txt; git commit -qm 'dear'");
    await waitCompleted(world, plain.session);
    await waitCompleted(world, squashed.session);
    for (const s of [plain, squashed]) {
      await world.lisaInProcess(["session", "kill", "--session", s.session]);
    }
    const prune = async () => {
      const r = await world.lisaInProcess(["session", "prune", "--json"]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      return new Map((r.json?.worktrees as PrunedRow[]).map((row) => [row.session, row]));
    };
    for (const [s, extra] of [[plain, []], [squashed, ["--squash"]]] as const) {
      const m = await world.lisaInProcess(["session", "merge", s.session, ...extra, "--json"]);
      strictEqual(m.code, 0, m.stdout);
      await gitIn(world, main, ["reset", "-q", "--hard", "HEAD~1"]);
    }
    const rows = await prune();
    for (const [s, subject] of [[plain, "precious"], [squashed, "dear"]] as const) {
      const row = rows.get(s.session);
      strictEqual(row?.action, "kept", JSON.stringify(row));
      strictEqual(row?.branchDeleted, false);
      deepStrictEqual(row?.reasons.map((r) => r.kind), ["unmerged_commits"]);
      deepStrictEqual(row?.reasons[0].commits?.map((c) => c.subject), [subject]);
      ok((await gitIn(world, main, ["log", "--all", "--format=%s"])).includes(subject));
    }
    deepStrictEqual(
      await branches(world),
      ["main", plain.worktree.branch, squashed.worktree.branch].sort(),
    );

    // Merged again (and kept so), both go.
    for (const [s, extra] of [[plain, []], [squashed, ["--squash"]]] as const) {
      const m = await world.lisaInProcess(["session", "merge", s.session, ...extra, "--json"]);
      strictEqual(m.code, 0, m.stdout);
    }
    const again = await prune();
    strictEqual(again.get(plain.session)?.action, "removed");
    strictEqual(again.get(squashed.session)?.action, "removed");
    deepStrictEqual(await branches(world), ["main"]);
  } finally {
    await world.dispose();
  }
});

Deno.test("a squash that had nothing to commit (its change already in main) counts as merged only while main still has that change", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "echo z > z.txt; git add z.txt; git commit -qm 'same change'");
    await waitCompleted(world, s.session);
    await world.lisaInProcess(["session", "kill", "--session", s.session]);
    // The person takes the change by hand; the squash then has nothing to commit.
    await gitIn(world, main, ["cherry-pick", s.worktree.branch]);
    const m = await world.lisaInProcess(["session", "merge", s.session, "--squash", "--json"]);
    strictEqual(m.code, 0, m.stdout);
    strictEqual(m.json?.mergeCommit, null, m.stdout);
    await gitIn(world, main, ["reset", "-q", "--hard", "HEAD~1"]);
    const kept = await world.lisaInProcess(["session", "prune", "--json"]);
    const [row] = kept.json?.worktrees as PrunedRow[];
    strictEqual(row.action, "kept", kept.stdout);
    deepStrictEqual(row.reasons[0].commits?.map((c) => c.subject), ["same change"]);
    await gitIn(world, main, ["cherry-pick", s.worktree.branch]);
    const removed = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual((removed.json?.worktrees as PrunedRow[])[0].action, "removed", removed.stdout);
    deepStrictEqual(await branches(world), ["main"]);
  } finally {
    await world.dispose();
  }
});

Deno.test("merge refuses a main checkout in the middle of git am or a cherry-pick (it would mix the agent's work into the person's), and changes nothing", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const s = await spawnWt(world, "echo agent > g.txt; git add g.txt; git commit -qm agent");
    await waitCompleted(world, s.session);
    await gitIn(world, main, ["checkout", "-q", "-b", "other"]);
    Deno.writeTextFileSync(`${main}/f.txt`, "other\n");
    await gitIn(world, main, ["commit", "-q", "-am", "other's f"]);
    await gitIn(world, main, ["checkout", "-q", "main"]);
    Deno.writeTextFileSync(`${main}/f.txt`, "main\n");
    await gitIn(world, main, ["commit", "-q", "-am", "main's f"]);
    const patch = await gitIn(world, main, ["format-patch", "-1", "--stdout", "other"]);
    Deno.writeTextFileSync(`${world.base}/other.patch`, patch);
    const stop = async (args: string[]) => {
      const r = await new Deno.Command("git", {
        args: ["-C", main, ...args],
        env: world.env,
        clearEnv: true,
        stdout: "null",
        stderr: "null",
      }).output();
      strictEqual(r.success, false, `git ${args.join(" ")} stops for the person`);
    };
    for (
      const [start, abort, operation] of [
        [["am", `${world.base}/other.patch`], ["am", "--abort"], "rebase or git am"],
        [["cherry-pick", "other"], ["cherry-pick", "--abort"], "cherry-pick"],
      ] as const
    ) {
      await stop([...start]);
      const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
      const status = await gitIn(world, main, ["status", "--porcelain"]);
      const r = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, "merge_refused", r.stdout);
      strictEqual(r.json?.operation, operation, r.stdout);
      strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
      strictEqual(await gitIn(world, main, ["status", "--porcelain"]), status);
      await gitIn(world, main, [...abort]);
    }
    const merged = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(merged.code, 0, merged.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("a person's branch named like lisa's (lisa, or one beneath the name asked for) is named in branch_exists at once, and nothing is created", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    for (const [theirs, extra] of [["lisa", []], ["mine/x/y", ["--branch", "mine/x"]]] as const) {
      await gitIn(world, main, ["branch", theirs]);
      const started = Date.now();
      const r = await world.lisaInProcess([
        "session",
        "spawn",
        "--worktree",
        ...extra,
        "--command",
        "true",
        "--json",
      ]);
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, "branch_exists", r.stdout);
      ok(String(r.json?.error).includes(`"${theirs}"`), r.stdout);
      // Not taken for one of git's locks (retried for seconds).
      ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
      deepStrictEqual(await branches(world), ["main", theirs].sort());
      await gitIn(world, main, ["branch", "-D", theirs]);
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("prune keeps a worktree whose agent committed in a submodule it cloned there (the only copy), and --force says it discarded it", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    const sub = `${world.base}/subrepo`;
    Deno.mkdirSync(sub);
    await gitIn(world, sub, ["init", "-q", "-b", "main"]);
    Deno.writeTextFileSync(`${sub}/s.txt`, "s\n");
    await gitIn(world, sub, ["add", "s.txt"]);
    await gitIn(world, sub, ["commit", "-qm", "sub init"]);
    const file = ["-c", "protocol.file.allow=always"];
    await gitIn(world, main, [...file, "submodule", "add", "-q", sub, "sub"]);
    await gitIn(world, main, ["commit", "-qm", "add sub"]);
    const s = await spawnWt(
      world,
      "git -c protocol.file.allow=always submodule update -q --init && cd sub && " +
        "echo agent > s.txt && git commit -qam 'agent in sub' && cd .. && git add sub && " +
        "git commit -qm 'bump sub'",
    );
    await waitCompleted(world, s.session);
    await world.lisaInProcess(["session", "kill", "--session", s.session]);
    const m = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(m.code, 0, m.stdout);
    const kept = await world.lisaInProcess(["session", "prune", "--json"]);
    const [row] = kept.json?.worktrees as (PrunedRow & { reasons: { submodules?: string[] }[] })[];
    strictEqual(row.action, "kept", kept.stdout);
    deepStrictEqual(row.reasons.map((r) => r.kind), ["submodules"]);
    deepStrictEqual(row.reasons[0].submodules, ["sub"]);
    const forced = await world.lisaInProcess(["session", "prune", "--force", "--json"]);
    const [gone] = forced.json?.worktrees as (PrunedRow & { discarded: boolean })[];
    strictEqual(gone.action, "removed", forced.stdout);
    strictEqual(gone.discarded, true, forced.stdout);
    ok(forced.stderr.includes("DISCARDED") && forced.stderr.includes("submodules"), forced.stderr);
  } finally {
    await world.dispose();
  }
});

Deno.test("prune keeps a worktree holding a git repository the agent cloned into it (not a submodule), and --force says it discarded it", async () => {
  const world = await makeGitWorld();
  try {
    const other = `${world.base}/other`;
    Deno.mkdirSync(other);
    await gitIn(world, other, ["init", "-q", "-b", "main"]);
    Deno.writeTextFileSync(`${other}/o.txt`, "o\n");
    await gitIn(world, other, ["add", "o.txt"]);
    await gitIn(world, other, ["commit", "-qm", "other init"]);
    // A plain clone: merge's pending commit records it as a gitlink, and the clone's commit
    // exists only in the worktree. prune --force removed it reporting nothing discarded.
    const s = await spawnWt(
      world,
      `git clone -q ${other} nested && cd nested && echo precious > p.txt && git add p.txt && ` +
        "git commit -qm 'precious nested'",
    );
    await waitCompleted(world, s.session);
    const m = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(m.code, 0, m.stdout);
    const kept = await world.lisaInProcess(["session", "prune", "--json"]);
    const [row] = kept.json?.worktrees as (PrunedRow & { reasons: { submodules?: string[] }[] })[];
    strictEqual(row.action, "kept", kept.stdout);
    deepStrictEqual(row.reasons.map((r) => r.kind), ["submodules"], kept.stdout);
    deepStrictEqual(row.reasons[0].submodules, ["nested"]);
    const forced = await world.lisaInProcess(["session", "prune", "--force", "--json"]);
    const [gone] = forced.json?.worktrees as (PrunedRow & { discarded: boolean })[];
    strictEqual(gone.action, "removed", forced.stdout);
    strictEqual(gone.discarded, true, forced.stdout);
    ok(forced.stderr.includes("DISCARDED") && forced.stderr.includes("nested"), forced.stderr);
  } finally {
    await world.dispose();
  }
});

Deno.test("prune forgets only its own worktree: a person's worktree whose directory is away (an unmounted disk) keeps its entry and commits", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  try {
    // The person's own worktree, with a commit on no branch and a staged file.
    const usb = `${world.base}/usb`;
    Deno.mkdirSync(usb);
    await gitIn(world, main, ["worktree", "add", "-q", "--detach", `${usb}/mywt`, "HEAD"]);
    Deno.writeTextFileSync(`${usb}/mywt/mine.txt`, "m\n");
    await gitIn(world, `${usb}/mywt`, ["add", "mine.txt"]);
    await gitIn(world, `${usb}/mywt`, ["commit", "-qm", "person: detached work"]);
    const personal = (await gitIn(world, `${usb}/mywt`, ["rev-parse", "HEAD"])).trim();
    // lisa's worktree, merged, then pruned while the person's disk is not mounted.
    const s = await spawnWt(world, "echo x > p.txt && git add p.txt && git commit -qm 'agent: p'");
    await waitCompleted(world, s.session);
    const m = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(m.code, 0, m.stdout);
    Deno.renameSync(usb, `${world.base}/usb-away`);
    const pruned = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout + pruned.stderr);
    const [row] = pruned.json?.worktrees as PrunedRow[];
    strictEqual(row.action, "removed", pruned.stdout);
    Deno.renameSync(`${world.base}/usb-away`, usb);
    // `git worktree prune` on the whole repository dropped the person's entry: their worktree was
    // "not a git repository" and their commit hung from no ref.
    strictEqual((await gitIn(world, `${usb}/mywt`, ["rev-parse", "HEAD"])).trim(), personal);
    const list = await gitIn(world, main, ["worktree", "list", "--porcelain"]);
    ok(list.includes(`worktree ${usb}/mywt`), list);
    ok(!list.includes(s.worktree.path), list);
  } finally {
    await world.dispose();
  }
});
