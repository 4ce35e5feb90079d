import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { loadConfig } from "../../../../src/base/config.ts";
import { defaultBranchName } from "../../../../src/core/worktree/worktree_plan.ts";
import { parseChangedFiles } from "../../../../src/core/worktree/describe.ts";
import { defaultMergeMessage, pendingCommitMessage } from "../../../../src/core/worktree/merge.ts";

Deno.test("the default branch is lisa/<alias>, else a short stand-in from the session name", () => {
  strictEqual(
    defaultBranchName({
      session: "lisa-x-261125-101010-123456789-claude-exec",
      alias: "x-calm-owl",
    }),
    "lisa/x-calm-owl",
  );
  strictEqual(
    defaultBranchName({ session: "lisa-myproj-261125-101010-123456789-claude-interactive" }),
    "lisa/myproj-claude-123456789",
  );
  strictEqual(
    defaultBranchName({ session: "lisa-myproj-261125-101010-000000042-codex-exec-fixbug" }),
    "lisa/myproj-fixbug-000000042",
  );
  strictEqual(defaultBranchName({ session: "lisa-reviewer_2", alias: null }), "lisa/reviewer_2");
});

Deno.test("LISA_WORKTREE_DIR defaults under XDG_STATE_HOME, else ~/.local/state", () => {
  strictEqual(
    loadConfig({ XDG_STATE_HOME: "/s/", HOME: "/h" }, 1).config.worktreeDir,
    "/s/lisa/worktrees",
  );
  strictEqual(loadConfig({ HOME: "/h" }, 1).config.worktreeDir, "/h/.local/state/lisa/worktrees");
  strictEqual(loadConfig({ LISA_WORKTREE_DIR: "/w", HOME: "/h" }, 1).config.worktreeDir, "/w");
  strictEqual(loadConfig({}, 7).config.worktreeDir, "/tmp/lisa-7-worktrees");
});

Deno.test("changed files join git's name-status and numstat (renames, binaries, spaces)", () => {
  const nameStatus = "M\0a b.txt\0R087\0old.txt\0new.txt\0A\0img.png\0D\0gone.txt\0";
  const numstat = "2\t1\ta b.txt\0" + "3\t0\t\0old.txt\0new.txt\0" + "-\t-\timg.png\0" +
    "0\t4\tgone.txt\0";
  deepStrictEqual(parseChangedFiles(nameStatus, numstat), [
    { path: "a b.txt", status: "modified", insertions: 2, deletions: 1 },
    { path: "new.txt", oldPath: "old.txt", status: "renamed", insertions: 3, deletions: 0 },
    { path: "img.png", status: "added", insertions: null, deletions: null },
    { path: "gone.txt", status: "deleted", insertions: 0, deletions: 4 },
  ]);
});

Deno.test("merge and pending-work commit messages name the session", () => {
  strictEqual(
    defaultMergeMessage("lisa-a", "lisa/a", false),
    "Merge lisa session lisa-a (branch lisa/a)",
  );
  strictEqual(
    defaultMergeMessage("lisa-a", "lisa/a", true),
    "lisa: work of session lisa-a (branch lisa/a, squashed)",
  );
  strictEqual(pendingCommitMessage("lisa-a"), "lisa: uncommitted work of session lisa-a");
});
