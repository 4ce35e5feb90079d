/**
 * The worktree domain's face: a `spawn --worktree` session's git worktree: planning and creating
 * it, `diff` and `merge` of its work, and pruning it once nothing would be lost.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts). `diff`,
 * `merge` and pruning load their modules on their first call: a spawn loads only the planning
 * and creating it needs.
 */
import { lazyImport } from "../../base/lazy.ts";

export {
  confirmWorktree,
  createWorktree,
  discardWorktree,
  openSpawnSection,
  type SpawnSection,
} from "./create.ts";
export type { DiffResult } from "./describe.ts";
export { planWorktree, type WorktreePlan } from "./worktree_plan.ts";
export type { WorktreePruneResult } from "./worktree_prune.ts";

type Describe = typeof import("./describe.ts");
type Merge = typeof import("./merge.ts");
type Prune = typeof import("./worktree_prune.ts");

/** `lisa session diff` (`describe.ts`). */
export async function diffSession(...args: Parameters<Describe["diffSession"]>) {
  const m = await lazyImport<Describe>(new URL("./describe.ts", import.meta.url));
  return await m.diffSession(...args);
}

/** `lisa session merge` (`merge.ts`). */
export async function mergeSession(...args: Parameters<Merge["mergeSession"]>) {
  const m = await lazyImport<Merge>(new URL("./merge.ts", import.meta.url));
  return await m.mergeSession(...args);
}

/** The worktree half of `session prune` (`worktree_prune.ts`). */
export async function pruneWorktrees(...args: Parameters<Prune["pruneWorktrees"]>) {
  const m = await lazyImport<Prune>(new URL("./worktree_prune.ts", import.meta.url));
  return await m.pruneWorktrees(...args);
}
