/**
 * The project a command works on: canonical root, hash, slug, runtime dir and tmux socket.
 */
import type { Deps } from "../../base/deps.ts";
import { canonicalProjectRoot, projectHash, projectSlug } from "./identity.ts";
import { ensureRuntimeDir, ensureSocketDir, socketPath } from "../../store/runtime_dir.ts";

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
 * sessions, so nested calls never depend on cwd), else cwd. Creates/checks the runtime dir and
 * a separate socket dir (`LISA_TMUX_SOCKET_DIR`) the same way: tmux cannot create a socket in a
 * missing directory (and 3.3a still exits 0). Throws `project_root_not_found`,
 * `runtime_dir_unsafe` or `socket_dir_unsafe`.
 */
export function resolveProject(deps: Deps, projectRootFlag?: string): Project {
  const root = canonicalProjectRoot(projectRootFlag ?? deps.config.projectRoot, deps.cwd);
  const runtimeDir = ensureRuntimeDir(deps.config.runtimeDir, deps.uid);
  const socketDir = deps.config.tmuxSocketDir === undefined ||
      deps.config.tmuxSocketDir === runtimeDir
    ? runtimeDir
    : ensureSocketDir(deps.config.tmuxSocketDir, deps.uid);
  const hash = projectHash(root);
  const slug = projectSlug(root);
  return { root, hash, slug, runtimeDir, socketPath: socketPath(socketDir, slug, hash) };
}
