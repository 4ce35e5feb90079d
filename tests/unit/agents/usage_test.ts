import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  addUsage,
  claudeTurnUsage,
  codexRolloutPath,
  codexTurnUsage,
  readClaudeUsage,
  UsageReader,
} from "../../../src/agents/usage.ts";

const P1 = "20aaab00-d194-4ba8-af70-dbd5976adb5f";
const P2 = "af7e5dfd-4198-4cab-8b54-7105b1882d64";

/** An assistant entry as claude 2.1.197 writes it (trimmed to the fields that matter). */
function assistant(id: string, at: string, usage: Record<string, number>, content = "text") {
  return {
    parentUuid: "x",
    isSidechain: false,
    message: {
      id,
      type: "message",
      role: "assistant",
      model: "claude-opus-4-8",
      content: [
        content === "tool"
          ? { type: "tool_use", id: "toolu_1", name: "Bash", input: {} }
          : { type: "text", text: "MOCK_REPLY_OK" },
      ],
      usage: { ...usage, service_tier: "standard", server_tool_use: { web_search_requests: 0 } },
    },
    type: "assistant",
    timestamp: at,
  };
}

const USAGE = {
  input_tokens: 10,
  cache_creation_input_tokens: 3,
  cache_read_input_tokens: 100,
  output_tokens: 5,
};

