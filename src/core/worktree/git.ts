/**
 * git through the runner: argv arrays, always `git -C <dir>`, in the caller's environment minus
 * the variables that would point git at another repository (a lisa run from a git hook inherits
 * `GIT_DIR`, `GIT_INDEX_FILE`…), with messages in the C locale so they can be recognised.
 *
 * git takes its own lock files (`index.lock`, `<ref>.lock`, `config.lock`) with a create-or-fail
 * and no wait: two commands on one repository at the same moment make one of them fail with
 * "Unable to create '….lock': File exists" or "cannot lock ref". lisa's own git calls that
 * write to a repository run under one lisa lock per repository ({@link withRepoLock}), and a
 * call that still meets a git lock (a person's git, an IDE) is retried a few times.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { md5Hex } from "../../base/md5.ts";
import { joinPath } from "../../base/paths.ts";
import type { RunResult } from "../../base/runner.ts";
import { withLock } from "../../store/lock.ts";
import { withoutGitContext } from "./git_context.ts";

/** How long a lisa git lock (one per repository) is waited for. */
export const REPO_LOCK_TIMEOUT_MS = 120_000;
/** Attempts of a git call that meets one of git's own lock files. */
const LOCK_RETRIES = 6;

/** Options of {@link git}. */
export interface GitOptions {
  /** Do not throw on a non-zero exit (the caller reads `code`). */
  allowFailure?: boolean;
  /** Extra environment (e.g. `GIT_INDEX_FILE` of a scratch index). */
  env?: Record<string, string>;
}

/** The environment git runs in: the caller's, without repository context, in the C locale. */
export function gitEnv(
  env: Readonly<Record<string, string>>,
  extra: Record<string, string> = {},
): Record<string, string> {
  const out = withoutGitContext(env);
  out.LC_ALL = "C";
  out.GIT_TERMINAL_PROMPT = "0";
  // No optional locks: `git status` in an agent's worktree must not refresh (lock and rewrite)
  // its index while the agent runs git there.
  out.GIT_OPTIONAL_LOCKS = "0";
  // Never open an editor (merge messages are given) or a pager.
  out.GIT_EDITOR = "true";
  out.GIT_PAGER = "cat";
  return { ...out, ...extra };
}

/** True when git failed because another process held one of its lock files. */
export function isGitLockError(stderr: string): boolean {
  return /\.lock'?: File exists|Unable to create '[^']*\.lock'|cannot lock ref|could not lock|Another git process seems to be running|unable to lock/i
    .test(stderr);
}

/** The first line of git's stderr (or the exit status), for error messages. */
export function gitMessage(result: RunResult): string {
  const lines = result.stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const fatal = lines.find((l) => /^(fatal|error):/.test(l));
  return (fatal ?? lines[0] ?? `exit ${result.code}`).replace(/^(fatal|error):\s*/, "");
}

/**
 * Runs `git -C dir …args`. Retries (with a short back-off) while git reports one of its own
 * lock files as taken. Throws `program_not_found` without git, and `git_failed` (naming the
 * command and git's message) on a non-zero exit unless `allowFailure`.
 */
export async function git(
  deps: Deps,
  dir: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<RunResult> {
  const argv = ["git", "-C", dir, ...args];
  const env = gitEnv(deps.env, options.env);
  let result: RunResult | undefined;
  for (let attempt = 1; attempt <= LOCK_RETRIES; attempt++) {
    result = await deps.runner.run(argv, { env, clearEnv: true, allowFailure: true });
    if (result.success || !isGitLockError(result.stderr)) break;
    if (attempt < LOCK_RETRIES) await deps.sleep(50 * 2 ** (attempt - 1));
  }
  if (!result!.success && !options.allowFailure) {
    throw new LisaError("git_failed", `git ${args.join(" ")} failed: ${gitMessage(result!)}`, {
      details: { argv, exitStatus: result!.code, stderr: result!.stderr.trim() },
    });
  }
  return result!;
}

/** `git … -z` output split into its NUL-separated entries (the empty tail dropped). */
export function splitZ(text: string): string[] {
  const parts = text.split("\0");
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** The lisa lock file of the repository whose common git dir is `commonDir`. */
export function repoLockPath(runtimeDir: string, commonDir: string): string {
  return joinPath(runtimeDir, `.lisa-git-${md5Hex(commonDir).slice(0, 8)}.lock`);
}

/**
 * Runs `fn` holding lisa's lock on one repository (its common git dir), so lisa's own writes
 * to it (worktree add/remove, merge, branch deletion) never race each other. Unlike the state
 * locks, this one is held across git calls: serialising them is its purpose. Throws
 * `lock_busy` after {@link REPO_LOCK_TIMEOUT_MS}.
 */
export async function withRepoLock<T>(
  runtimeDir: string,
  commonDir: string,
  fn: () => Promise<T>,
): Promise<T> {
  return await withLock(repoLockPath(runtimeDir, commonDir), {
    timeoutMs: REPO_LOCK_TIMEOUT_MS,
  }, fn);
}
