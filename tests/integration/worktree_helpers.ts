/**
 * Helpers of the worktree tests: a world whose project is a real git repository (identity and
 * config from the environment only), git calls, and waiting for a `--command` session to end.
 */
import { ok, strictEqual } from "node:assert/strict";
import { loadConfig } from "../../src/base/config.ts";
import { type Deps, makeDeps } from "../../src/base/deps.ts";
import { MemoryIo } from "../../src/cli/io.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";

/** git's identity and config for tests: nothing read from the machine's or the user's config. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: "Lisa Test",
  GIT_AUTHOR_EMAIL: "lisa@test.invalid",
  GIT_COMMITTER_NAME: "Lisa Test",
  GIT_COMMITTER_EMAIL: "lisa@test.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Runs git in `dir` with the world's environment; returns stdout (throws on failure). */
export async function gitIn(world: World, dir: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, ...args],
    env: world.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
  }
  return dec.decode(out.stdout);
}

/** A world whose project root is a git repository on `main` with one commit (f.txt = "line"). */
export async function makeGitWorld(options: { init?: boolean } = {}): Promise<World> {
  const world = await makeWorld({ env: GIT_ENV });
  if (options.init !== false) {
    await gitIn(world, world.projectRoot, ["init", "-q", "-b", "main"]);
    Deno.writeTextFileSync(`${world.projectRoot}/f.txt`, "line\n");
    await gitIn(world, world.projectRoot, ["add", "f.txt"]);
    await gitIn(world, world.projectRoot, ["commit", "-q", "-m", "init"]);
  }
  return world;
}

/** The world's worktree directory (LISA_WORKTREE_DIR's default under its HOME). */
export function worktreeRoot(world: World): string {
  return `${world.home}/.local/state/lisa/worktrees`;
}

/** Everything under the worktree root (relative names), [] when it does not exist. */
export function worktreeEntries(world: World): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries: Deno.DirEntry[] = [];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const e of entries) {
      out.push(`${prefix}${e.name}`);
      if (e.isDirectory && prefix === "") walk(`${dir}/${e.name}`, `${e.name}/`);
    }
  };
  walk(worktreeRoot(world), "");
  return out.sort();
}

/** The worktree part of a spawn/status payload. */
export interface WorktreeJson {
  path: string;
  branch: string;
  base: string;
  baseCommit: string;
  repoRoot: string;
}

/** A `spawn --json` payload of a worktree session. */
export interface WtSpawn {
  session: string;
  socketPath: string;
  worktree: WorktreeJson;
}

/** `spawn --worktree --command <command> …extra --json` (in-process); asserts success. */
export async function spawnWt(
  world: World,
  command: string,
  extra: string[] = [],
): Promise<WtSpawn> {
  const r = await world.lisaInProcess([
    "session",
    "spawn",
    "--worktree",
    "--command",
    command,
    ...extra,
    "--json",
  ]);
  strictEqual(r.code, 0, `${r.stdout}${r.stderr}`);
  ok(r.json?.worktree, r.stdout);
  return r.json as unknown as WtSpawn;
}

/** Waits until `status` says the session completed (its command ended with 0). */
export async function waitCompleted(world: World, session: string): Promise<void> {
  const state = await waitFor(async () => {
    const r = await world.lisaInProcess(["session", "status", "--session", session, "--json"]);
    const s = String(r.json?.sessionState);
    return s === "completed" || s === "crashed" ? s : "";
  }, 20_000);
  strictEqual(state, "completed", `${session} did not complete`);
  // The done file comes a moment before the wrapper's exit, and prune keeps a session whose pane
  // still runs ("live"): wait for the pane to be dead too.
  const paneDead = async () => {
    for (const entry of Deno.readDirSync(world.socketDir)) {
      const r = await world.tmux(`${world.socketDir}/${entry.name}`, [
        "list-panes",
        "-t",
        `=${session}`,
        "-F",
        "#{pane_dead}",
      ]);
      if (r.code === 0) return r.stdout.trim().split("\n").every((d) => d === "1");
    }
    return true;
  };
  ok(await waitFor(paneDead, 20_000), `${session}'s pane did not end`);
}

/** Real deps in the world (to call core functions directly). */
export function worldDeps(world: World): Deps {
  const config = loadConfig(world.env, Deno.uid() ?? 0).config;
  return makeDeps({
    env: world.env,
    config,
    cwd: world.projectRoot,
    uid: Deno.uid() ?? 0,
    now: () => new Date(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    runner: new DenoRunner(config.cmdTimeoutSeconds * 1000),
    io: new MemoryIo(),
    selfCommand: LISA_ARGV,
  });
}

/** Paths of `git worktree list` in the repository. */
export async function gitWorktrees(world: World): Promise<string[]> {
  const out = await gitIn(world, world.projectRoot, ["worktree", "list", "--porcelain"]);
  return out.split("\n").filter((l) => l.startsWith("worktree ")).map((l) => l.slice(9));
}

/** Local branch names of the repository. */
export async function branches(world: World): Promise<string[]> {
  const out = await gitIn(world, world.projectRoot, [
    "for-each-ref",
    "--format=%(refname:short)",
    "refs/heads",
  ]);
  return out.split("\n").filter((l) => l !== "").sort();
}
