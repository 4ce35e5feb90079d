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
 *
 * Every git call runs in a process group of its own (the runner's `group`): at its time limit
 * (`LISA_GIT_TIMEOUT_SECONDS`, not the tmux one: a checkout of a large repository takes
 * minutes) and on a signal to lisa, git and all it started (hooks, filters, the
 * `git reset --hard` of `git worktree add`) are ended before lisa goes on. A step that runs
 * long says so on stderr.
 */
import type { Deps } from "../../base/deps.ts";
import { InterruptedError, LisaError } from "../../base/errors.ts";
import { md5Hex } from "../../base/md5.ts";
import { joinPath } from "../../base/paths.ts";
import type { RunResult } from "../../base/runner.ts";
import { interruption, SIGNAL_NUMBERS } from "../../proc/interrupt.ts";
import { withLock } from "../../store/lock.ts";
import { withoutGitContext } from "../../base/git_context.ts";

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
  /** Called with git's process group once it runs (recorded, to end it after a SIGKILL). */
  onStart?: (pgid: number) => void;
  /** Undoing interrupted work: runs even after a signal interrupted lisa. */
  cleanup?: boolean;
  /** Text written to git's stdin (`--pathspec-from-file=-`). */
  stdin?: string;
}

/** When a git step that runs long first says so, and how often again. */
const PROGRESS_AFTER_MS = 3000;
const PROGRESS_EVERY_MS = 15_000;

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
  // "cannot lock ref 'refs/heads/a/b': 'refs/heads/a' exists": a branch in the way, not a lock.
  if (/exists; cannot create/.test(stderr)) return false;
  return /\.lock'?: File exists|Unable to create '[^']*\.lock'|cannot lock ref|could not lock|Another git process seems to be running|unable to lock/i
    .test(stderr);
}

/** git's error line (with the files it lists after it), else its first line or the exit status. */
export function gitMessage(result: RunResult): string {
  const raw = result.stderr.split("\n").filter((l) => l.trim() !== "");
  const lines = raw.map((l) => l.trim());
  const at = lines.findIndex((l) => /^(fatal|error):/.test(l));
  let message = (lines[at] ?? lines[0] ?? `exit ${result.code}`).replace(/^(fatal|error):\s*/, "");
  // "… the following files would be overwritten by merge:" names them on the tab-indented
  // lines after it: they belong to the message.
  if (message.endsWith(":")) {
    const files: string[] = [];
    for (const line of raw.slice(Math.max(at, 0) + 1)) {
      if (!line.startsWith("\t")) break;
      files.push(line.trim());
    }
    if (files.length > 0) message = `${message} ${files.join(", ")}`;
  }
  return message;
}

/** git's subcommand in `args` (past `-c name=value` options), for messages. */
function stepName(args: readonly string[]): string {
  let i = 0;
  while (args[i] === "-c") i += 2;
  return args.slice(i, args[i] === "worktree" ? i + 2 : i + 1).join(" ");
}

/**
 * Runs `git -C dir …args`. Retries (with a short back-off) while git reports one of its own
 * lock files as taken. Throws `program_not_found` without git, `command_timeout` past
 * `LISA_GIT_TIMEOUT_SECONDS`, `interrupted` once a signal interrupted lisa (unless `cleanup`),
 * and `git_failed` (naming the command and git's message) on a non-zero exit unless
 * `allowFailure`.
 */
export async function git(
  deps: Deps,
  dir: string,
  args: readonly string[],
  options: GitOptions = {},
): Promise<RunResult> {
  const argv = ["git", "-C", dir, ...args];
  const env = gitEnv(deps.env, options.env);
  const limit = deps.config.gitTimeoutSeconds;
  const step = stepName(args);
  const progress = {
    afterMs: PROGRESS_AFTER_MS,
    everyMs: PROGRESS_EVERY_MS,
    report: (ms: number) =>
      deps.io.err(
        `lisa: git ${step} in ${dir} still running after ${Math.round(ms / 1000)} s ` +
          `(limit ${limit} s, LISA_GIT_TIMEOUT_SECONDS)\n`,
      ),
  };
  let result: RunResult | undefined;
  for (let attempt = 1; attempt <= LOCK_RETRIES; attempt++) {
    const signal = interruption();
    if (signal !== null && !options.cleanup) {
      throw new InterruptedError(signal, SIGNAL_NUMBERS[signal] ?? 15, `about to run git ${step}`);
    }
    result = await deps.runner.run(argv, {
      env,
      clearEnv: true,
      allowFailure: true,
      group: true,
      timeoutMs: limit * 1000,
      onStart: options.onStart,
      stdin: options.stdin,
      progress,
    });
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
 * `lock_busy` after {@link REPO_LOCK_TIMEOUT_MS}, and `interrupted` when a signal interrupts
 * lisa's section while it waits.
 */
export async function withRepoLock<T>(
  runtimeDir: string,
  commonDir: string,
  fn: () => Promise<T>,
): Promise<T> {
  const lockName = `lisa's lock of the repository ${commonDir}`;
  return await withLock(repoLockPath(runtimeDir, commonDir), {
    timeoutMs: REPO_LOCK_TIMEOUT_MS,
    // A signal to lisa in a section (`proc/interrupt.ts`) does not wait for another lisa's merge.
    stop: () => {
      const signal = interruption();
      if (signal === null) return null;
      return new InterruptedError(signal, SIGNAL_NUMBERS[signal] ?? 15, "waiting for " + lockName);
    },
  }, fn);
}

/**
 * Drops git's entry of the worktree at `path` (whose directory is gone) and no other:
 * `git worktree prune` would also drop the entry of every other worktree whose directory is
 * missing right now — a person's worktree on an unmounted disk or a moved directory, whose
 * commits and index then hang from no ref. The entry is the dir under `<common dir>/worktrees/`
 * whose `gitdir` file names `path`'s `.git`.
 */
export async function forgetWorktree(
  deps: Deps,
  repoRoot: string,
  path: string,
  options: GitOptions = {},
): Promise<void> {
  const common = await git(deps, repoRoot, [
    "rev-parse",
    "--path-format=absolute",
    "--git-common-dir",
  ], { ...options, allowFailure: true });
  if (!common.success) return;
  const admin = joinPath(common.stdout.trim(), "worktrees");
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(admin)];
  } catch {
    return;
  }
  // git may have written the path with symlinks resolved: the directory is gone, its parent not.
  const want = new Set([joinPath(path, ".git")]);
  try {
    const cut = path.replace(/\/+$/, "").lastIndexOf("/");
    want.add(joinPath(Deno.realPathSync(path.slice(0, cut) || "/"), path.slice(cut + 1), ".git"));
  } catch { /* no parent either */ }
  for (const entry of entries) {
    let gitdir: string;
    try {
      gitdir = Deno.readTextFileSync(joinPath(admin, entry.name, "gitdir")).trim();
    } catch {
      continue;
    }
    if (!want.has(gitdir)) continue;
    try {
      Deno.removeSync(joinPath(admin, entry.name), { recursive: true });
    } catch { /* already gone */ }
  }
}
