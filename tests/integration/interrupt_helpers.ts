/**
 * Helpers of the tests that interrupt lisa while git works for it: a git step (a smudge filter
 * or a hook) that blocks once armed and says who runs it, lisa started as a process of its own
 * (to be sent a signal), and a finished worktree session ready to merge.
 */
import { LISA_ARGV, type World } from "../helpers/world.ts";
import { gitIn, makeGitWorld, spawnWt, waitCompleted } from "./worktree_helpers.ts";

/** A git step that blocks once armed: its processes' pids are written to `pidFile`. */
export interface SlowCheckout {
  pidFile: string;
  /** Makes the next run block (once). */
  arm(): void;
}

/**
 * A script that, when armed (once), writes its shell's pid, its parent's (the git that runs it)
 * and a child's to a file, then blocks for 30 s; then copies stdin to stdout (a smudge filter's
 * work) unless `hook`.
 */
export function blockingScript(world: World, name: string, hook = false): SlowCheckout {
  const pidFile = `${world.base}/${name}.pids`;
  const armFile = `${world.base}/${name}.armed`;
  const script = `${world.base}/${name}.sh`;
  Deno.writeTextFileSync(
    script,
    `#!/bin/sh\nif rm '${armFile}' 2>/dev/null; then\n  echo "$$ $PPID" >> '${pidFile}'\n` +
      `  sleep 30 &\n  echo "$!" >> '${pidFile}'\n  wait\nfi\n${hook ? "exit 0" : "cat"}\n`,
  );
  Deno.chmodSync(script, 0o755);
  return { pidFile, arm: () => Deno.writeTextFileSync(armFile, "") };
}

/**
 * Commits `slow.txt` under a smudge filter (`blockingScript`): a checkout that writes it blocks
 * once armed (here: armed).
 */
export async function slowCheckout(world: World, armed = true): Promise<SlowCheckout> {
  const main = world.projectRoot;
  const slow = blockingScript(world, "smudge");
  Deno.writeTextFileSync(`${main}/.gitattributes`, "slow.txt filter=slow\n");
  Deno.writeTextFileSync(`${main}/slow.txt`, "slow\n");
  await gitIn(world, main, ["add", ".gitattributes", "slow.txt"]);
  await gitIn(world, main, ["commit", "-q", "-m", "slow file"]);
  await gitIn(world, main, ["config", "filter.slow.smudge", `${world.base}/smudge.sh`]);
  if (armed) slow.arm();
  return slow;
}

/** The pids the filter wrote so far. */
export function filterPids(slow: SlowCheckout): number[] {
  try {
    return Deno.readTextFileSync(slow.pidFile).split(/\s+/).filter((w) => w !== "").map(Number);
  } catch {
    return [];
  }
}

/** True while `pid` is a live (not zombie) process. */
export function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** Ends what the filter left (a test that failed must not leave its processes running). */
export function endFilter(slow: SlowCheckout): void {
  for (const pid of filterPids(slow)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
}

/** Starts lisa with `args` as a process of its own in the world. */
export function startLisa(world: World, args: string[]): Deno.ChildProcess {
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
/**
 * A finished worktree session whose branch adds files (a new directory too), changes `f.txt`
 * and `slow.txt` and deletes `gone.txt`; the main checkout has a local change and an untracked
 * file the merge does not touch. A merge writes `a*.txt` and `f.txt`, then `slow.txt` (where an
 * armed filter blocks it), then `z/new.txt`.
 */
export async function mergeWorld(): Promise<{ world: World; session: string; slow: SlowCheckout }> {
  const world = await makeGitWorld();
  const main = world.projectRoot;
  Deno.writeTextFileSync(`${main}/gone.txt`, "gone\n");
  Deno.writeTextFileSync(`${main}/keep.txt`, "keep\n");
  await gitIn(world, main, ["add", "gone.txt", "keep.txt"]);
  await gitIn(world, main, ["commit", "-q", "-m", "more"]);
  const slow = await slowCheckout(world, false);
  const s = await spawnWt(
    world,
    "for n in 1 2 3; do echo $n > a$n.txt; done; echo agent > f.txt; echo fast > slow.txt; " +
      "rm gone.txt; mkdir z; echo new > z/new.txt; git add -A; git commit -qm 'agent work'",
  );
  await waitCompleted(world, s.session);
  await world.lisaInProcess(["session", "kill", "--session", s.session]);
  Deno.writeTextFileSync(`${main}/keep.txt`, "keep, edited by the person\n");
  Deno.writeTextFileSync(`${main}/notes.txt`, "the person's untracked notes\n");
  return { world, session: s.session, slow };
}

/**
 * A core.fsmonitor hook that blocks `git worktree remove` once armed: git checks
 * the worktree with `git status` before it deletes anything, and status asks the hook. Set it
 * with `git config core.fsmonitor <script>`.
 */
export function blockingWorktreeRemove(world: World): { hook: SlowCheckout; script: string } {
  const hook = blockingScript(world, "fsmonitor", true);
  const script = `${world.base}/fsmonitor.sh`;
  Deno.writeTextFileSync(
    script,
    Deno.readTextFileSync(script).replace(
      "if rm",
      'case "$(tr "\\0" " " < /proc/$PPID/cmdline)" in\n' +
        '  *"worktree remove"*) ;;\n  *) exit 1 ;;\nesac\nif rm',
    ),
  );
  return { hook, script };
}
