/**
 * What the next lisa does with a merge a killed lisa (SIGKILL) left: it takes back only what
 * the merge made (never a commit a person made or amended since), puts back a file git was
 * stopped writing, and undoes before `spawn --worktree` reads its base. A prune killed while it
 * removes a worktree is finished only after the worktree is judged again. Real git in temp
 * repositories; the point of the kill is a blocking hook or smudge filter
 * (`interrupt_helpers.ts`).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { waitFor, type World } from "../helpers/world.ts";
import {
  alive,
  blockingScript,
  blockingWorktreeRemove,
  endFilter,
  filterPids,
  mergeWorld,
  type SlowCheckout,
  slowCheckout,
  startLisa,
} from "./interrupt_helpers.ts";
import { gitIn, makeGitWorld, spawnWt, waitCompleted, type WtSpawn } from "./worktree_helpers.ts";

/** HEAD of the main checkout. */
async function headOf(world: World): Promise<string> {
  return (await gitIn(world, world.projectRoot, ["rev-parse", "HEAD"])).trim();
}

/**
 * `merge <session> --squash` killed (SIGKILL) while its commit's pre-commit hook runs; then the
 * hook is let go, so the orphaned git finishes the squash commit after lisa died. Returns the
 * commit HEAD pointed at before, and the hook (to end in `finally`).
 */
async function squashFinishedByOrphan(
  world: World,
  session: string,
): Promise<{ head: string; hook: SlowCheckout }> {
  const main = world.projectRoot;
  const hook = blockingScript(world, "hook", true);
  Deno.copyFileSync(`${world.base}/hook.sh`, `${main}/.git/hooks/pre-commit`);
  Deno.chmodSync(`${main}/.git/hooks/pre-commit`, 0o755);
  const head = await headOf(world);
  hook.arm();
  const child = startLisa(world, ["session", "merge", session, "--squash", "--json"]);
  ok(await waitFor(() => filterPids(hook).length === 3, 30_000), "the hook runs");
  Deno.kill(child.pid, "SIGKILL");
  await child.output();
  const [, gitPid, sleepPid] = filterPids(hook);
  Deno.kill(sleepPid, "SIGKILL"); // the hook goes on and says yes
  ok(await waitFor(() => !alive(gitPid), 30_000), "the orphaned git commit ended");
  ok((await headOf(world)) !== head, "the orphaned git made the squash commit");
  return { head, hook };
}

/** `spawn --worktree --session <name> --command true --json`, with its stderr. */
async function spawnAfter(world: World, name: string) {
  const r = await world.lisaInProcess([
    "session",
    "spawn",
    "--worktree",
    "--session",
    name,
    "--command",
    "true",
    "--json",
  ]);
  strictEqual(r.code, 0, `${r.stdout}${r.stderr}`);
  return { spawned: r.json as unknown as WtSpawn, stderr: r.stderr };
}