/** A transcript of two turns: one with a tool call (two messages, one streamed twice), one without. */
function transcript(): string {
  const lines = [
    { type: "mode", mode: "normal" },
    {
      type: "user",
      promptId: P1,
      message: { role: "user", content: "start the background job" },
      timestamp: "2026-11-27T19:40:48.590Z",
    },
    assistant("msg_1", "2026-11-27T19:40:49.200Z", USAGE, "tool"),
    {
      type: "user",
      promptId: P1,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1" }] },
      timestamp: "2026-11-27T19:40:49.898Z",
    },
    // The same message written as two entries (thinking, then text): counted once.
    assistant("msg_2", "2026-11-27T19:40:50.100Z", USAGE),
    assistant("msg_2", "2026-11-27T19:40:50.110Z", USAGE),
    { type: "system", subtype: "turn_duration", durationMs: 1723 },
    {
      type: "user",
      promptId: P2,
      message: { role: "user", content: "<task-notification>…</task-notification>" },
      timestamp: "2026-11-27T19:40:58.000Z",
    },
    assistant("msg_3", "2026-11-27T19:40:58.500Z", { input_tokens: 7, output_tokens: 2 }),
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

Deno.test("a claude turn's tokens are its prompt's messages, each counted once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.jsonl`;
    Deno.writeTextFileSync(path, transcript() + "{not json\n");
    const index = readClaudeUsage(path)!;
    deepStrictEqual(claudeTurnUsage(index, { promptId: P1 }), {
      inputTokens: 20,
      outputTokens: 10,
      cacheReadTokens: 200,
      cacheWriteTokens: 6,
    });
    deepStrictEqual(claudeTurnUsage(index, { promptId: P2 }), {
      inputTokens: 7,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    // A prompt the transcript does not have: unknown, not zero.
    strictEqual(claudeTurnUsage(index, { promptId: "other" }), null);
    // Without a prompt id (an older claude): the messages of the turn's time span.
    deepStrictEqual(
      claudeTurnUsage(index, {
        startMs: Date.parse("2026-11-27T19:40:58.000Z"),
        endMs: Date.parse("2026-11-27T19:40:58.600Z"),
      })?.inputTokens,
      7,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an assistant entry written before its prompt's entry counts for that prompt", async () => {
  // Seen with real claude 2.1.197 (the background Bash of tests/agents/turn_truth_test.ts): the
  // turn's first reply (a tool call) is in the file above the prompt entry it answers; their
  // timestamps are in order.
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/t.jsonl`;
    const lines = [
      { type: "mode", mode: "normal" },
      assistant("msg_1", "2026-11-27T22:05:14.630Z", USAGE, "tool"),
      { type: "file-history-snapshot" },
      {
        type: "user",
        promptId: P1,
        message: { role: "user", content: "start the background job" },
        timestamp: "2026-11-27T22:05:14.497Z",
      },
      {
        type: "user",
        promptId: P1,
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1" }] },
        timestamp: "2026-11-27T22:05:14.817Z",
      },
      assistant("msg_2", "2026-11-27T22:05:14.856Z", USAGE),
    ];
    Deno.writeTextFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    deepStrictEqual(claudeTurnUsage(readClaudeUsage(path)!, { promptId: P1 }), {
      inputTokens: 20,
      outputTokens: 10,
      cacheReadTokens: 200,
      cacheWriteTokens: 6,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a missing, damaged or foreign transcript gives null, never an error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    strictEqual(readClaudeUsage(`${dir}/missing.jsonl`), null);
    Deno.writeTextFileSync(`${dir}/junk.jsonl`, "\x00\x01junk\n{]\n");
    strictEqual(claudeTurnUsage(readClaudeUsage(`${dir}/junk.jsonl`)!, { promptId: P1 }), null);
    Deno.symlinkSync(`${dir}/junk.jsonl`, `${dir}/link.jsonl`);
    strictEqual(readClaudeUsage(`${dir}/link.jsonl`), null);
    const reader = new UsageReader({});
    const ref = { agent: "claude", promptId: P1, threadId: null, startMs: null, endMs: null };
    strictEqual(reader.turnUsage({ ...ref, transcriptPath: `${dir}/missing.jsonl` }), null);
    strictEqual(reader.turnUsage({ ...ref, transcriptPath: dir }), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const TURN = "01a21e87-4a34-7351-ae89-df73ce9e157e";
const THREAD = "01a21e87-2dcc-7621-924b-39ea82752878";

/** A codex 0.169 session log (trimmed) with one turn of two model calls. */
function rollout(withRecords: boolean): string {
  const lines: unknown[] = [
    { timestamp: "2026-11-27T19:41:52.569Z", type: "session_meta", payload: { id: THREAD } },
    {
      timestamp: "2026-11-27T19:41:52.569Z",
      type: "event_msg",
      payload: { type: "task_started", turn_id: TURN },
    },
  ];
  for (const n of [1, 2]) {
    const usage = {
      input_tokens: 10 * n,
      cached_input_tokens: 4,
      cache_write_input_tokens: 0,
      output_tokens: 5,
      reasoning_output_tokens: 0,
      total_tokens: 10 * n + 5,
    };
    if (withRecords) {
      lines.push({
        timestamp: "2026-11-27T19:41:52.657Z",
        type: "token_usage_record",
        payload: {
          thread_id: THREAD,
          turn_id: TURN,
          usage,
          turn_token_usage: {
            ...usage,
            input_tokens: n === 1 ? 10 : 30,
            cached_input_tokens: n === 1 ? 4 : 8,
            output_tokens: 5 * n,
          },
        },
      });
    }
    lines.push({
      timestamp: "2026-11-27T19:41:52.658Z",
      type: "event_msg",
      payload: { type: "token_count", info: { last_token_usage: usage } },
    });
  }
  lines.push({
    timestamp: "2026-11-27T19:41:52.681Z",
    type: "event_msg",
    payload: { type: "task_complete", turn_id: TURN },
  });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

Deno.test("a codex turn's tokens come from its log, cached input counted apart", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const day = `${dir}/sessions/2026/11/27`;
    Deno.mkdirSync(day, { recursive: true });
    const path = `${day}/rollout-2026-11-27T19-41-45-${THREAD}.jsonl`;
    Deno.writeTextFileSync(path, rollout(true));
    const near = Date.parse("2026-11-27T19:41:52Z");
    strictEqual(codexRolloutPath({ CODEX_HOME: dir }, THREAD, near), path);
    strictEqual(codexRolloutPath({ CODEX_HOME: dir }, "other-thread", near), null);
    const expected = { inputTokens: 22, outputTokens: 10, cacheReadTokens: 8, cacheWriteTokens: 0 };
    deepStrictEqual(codexTurnUsage(path, TURN), expected);
    // An older log without usage records: its token counts of the turn are added up.
    Deno.writeTextFileSync(path, rollout(false));
    deepStrictEqual(codexTurnUsage(path, TURN), expected);
    strictEqual(codexTurnUsage(path, "another-turn"), null);
    const reader = new UsageReader({ CODEX_HOME: dir });
    deepStrictEqual(
      reader.turnUsage({
        agent: "codex",
        promptId: TURN,
        threadId: THREAD,
        transcriptPath: null,
        startMs: null,
        endMs: near,
      }),
      expected,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("usages add up, a null side counting as nothing", () => {
  const u = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 3, cacheWriteTokens: 4 };
  strictEqual(addUsage(null, null), null);
  deepStrictEqual(addUsage(u, null), u);
  deepStrictEqual(addUsage(u, u), {
    inputTokens: 2,
    outputTokens: 4,
    cacheReadTokens: 6,
    cacheWriteTokens: 8,
  });
});
