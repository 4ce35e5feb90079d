/**
 * The kill domain's face: `lisa session kill` and `kill-all`: a session, its descendants and
 * every process of its panes, ended.
 *
 * Files outside this folder import this file only (see tests/unit/layering_test.ts).
 */
export { type KeptWorktree, killAllSessions, killSessionTree, type ProcessReport } from "./kill.ts";
