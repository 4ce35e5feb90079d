/**
 * Interrupting lisa while git works for it: a time limit, SIGTERM or SIGKILL in the middle of a
 * `spawn --worktree` checkout leaves no process, no worktree and no branch behind, and the name
 * spawns again. The point of interruption is made reachable with a smudge filter that records
 * who runs it and blocks (a checkout that takes long), in real git repositories in temp dirs.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, waitFor, type World } from "../helpers/world.ts";
import {
  branches,
  gitIn,
  gitWorktrees,
  makeGitWorld,
  worktreeEntries,
} from "./worktree_helpers.ts";

/** A checkout that blocks: the pids of the filter's processes are written to the returned file. */
interface SlowCheckout {
  pidFile: string;
  /** Lets later checkouts through (the filter is unset). */
  release(): Promise<void>;
}

/**
 * Commits `slow.txt` under a smudge filter that writes its shell's pid, its parent's (the git
 * that checks out) and a child's to a file, then blocks for 30 s.
 */
async function slowCheckout(world: World): Promise<SlowCheckout> {
  const main = world.projectRoot;
  const pidFile = `${world.base}/filter.pids`;
  const script = `${world.base}/slow-smudge.sh`;
  Deno.writeTextFileSync(
    script,
    `#!/bin/sh\necho "$$ $PPID" >> '${pidFile}'\nsleep 30 &\necho "$!" >> '${pidFile}'\n` +
      "wait\ncat\n",
  );
  Deno.chmodSync(script, 0o755);
  Deno.writeTextFileSync(`${main}/.gitattributes`, "slow.txt filter=slow\n");
  Deno.writeTextFileSync(`${main}/slow.txt`, "slow\n");
  await gitIn(world, main, ["add", ".gitattributes", "slow.txt"]);
  await gitIn(world, main, ["commit", "-q", "-m", "slow file"]);
  await gitIn(world, main, ["config", "filter.slow.smudge", script]);
  return {
    pidFile,
    release: async () => {
      await gitIn(world, main, ["config", "--unset", "filter.slow.smudge"]);
    },
  };
}

/** The pids the filter wrote so far. */
function filterPids(slow: SlowCheckout): number[] {
  try {
    return Deno.readTextFileSync(slow.pidFile).split(/\s+/).filter((w) => w !== "").map(Number);
  } catch {
    return [];
  }
}

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** Ends what the filter left (a test that failed must not leave its processes running). */
function endFilter(slow: SlowCheckout): void {
  for (const pid of filterPids(slow)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
}

/** Starts lisa with `args` as a process of its own in the world. */
function startLisa(world: World, args: string[]): Deno.ChildProcess {
  return new Deno.Command(LISA_ARGV[0], {
    args: [...LISA_ARGV.slice(1), ...args],
    cwd: world.projectRoot,
    env: world.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Asserts that nothing of a worktree spawn is left: no worktree, branch, directory or record. */
async function nothingLeft(world: World): Promise<void> {
  deepStrictEqual(await gitWorktrees(world), [world.projectRoot]);
  deepStrictEqual(await branches(world), ["main"]);
  deepStrictEqual(worktreeEntries(world).filter((e) => e.includes("/")), []);
}

const SPAWN = ["session", "spawn", "--worktree", "--command", "true", "--json"];

Deno.test("a worktree spawn whose checkout passes LISA_GIT_TIMEOUT_SECONDS ends git and all it started, leaves nothing, and the name spawns again", async () => {
  const world = await makeGitWorld();
  const slow = await slowCheckout(world);
  try {
    const args = [...SPAWN, "--session", "lisa-slow"];
    const r = await world.lisaInProcess(args, { env: { LISA_GIT_TIMEOUT_SECONDS: "1" } });
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "command_timeout", r.stdout);
    const pids = filterPids(slow);
    strictEqual(pids.length, 3, "the filter ran");
    deepStrictEqual(pids.filter(alive), [], "git's checkout and its filter were ended");
    await nothingLeft(world);
    await slow.release();
    const again = await world.lisaInProcess(args);
    strictEqual(again.code, 0, again.stdout);
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("SIGTERM to a worktree spawn in the middle of its checkout: exit 143, git and all it started ended, nothing left, and the name spawns again", async () => {
  const world = await makeGitWorld();
  const slow = await slowCheckout(world);
  try {
    const args = [...SPAWN, "--session", "lisa-term"];
    const child = startLisa(world, args);
    ok(await waitFor(() => filterPids(slow).length === 3, 30_000), "the checkout began");
    Deno.kill(child.pid, "SIGTERM");
    const out = await child.output();
    const json = JSON.parse(new TextDecoder().decode(out.stdout));
    strictEqual(out.code, 143, JSON.stringify(json));
    strictEqual(json.errorCode, "interrupted");
    deepStrictEqual(filterPids(slow).filter(alive), []);
    await nothingLeft(world);
    await slow.release();
    const again = await world.lisaInProcess(args);
    strictEqual(again.code, 0, again.stdout);
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("SIGKILL to a worktree spawn in the middle of its checkout: prune sees what it left, and the next spawn of the name ends the orphaned git and clears it", async () => {
  const world = await makeGitWorld();
  const slow = await slowCheckout(world);
  try {
    const args = [...SPAWN, "--session", "lisa-kill"];
    const child = startLisa(world, args);
    ok(await waitFor(() => filterPids(slow).length === 3, 30_000), "the checkout began");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    // Nothing could end git: its checkout runs on, and the intent lisa recorded first says so.
    ok(filterPids(slow).every(alive), "the orphaned checkout still runs");
    const dry = await world.lisaInProcess(["session", "prune", "--dry-run", "--json"]);
    deepStrictEqual(
      (dry.json?.worktrees as { session: string; action: string }[]).map((w) => [
        w.session,
        w.action,
      ]),
      [["lisa-kill", "would_remove"]],
      dry.stdout,
    );
    await slow.release();
    const again = await world.lisaInProcess(args);
    strictEqual(again.code, 0, again.stdout);
    deepStrictEqual(filterPids(slow).filter(alive), [], "the orphaned git was ended");
    deepStrictEqual(await branches(world), ["lisa/kill", "main"]);
    strictEqual((await gitWorktrees(world)).length, 2, "the new spawn's worktree");
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("SIGKILL to a worktree spawn in the middle of its checkout: prune alone clears what it left", async () => {
  const world = await makeGitWorld();
  const slow = await slowCheckout(world);
  try {
    const child = startLisa(world, [...SPAWN, "--session", "lisa-gone"]);
    ok(await waitFor(() => filterPids(slow).length === 3, 30_000), "the checkout began");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    const pruned = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout);
    const [row] = pruned.json?.worktrees as { action: string; branchDeleted: boolean }[];
    strictEqual(row.action, "removed", pruned.stdout);
    deepStrictEqual(filterPids(slow).filter(alive), [], "the orphaned git was ended");
    await nothingLeft(world);
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});
