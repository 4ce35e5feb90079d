/**
 * Interrupting lisa while git works for it: a time limit, SIGTERM or SIGKILL in the middle of a
 * `spawn --worktree` checkout leaves no process, no worktree and no branch behind, and the name
 * spawns again. The point of interruption is made reachable with a smudge filter that records
 * who runs it and blocks (a checkout that takes long), in real git repositories in temp dirs.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { repoLockPath } from "../../src/core/worktree/git.ts";
import { waitFor, type World } from "../helpers/world.ts";
import {
  alive,
  blockingScript,
  blockingWorktreeRemove,
  endFilter,
  filterPids,
  mergeWorld,
  slowCheckout,
  startLisa,
} from "./interrupt_helpers.ts";
import {
  branches,
  gitIn,
  gitWorktrees,
  makeGitWorld,
  spawnWt,
  waitCompleted,
  worktreeEntries,
} from "./worktree_helpers.ts";

/** Asserts that nothing of a worktree spawn is left: no worktree, branch, directory or record. */
async function nothingLeft(world: World): Promise<void> {
  deepStrictEqual(await gitWorktrees(world), [world.projectRoot]);
  deepStrictEqual(await branches(world), ["main"]);
  deepStrictEqual(worktreeEntries(world).filter((e) => e.includes("/")), []);
}

const HOLD_LOCK = new URL("../fixtures/hold_lock.ts", import.meta.url).pathname;

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

/** Everything of the main checkout a merge may change, as one comparable text. */
async function checkoutState(world: World): Promise<string> {
  const main = world.projectRoot;
  const read = (f: string) => {
    try {
      return Deno.readTextFileSync(`${main}/${f}`);
    } catch {
      return null;
    }
  };
  const files = ["a1.txt", "a2.txt", "a3.txt", "f.txt", "gone.txt", "keep.txt", "notes.txt"];
  const gitFiles = ["MERGE_HEAD", "MERGE_MSG", "SQUASH_MSG", "index.lock"];
  return JSON.stringify(
    {
      head: (await gitIn(world, main, ["rev-parse", "HEAD"])).trim(),
      status: await gitIn(world, main, ["status", "--porcelain=v1", "--untracked-files=all"]),
      files: Object.fromEntries([...files, "slow.txt", "z/new.txt"].map((f) => [f, read(f)])),
      newDir: (() => {
        try {
          return Deno.lstatSync(`${main}/z`).isDirectory;
        } catch {
          return false;
        }
      })(),
      git: Object.fromEntries(gitFiles.map((f) => [f, read(`.git/${f}`) !== null])),
    },
    null,
    1,
  );
}

/** Asserts the main checkout holds the whole merge of the agent's work, and the person's. */
async function exactlyMerged(world: World): Promise<void> {
  const main = world.projectRoot;
  strictEqual(
    await gitIn(world, main, ["status", "--porcelain=v1", "--untracked-files=all"]),
    " M keep.txt\n?? notes.txt\n",
  );
  strictEqual(Deno.readTextFileSync(`${main}/slow.txt`), "fast\n");
  strictEqual(Deno.readTextFileSync(`${main}/z/new.txt`), "new\n");
  strictEqual(Deno.readTextFileSync(`${main}/a3.txt`), "3\n");
  ok(!(await gitIn(world, main, ["ls-files"])).includes("gone.txt"));
}

