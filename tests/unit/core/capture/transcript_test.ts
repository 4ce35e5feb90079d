import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  parseTranscript,
  transcriptPath,
  transcriptText,
} from "../../../../src/core/capture/transcript.ts";
import { deltaTime } from "../../../../src/core/capture/capture.ts";
import type { Deps } from "../../../../src/base/deps.ts";
import type { SessionMeta } from "../../../../src/base/types.ts";

Deno.test("a claude transcript gives its user and assistant text, tool parts and meta lines left out", () => {
  const lines = [
    JSON.stringify({ type: "user", message: { role: "user", content: "Fix it" }, timestamp: "t1" }),
    "not json",
    JSON.stringify({ type: "user", isMeta: true, message: { role: "user", content: "caveat" } }),
    JSON.stringify({
      type: "assistant",
      message: {
        role: "assistant",
        content: [{ type: "tool_use", name: "Edit" }, { type: "text", text: "Done." }],
      },
      timestamp: "t2",
    }),
    JSON.stringify({ type: "summary", summary: "x" }),
    JSON.stringify({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", content: "ok" }] },
    }),
  ];
  const messages = parseTranscript(lines.join("\n"));
  deepStrictEqual(messages, [
    { role: "user", text: "Fix it", timestamp: "t1" },
    { role: "assistant", text: "Done.", timestamp: "t2" },
  ]);
  strictEqual(transcriptText(messages), "user: Fix it\n\nassistant: Done.");
});

Deno.test("the transcript path is claude's: the project root's non-alphanumerics as dashes", () => {
  const deps = { env: { HOME: "/home/me" } } as unknown as Deps;
  const meta = {
    agent: "claude",
    agentSessionId: "abc-123",
    projectRoot: "/work/my.proj",
  } as SessionMeta;
  strictEqual(
    transcriptPath(deps, meta),
    "/home/me/.claude/projects/-work-my-proj/abc-123.jsonl",
  );
  const configured = { env: { HOME: "/h", CLAUDE_CONFIG_DIR: "/cfg" } } as unknown as Deps;
  strictEqual(transcriptPath(configured, meta), "/cfg/projects/-work-my-proj/abc-123.jsonl");
  // A worktree session's claude runs in the worktree, in the project root's subdirectory.
  const inWorktree = {
    ...meta,
    projectRoot: "/repo/sub",
    worktree: {
      path: "/wt/x",
      repoRoot: "/repo",
      branch: "lisa/x",
      base: "HEAD",
      baseCommit: "abc",
    },
  };
  strictEqual(
    transcriptPath(deps, inWorktree),
    "/home/me/.claude/projects/-wt-x-sub/abc-123.jsonl",
  );
  strictEqual(transcriptPath(deps, { ...meta, agent: "codex" }), null);
  strictEqual(transcriptPath(deps, { ...meta, commandOnly: true }), null);
});

Deno.test("--delta-from takes @unix seconds and RFC 3339 times; other text is an offset", () => {
  strictEqual(deltaTime("@1700000000"), 1_700_000_000_000);
  strictEqual(deltaTime("@1.5"), 1500);
  strictEqual(deltaTime("2026-01-02T03:04:05Z"), Date.UTC(2026, 0, 2, 3, 4, 5));
  strictEqual(deltaTime("2026-01-02T03:04:05+01:00"), Date.UTC(2026, 0, 2, 2, 4, 5));
  strictEqual(deltaTime("120"), undefined);
  strictEqual(deltaTime("o2.1.0.c.0.x"), undefined);
  strictEqual(deltaTime("2026-01-02"), undefined);
});
