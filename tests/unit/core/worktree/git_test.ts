import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import type { Runner, RunOptions, RunResult } from "../../../../src/base/runner.ts";
import { LisaError } from "../../../../src/base/errors.ts";
import {
  git,
  gitEnv,
  gitMessage,
  isGitLockError,
  repoLockPath,
  splitZ,
} from "../../../../src/core/worktree/git.ts";
import { fakeDeps } from "../../../helpers/fake_deps.ts";
import { MemoryIo } from "../../../../src/cli/io.ts";

/** A runner answering each call with the next of `results`, recording argv and options. */
function scripted(results: RunResult[]) {
  const calls: { argv: readonly string[]; options?: RunOptions }[] = [];
  const runner: Runner = {
    run(argv, options) {
      calls.push({ argv, options });
      const next = results.shift();
      if (next === undefined) return Promise.reject(new Error(`unexpected: ${argv.join(" ")}`));
      return Promise.resolve(next);
    },
  };
  return { runner, calls };
}

const ok0: RunResult = { code: 0, success: true, stdout: "done\n", stderr: "" };
const locked: RunResult = {
  code: 128,
  success: false,
  stdout: "",
  stderr: "fatal: Unable to create '/r/.git/index.lock': File exists.\n\nAnother git process " +
    "seems to be running in this repository",
};

Deno.test("git runs `git -C dir` with argv words, in a clean environment without repository context", async () => {
  const { runner, calls } = scripted([ok0]);
  const deps = fakeDeps({
    runner,
    env: { PATH: "/bin", GIT_DIR: "/elsewhere/.git", GIT_INDEX_FILE: "/x", HOME: "/h" },
  });
  const r = await git(deps, "/repo", ["status", "--porcelain"]);
  strictEqual(r.stdout, "done\n");
  deepStrictEqual(calls[0].argv, ["git", "-C", "/repo", "status", "--porcelain"]);
  const env = calls[0].options?.env ?? {};
  strictEqual(calls[0].options?.clearEnv, true);
  strictEqual(env.GIT_DIR, undefined);
  strictEqual(env.GIT_INDEX_FILE, undefined);
  strictEqual(env.PATH, "/bin");
  strictEqual(env.LC_ALL, "C");
  strictEqual(gitEnv({}, { GIT_INDEX_FILE: "/tmp/i" }).GIT_INDEX_FILE, "/tmp/i");
});

Deno.test("git retries while another process holds one of git's lock files, then succeeds", async () => {
  const { runner, calls } = scripted([locked, locked, ok0]);
  const slept: number[] = [];
  const r = await git(fakeDeps({ runner, slept }), "/repo", ["worktree", "add", "x"]);
  strictEqual(r.success, true);
  strictEqual(calls.length, 3);
  deepStrictEqual(slept, [50, 100]);
});

Deno.test("git does not retry other failures, and names the command and git's message", async () => {
  const { runner, calls } = scripted([{
    code: 128,
    success: false,
    stdout: "",
    stderr: "fatal: invalid reference: nope\n",
  }]);
  await rejects(git(fakeDeps({ runner }), "/repo", ["checkout", "nope"]), (e: unknown) => {
    ok(e instanceof LisaError);
    strictEqual(e.code, "git_failed");
    strictEqual(e.message, "git checkout nope failed: invalid reference: nope");
    return true;
  });
  strictEqual(calls.length, 1);
  const { runner: r2 } = scripted([{ code: 1, success: false, stdout: "", stderr: "" }]);
  strictEqual(
    (await git(fakeDeps({ runner: r2 }), "/r", ["diff", "--quiet"], {
      allowFailure: true,
    })).code,
    1,
  );
});

Deno.test("git lock errors are told apart from other failures", () => {
  ok(isGitLockError(locked.stderr));
  ok(isGitLockError("error: cannot lock ref 'refs/heads/lisa/x': Unable to create"));
  ok(isGitLockError("fatal: could not lock config file .git/config: File exists"));
  ok(!isGitLockError("fatal: not a git repository (or any of the parent directories): .git"));
  ok(!isGitLockError("fatal: a branch named 'x' already exists"));
});

Deno.test("gitMessage prefers git's fatal/error line; splitZ drops the empty tail", () => {
  strictEqual(
    gitMessage({ code: 1, success: false, stdout: "", stderr: "hint: x\nfatal: boom\n" }),
    "boom",
  );
  strictEqual(gitMessage({ code: 3, success: false, stdout: "", stderr: "" }), "exit 3");
  deepStrictEqual(splitZ("a\0b c\0"), ["a", "b c"]);
  deepStrictEqual(splitZ(""), []);
});

Deno.test("one lock file per repository (its common git dir), in the runtime dir", () => {
  const a = repoLockPath("/run", "/r/.git");
  strictEqual(a, repoLockPath("/run", "/r/.git"));
  ok(a !== repoLockPath("/run", "/s/.git"));
  ok(/^\/run\/\.lisa-git-[0-9a-f]{8}\.lock$/.test(a), a);
});

Deno.test("git runs in a process group of its own under LISA_GIT_TIMEOUT_SECONDS, and says on stderr when a step runs long", async () => {
  const calls: RunOptions[] = [];
  const runner: Runner = {
    run(_argv, options) {
      calls.push(options ?? {});
      options?.progress?.report(4200);
      return Promise.resolve(ok0);
    },
  };
  const io = new MemoryIo();
  const deps = fakeDeps({ runner, io, env: { LISA_GIT_TIMEOUT_SECONDS: "90" } });
  await git(deps, "/repo", ["-c", "core.quotePath=false", "merge", "--no-ff", "b"]);
  strictEqual(calls[0].group, true);
  strictEqual(calls[0].timeoutMs, 90_000);
  strictEqual(
    io.stderr,
    "lisa: git merge in /repo still running after 4 s (limit 90 s, LISA_GIT_TIMEOUT_SECONDS)\n",
  );
});