Deno.test("a merge whose checkout passes LISA_GIT_TIMEOUT_SECONDS leaves the main checkout exactly as before (restored), and merges whole next time", async () => {
  const { world, session, slow } = await mergeWorld();
  try {
    const before = await checkoutState(world);
    slow.arm();
    const r = await world.lisaInProcess(["session", "merge", session, "--json"], {
      env: { LISA_GIT_TIMEOUT_SECONDS: "1" },
    });
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "command_timeout", r.stdout);
    strictEqual(r.json?.restored, true, r.stdout);
    deepStrictEqual(filterPids(slow).filter(alive), []);
    strictEqual(await checkoutState(world), before);
    const again = await world.lisaInProcess(["session", "merge", session, "--json"]);
    strictEqual(again.code, 0, again.stdout);
    await exactlyMerged(world);
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("SIGTERM to a merge in the middle of its checkout: exit 143, the main checkout exactly as before, git ended", async () => {
  const { world, session, slow } = await mergeWorld();
  try {
    const before = await checkoutState(world);
    slow.arm();
    const child = startLisa(world, ["session", "merge", session, "--json"]);
    ok(await waitFor(() => filterPids(slow).length === 3, 30_000), "the checkout began");
    ok((await checkoutState(world)) !== before, "half merged when the signal comes");
    Deno.kill(child.pid, "SIGTERM");
    const out = await child.output();
    const json = JSON.parse(new TextDecoder().decode(out.stdout));
    strictEqual(out.code, 143, JSON.stringify(json));
    strictEqual(json.errorCode, "interrupted");
    strictEqual(json.restored, true);
    deepStrictEqual(filterPids(slow).filter(alive), []);
    strictEqual(await checkoutState(world), before);
    const again = await world.lisaInProcess(["session", "merge", session, "--json"]);
    strictEqual(again.code, 0, again.stdout);
    await exactlyMerged(world);
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("SIGKILL to a merge in the middle of its checkout: the next lisa that takes the repository ends the orphaned git and puts the main checkout back exactly", async () => {
  const { world, session, slow } = await mergeWorld();
  try {
    const before = await checkoutState(world);
    slow.arm();
    const child = startLisa(world, ["session", "merge", session, "--json"]);
    ok(await waitFor(() => filterPids(slow).length === 3, 30_000), "the checkout began");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    ok((await checkoutState(world)) !== before, "half merged when lisa died");
    const pruned = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout);
    ok(pruned.stderr.includes("undid the merge"), pruned.stderr);
    deepStrictEqual(filterPids(slow).filter(alive), []);
    strictEqual(await checkoutState(world), before);
    const again = await world.lisaInProcess(["session", "merge", session, "--json"]);
    strictEqual(again.code, 0, again.stdout);
    await exactlyMerged(world);
  } finally {
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("SIGKILL and SIGTERM to a merge while its commit's hook runs (the files merged and staged): the main checkout exactly as before, then merged whole", async () => {
  for (const [signal, squash] of [["SIGKILL", true], ["SIGTERM", false]] as const) {
    const { world, session, slow } = await mergeWorld();
    const hook = blockingScript(world, "hook", true);
    try {
      for (const name of ["pre-commit", "pre-merge-commit"]) {
        Deno.copyFileSync(`${world.base}/hook.sh`, `${world.projectRoot}/.git/hooks/${name}`);
        Deno.chmodSync(`${world.projectRoot}/.git/hooks/${name}`, 0o755);
      }
      const before = await checkoutState(world);
      hook.arm();
      const args = ["session", "merge", session, ...(squash ? ["--squash"] : []), "--json"];
      const child = startLisa(world, args);
      ok(await waitFor(() => filterPids(hook).length === 3, 30_000), "the hook runs");
      Deno.kill(child.pid, signal);
      const out = await child.output();
      if (signal === "SIGTERM") strictEqual(out.code, 143);
      // The next merge undoes what the killed one left, then merges.
      if (signal === "SIGKILL") ok((await checkoutState(world)) !== before, "half merged");
      else strictEqual(await checkoutState(world), before);
      const again = await world.lisaInProcess(args);
      strictEqual(again.code, 0, again.stdout);
      deepStrictEqual(filterPids(hook).filter(alive), []);
      await exactlyMerged(world);
      const log = await gitIn(world, world.projectRoot, ["log", "--format=%P", "-1"]);
      strictEqual(log.trim().split(" ").length, squash ? 1 : 2, log);
    } finally {
      endFilter(hook);
      endFilter(slow);
      await world.dispose();
    }
  }
});

Deno.test("undoing a merge a SIGKILL left never overwrites what a person changed since in its files", async () => {
  const { world, session, slow } = await mergeWorld();
  const main = world.projectRoot;
  const hook = blockingScript(world, "hook", true);
  try {
    Deno.copyFileSync(`${world.base}/hook.sh`, `${main}/.git/hooks/pre-merge-commit`);
    Deno.chmodSync(`${main}/.git/hooks/pre-merge-commit`, 0o755);
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    hook.arm();
    const child = startLisa(world, ["session", "merge", session, "--json"]);
    ok(await waitFor(() => filterPids(hook).length === 3, 30_000), "the hook runs");
    Deno.kill(child.pid, "SIGKILL");
    await child.output();
    // The person finds the merged files and goes on working in two of them.
    Deno.writeTextFileSync(`${main}/a1.txt`, "the person's work\n");
    Deno.writeTextFileSync(`${main}/f.txt`, "the person's f\n");
    const pruned = await world.lisaInProcess(["session", "prune", "--json"]);
    strictEqual(pruned.code, 0, pruned.stdout);
    ok(pruned.stderr.includes("a1.txt, f.txt"), pruned.stderr);
    strictEqual(Deno.readTextFileSync(`${main}/a1.txt`), "the person's work\n");
    strictEqual(Deno.readTextFileSync(`${main}/f.txt`), "the person's f\n");
    // The rest of the merge is undone.
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
    strictEqual(Deno.readTextFileSync(`${main}/slow.txt`), "slow\n");
    ok(!(await gitIn(world, main, ["status", "--porcelain"])).includes("a2.txt"));
    strictEqual(Deno.readTextFileSync(`${main}/gone.txt`), "gone\n");
    deepStrictEqual(filterPids(hook).filter(alive), []);
  } finally {
    endFilter(hook);
    endFilter(slow);
    await world.dispose();
  }
});

Deno.test("SIGTERM or SIGKILL to a prune while git removes a merged worktree: the removal is finished (then, or by the next prune), never left half done", async () => {
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
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
      Deno.kill(child.pid, signal);
      const out = await child.output();
      if (signal === "SIGTERM") {
        strictEqual(out.code, 143, new TextDecoder().decode(out.stdout));
      } else {
        const again = await world.lisaInProcess(["session", "prune", "--json"]);
        strictEqual(again.code, 0, again.stdout);
        deepStrictEqual(
          (again.json?.worktrees as { action: string }[]).map((w) => w.action),
          ["removed"],
        );
      }
      deepStrictEqual(filterPids(hook).filter(alive), []);
      await nothingLeft(world);
    } finally {
      endFilter(hook);
      await world.dispose();
    }
  }
});

Deno.test("SIGTERM to a merge waiting for the repository's lock (another lisa holds it): it stops at once (exit 143), having done nothing", async () => {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  let holder: Deno.ChildProcess | undefined;
  let lisa: Deno.ChildProcess | undefined;
  try {
    const s = await spawnWt(world, "echo w > w.txt; git add w.txt; git commit -qm w");
    await waitCompleted(world, s.session);
    const head = (await gitIn(world, main, ["rev-parse", "HEAD"])).trim();
    const common = (await gitIn(world, main, [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ])).trim();
    const lock = repoLockPath(world.runtimeDir, common);
    holder = new Deno.Command(Deno.execPath(), {
      args: ["run", "-q", "--allow-all", HOLD_LOCK, lock],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = holder.stdout.getReader();
    strictEqual(new TextDecoder().decode((await reader.read()).value), "locked\n");
    lisa = startLisa(world, ["session", "merge", s.session, "--json"]);
    const pid = lisa.pid;
    const waits = () => {
      try {
        return [...Deno.readDirSync(`/proc/${pid}/fd`)].some((e) => {
          try {
            return Deno.readLinkSync(`/proc/${pid}/fd/${e.name}`) === lock;
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    };
    ok(await waitFor(waits, 30_000), "lisa waits for the lock");
    Deno.kill(pid, "SIGTERM");
    const ended = await Promise.race([
      lisa.output(),
      new Promise<null>((r) => setTimeout(() => r(null), 15_000)),
    ]);
    ok(ended !== null, "lisa stopped without waiting out the lock");
    strictEqual(ended.code, 143);
    strictEqual(JSON.parse(new TextDecoder().decode(ended.stdout)).errorCode, "interrupted");
    strictEqual((await gitIn(world, main, ["rev-parse", "HEAD"])).trim(), head);
    lisa = undefined;
  } finally {
    try {
      if (lisa) Deno.kill(lisa.pid, "SIGKILL");
    } catch { /* ended */ }
    await lisa?.status;
    if (holder) {
      await holder.stdin.close();
      await holder.status;
    }
    await world.dispose();
  }
});
