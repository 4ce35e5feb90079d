/**
 * The worktree steps of `spawn --worktree`, loaded only by such a spawn (every other spawn's
 * start-up cost is unchanged). A lazily imported module is bundled whole: this one re-exports
 * only what spawn calls, not the worktree domain's whole face (diff, merge, prune).
 */
export {
  confirmWorktree,
  createWorktree,
  discardWorktree,
  openSpawnSection,
  planWorktree,
  type WorktreePlan,
} from "../worktree/mod.ts";