Deno.test("after a SIGKILL'd squash merge whose commit the person amended, the next spawn --worktree keeps the person's commit (and says so) and bases the worktree on it", async () => {
  const { world, session, slow } = await mergeWorld();
  const main = world.projectRoot;
  let hook: SlowCheckout | undefined;
  try {
    ({ hook } = await squashFinishedByOrphan(world, session));
    Deno.writeTextFileSync(`${main}/person.txt`, "p\n");
    await gitIn(world, main, ["add", "person.txt"]);
    await gitIn(world, main, ["commit", "-q", "--amend", "-m", "Add s feature + my person.txt"]);
    const amended = await headOf(world);
    const { spawned, stderr } = await spawnAfter(world, "lisa-t");
    strictEqual(await headOf(world), amended, stderr);
    ok(stderr.includes("a commit lisa did not make"), stderr);
    strictEqual(Deno.readTextFileSync(`${main}/person.txt`), "p\n");
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "agent\n", "the merge's files stay");
    strictEqual(spawned.worktree.baseCommit, amended);
  } finally {
    if (hook) endFilter(hook);
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("after a SIGKILL'd merge, a commit the person made on top of the old HEAD is kept", async () => {
  const { world, session, slow } = await mergeWorld();
  const main = world.projectRoot;
  const hook = blockingScript(world, "hook", true);
  try {
    Deno.copyFileSync(`${world.base}/hook.sh`, `${main}/.git/hooks/pre-merge-commit`);
    Deno.chmodSync(`${main}/.git/hooks/pre-merge-commit`, 0o755);
    hook.arm();
    const child = startLisa(world, ["session", "merge", session, "--json"]);
    ok(await waitFor(() => filterPids(hook).length === 3, 30_000), "the hook runs");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    // The person ends the stuck git themselves and commits what they find, with their file.
    const [, gitPid, sleepPid] = filterPids(hook);
    Deno.kill(gitPid, "SIGKILL");
    Deno.kill(sleepPid, "SIGKILL");
    ok(await waitFor(() => !alive(gitPid), 30_000));
    try {
      Deno.removeSync(`${main}/.git/index.lock`);
    } catch { /* git removed it */ }
    Deno.writeTextFileSync(`${main}/mine.txt`, "mine\n");
    await gitIn(world, main, ["add", "-A"]);
    await gitIn(world, main, ["commit", "-q", "-m", "my own commit"]);
    const mine = await headOf(world);
    const pruned = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout);
    strictEqual(await headOf(world), mine, pruned.stderr);
    strictEqual(Deno.readTextFileSync(`${main}/mine.txt`), "mine\n");
    ok(pruned.stderr.includes("a commit lisa did not make"), pruned.stderr);
  } finally {
    endFilter(hook);
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("after a SIGKILL'd squash merge that the orphaned git finished, the next spawn --worktree undoes it first, then bases the worktree on the HEAD before it", async () => {
  const { world, session, slow } = await mergeWorld();
  let hook: SlowCheckout | undefined;
  try {
    let head: string;
    ({ head, hook } = await squashFinishedByOrphan(world, session));
    const { spawned, stderr } = await spawnAfter(world, "lisa-t");
    ok(stderr.includes("undid the merge"), stderr);
    strictEqual(await headOf(world), head);
    strictEqual(spawned.worktree.baseCommit, head);
  } finally {
    if (hook) endFilter(hook);
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("after a SIGKILL'd merge, a file git was stopped writing (the start of the merged content) is put back, and a person's edit in the same window is kept", async () => {
  const { world, session, slow } = await mergeWorld();
  const main = world.projectRoot;
  try {
    const head = await headOf(world);
    const f = Deno.readTextFileSync(`${main}/f.txt`);
    slow.arm();
    const child = startLisa(world, ["session", "merge", session, "--json"]);
    ok(await waitFor(() => filterPids(slow).length === 3, 30_000), "the checkout began");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    ok(filterPids(slow).every(alive), "the orphaned git still runs");
    // What git leaves of files it is stopped writing: an empty f.txt (merged: "agent\n"), the
    // first byte of a2.txt ("2\n"); and a person's edit of a1.txt meanwhile.
    Deno.writeTextFileSync(`${main}/f.txt`, "");
    Deno.writeTextFileSync(`${main}/a2.txt`, "2");
    Deno.writeTextFileSync(`${main}/a1.txt`, "the person's work\n");
    const pruned = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout);
    ok(pruned.stderr.includes("someone changed them since: a1.txt\n"), pruned.stderr);
    deepStrictEqual(filterPids(slow).filter(alive), []);
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), f);
    ok(!existsSync(`${main}/a2.txt`), "a2.txt, added by the merge, is gone again");
    strictEqual(Deno.readTextFileSync(`${main}/a1.txt`), "the person's work\n");
    strictEqual(await headOf(world), head);
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});

/** True when `path` exists. */
function existsSync(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("a prune killed (SIGKILL) while git removes a worktree is finished by the next only after the worktree is judged again: a file written since keeps it, and --force reports it discarded", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  const { hook, script } = blockingWorktreeRemove(world);
  try {
    const s = await spawnWt(world, "echo p > p.txt; git add p.txt; git commit -qm p");
    await waitCompleted(world, s.session);
    await world.lisaInProcess(["session", "kill", "--session", s.session]);
    const m = await world.lisaInProcess(["session", "merge", s.session, "--json"]);
    strictEqual(m.code, 0, m.stdout);
    await gitIn(world, main, ["config", "core.fsmonitor", script]);
    hook.arm();
    const child = startLisa(world, ["session", "prune", "--json"]);
    ok(await waitFor(() => filterPids(hook).length === 3, 30_000), "git worktree remove runs");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    // The worktree is still whole; someone writes notes in it.
    const notes = `${s.worktree.path}/notes.txt`;
    Deno.writeTextFileSync(notes, "written after the prune was killed\n");
    const kept = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(kept.code, 0, kept.stdout);
    const [row] = kept.json?.worktrees as WorktreeRow[];
    strictEqual(row.action, "kept", kept.stdout);
    deepStrictEqual(row.reasons.map((r) => [r.kind, r.files]), [
      ["uncommitted_changes", ["notes.txt"]],
    ]);
    deepStrictEqual(filterPids(hook).filter(alive), [], "the orphaned git was ended");
    strictEqual(Deno.readTextFileSync(notes), "written after the prune was killed\n");
    const forced = await world.lisaInProcess(["session", "prune", "--force", "--json"]);
    strictEqual(forced.code, 0, forced.stdout);
    const [gone] = forced.json?.worktrees as WorktreeRow[];
    strictEqual(gone.action, "removed", forced.stdout);
    strictEqual(gone.discarded, true, forced.stdout);
    deepStrictEqual(gone.reasons.map((r) => r.files), [["notes.txt"]]);
    ok(!existsSync(s.worktree.path));
  } finally {
    endFilter(hook);
    await world.dispose();
  }
});

/** A row of `prune --json`'s `worktrees`. */
interface WorktreeRow {
  action: string;
  discarded: boolean;
  reasons: { kind: string; files?: string[] }[];
}

Deno.test("spawn --worktree of a name whose earlier run's worktree was moved away by hand is refused early (worktree_exists) and leaves that run's record, branch and commit as they were", async () => {
  const world = await makeGitWorld();
  try {
    const first = await spawnWt(world, "echo z > z.txt; git add z.txt; git commit -qm 'agent: z'", [
      "--session",
      "lisa-z",
    ]);
    await waitCompleted(world, "lisa-z");
    await world.lisaInProcess(["session", "kill", "--session", "lisa-z"]);
    const path = first.worktree.path;
    const recordFile = `${path}.lisa.json`;
    const record = Deno.readTextFileSync(recordFile);
    Deno.renameSync(path, `${world.base}/moved-away`);
    const again = await world.lisaInProcess([
      "session",
      "spawn",
      "--worktree",
      "--session",
      "lisa-z",
      "--command",
      "true",
      "--json",
    ]);
    strictEqual(again.code, 1, again.stdout);
    strictEqual(again.json?.errorCode, "worktree_exists", again.stdout);
    ok(String(again.json?.error).includes("missing"), again.stdout);
    strictEqual(Deno.readTextFileSync(recordFile), record, "the earlier run's record is intact");
    const log = await gitIn(world, world.projectRoot, ["log", "--format=%s", "lisa/z"]);
    ok(log.startsWith("agent: z\n"), log);
    const dry = await world.lisaInProcess(["session", "prune", "--dry-run", "--json"]);
    deepStrictEqual(
      (dry.json?.worktrees as { session: string; action: string }[]).map((w) => [
        w.session,
        w.action,
      ]),
      [["lisa-z", "kept"]],
      dry.stdout,
    );
  } finally {
    await world.dispose();
  }
});

Deno.test("after a SIGKILL'd merge of a session that still runs, prune keeps the worktree (session_running) yet ends the orphaned git and undoes the merge", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  const slow = await slowCheckout(world, false);
  try {
    const s = await spawnWt(
      world,
      "echo 1 > a1.txt; echo fast > slow.txt; git add -A; git commit -qm agent; sleep 120",
    );
    ok(
      await waitFor(
        async () =>
          (await gitIn(world, main, ["log", "--format=%s", s.worktree.branch])).startsWith("agent"),
        30_000,
      ),
      "the agent committed",
    );
    const status = () => gitIn(world, main, ["status", "--porcelain=v1", "--untracked-files=all"]);
    const head = await headOf(world);
    const before = await status();
    slow.arm();
    const child = startLisa(world, ["session", "merge", s.session, "--force", "--json"]);
    ok(await waitFor(() => filterPids(slow).length === 3, 30_000), "the checkout began");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    ok(existsSync(`${main}/a1.txt`), "half merged when lisa died");
    const pruned = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout);
    const [row] = pruned.json?.worktrees as WorktreeRow[];
    deepStrictEqual([row.action, row.reasons.map((r) => r.kind)], ["kept", ["session_running"]]);
    ok(pruned.stderr.includes("undid the merge"), pruned.stderr);
    deepStrictEqual(filterPids(slow).filter(alive), [], "the orphaned git was ended");
    strictEqual(await headOf(world), head);
    strictEqual(await status(), before);
    strictEqual(Deno.readTextFileSync(`${main}/slow.txt`), "slow\n");
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});
