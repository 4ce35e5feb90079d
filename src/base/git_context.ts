/**
 * The environment variables that tie git to one repository, index or worktree. A lisa run from
 * a git hook inherits them (`GIT_DIR`, `GIT_INDEX_FILE`…): passed on, they would point lisa's
 * own git calls, and a worktree session's agent, at the caller's repository instead.
 */

/** Variables that tie git to one repository, index or worktree: never passed on. */
export const GIT_CONTEXT_VARS: readonly string[] = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_PREFIX",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
];

/** A copy of `env` without {@link GIT_CONTEXT_VARS}. */
export function withoutGitContext(
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = { ...env };
  for (const name of GIT_CONTEXT_VARS) delete out[name];
  return out;
}
