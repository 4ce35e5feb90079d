/**
 * The project a command works on: canonical root, hash, slug, runtime dir and tmux socket.
 */
import type { Deps } from "./deps.ts";
import { canonicalProjectRoot, projectHash, projectSlug } from "./identity.ts";
import { ensureRuntimeDir, socketPath } from "../store/runtime_dir.ts";

/** Where a project's sessions live. */
export interface Project {
  root: string;
  hash: string;
  slug: string;
  runtimeDir: string;
  socketPath: string;
}

/**
 * Resolves the project from `--project-root`, else `LISA_PROJECT_ROOT` (set inside lisa
 * sessions, so nested calls never depend on cwd), else cwd. Creates/checks the runtime dir.
 * Throws `project_root_not_found` or `runtime_dir_unsafe`.
 */
export function resolveProject(deps: Deps, projectRootFlag?: string): Project {
  const root = canonicalProjectRoot(projectRootFlag ?? deps.config.projectRoot, deps.cwd);
  const runtimeDir = ensureRuntimeDir(deps.config.runtimeDir, deps.uid);
  const hash = projectHash(root);
  const slug = projectSlug(root);
  return {
    root,
    hash,
    slug,
    runtimeDir,
    socketPath: socketPath(deps.config.tmuxSocketDir ?? runtimeDir, slug, hash),
  };
}
