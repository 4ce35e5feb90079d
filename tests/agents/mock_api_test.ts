/**
 * The mock model APIs of the real-agent tier: SSE shapes, the tool-call mode and the reply delay.
 * Needs no agent, so it runs even where the agents cannot be installed.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { startMockApi } from "./mock_api.ts";

/** Parses an SSE body into its events' data objects. */
function events(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text.split("\n\n").filter((b) => b.trim() !== "").map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
    const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
    return { event, data };
  });
}

const anthropicTurn = {
  model: "claude-x",
  stream: true,
  tools: [{ name: "Bash" }],
  messages: [{ role: "user", content: [{ type: "text", text: "make a file" }] }],
};

Deno.test("the mock streams an Anthropic text reply", async () => {
  const mock = await startMockApi({ replyText: "hello" });
  try {
    ok(mock.url.startsWith("http://127.0.0.1:"));
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify(anthropicTurn),
    });
    strictEqual(res.headers.get("content-type"), "text/event-stream");
    const list = events(await res.text());
    deepStrictEqual(list.map((e) => e.event), [
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    strictEqual((list[2].data.delta as Record<string, unknown>).text, "hello");
    strictEqual(mock.requests[0].kind, "main");
  } finally {
    await mock.close();
  }
});

Deno.test("in tool mode the first reply of a turn is a Bash tool call, then text", async () => {
  const mock = await startMockApi({ toolCall: true, toolCommand: "touch x" });
  try {
    const first = events(
      await (await fetch(`${mock.url}/v1/messages`, {
        method: "POST",
        body: JSON.stringify(anthropicTurn),
      })).text(),
    );
    const block = first[1].data.content_block as Record<string, unknown>;
    strictEqual(block.type, "tool_use");
    strictEqual(block.name, "Bash");
    strictEqual((first[4].data.delta as Record<string, unknown>).stop_reason, "tool_use");
    const followUp = {
      ...anthropicTurn,
      messages: [
        ...anthropicTurn.messages,
        { role: "assistant", content: [{ type: "tool_use", id: block.id, name: "Bash" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: block.id }] },
      ],
    };
    const second = events(
      await (await fetch(`${mock.url}/v1/messages`, {
        method: "POST",
        body: JSON.stringify(followUp),
      })).text(),
    );
    strictEqual((second[1].data.content_block as Record<string, unknown>).type, "text");
  } finally {
    await mock.close();
  }
});

Deno.test("scripted tool calls run in order, one per request of the turn, then text", async () => {
  const calls = [
    { name: "Read", input: { file_path: "/p/app.txt" } },
    { name: "Edit", input: { file_path: "/p/app.txt", old_string: "a", new_string: "b" } },
  ];
  const mock = await startMockApi({ toolCall: true, toolCalls: calls });
  try {
    const messages: Record<string, unknown>[] = [...anthropicTurn.messages];
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const list = events(
        await (await fetch(`${mock.url}/v1/messages`, {
          method: "POST",
          body: JSON.stringify({ ...anthropicTurn, messages }),
        })).text(),
      );
      const block = list[1].data.content_block as Record<string, unknown>;
      seen.push(block.type === "tool_use" ? String(block.name) : String(block.type));
      if (block.type !== "tool_use") break;
      const input = JSON.parse(
        (list[2].data.delta as Record<string, unknown>).partial_json as string,
      );
      deepStrictEqual(input, calls[i].input);
      messages.push(
        { role: "assistant", content: [{ type: "tool_use", id: block.id, name: block.name }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: block.id }] },
      );
    }
    deepStrictEqual(seen, ["Read", "Edit", "text"]);
  } finally {
    await mock.close();
  }
});

Deno.test("the mock streams an OpenAI Responses reply and an escalated exec_command call", async () => {
  const mock = await startMockApi({ replyText: "hi" });
  try {
    const body = {
      model: "mock-model",
      stream: true,
      tools: [{ type: "function", name: "exec_command" }],
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "go" }] }],
    };
    const text = events(
      await (await fetch(`${mock.url}/v1/responses`, {
        method: "POST",
        body: JSON.stringify(body),
      })).text(),
    );
    strictEqual(text[0].event, "response.created");
    strictEqual(text[text.length - 1].event, "response.completed");
    mock.set({ toolCall: true });
    const tool = events(
      await (await fetch(`${mock.url}/v1/responses`, {
        method: "POST",
        body: JSON.stringify(body),
      })).text(),
    );
    const done = tool.find((e) => e.event === "response.output_item.done")!;
    const item = done.data.item as Record<string, unknown>;
    strictEqual(item.name, "exec_command");
    strictEqual(JSON.parse(item.arguments as string).sandbox_permissions, "require_escalated");
  } finally {
    await mock.close();
  }
});

Deno.test("the reply delay holds the stream open before the text", async () => {
  const mock = await startMockApi({ delayMs: 300 });
  try {
    const started = Date.now();
    await (await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify(anthropicTurn),
    })).text();
    ok(Date.now() - started >= 250, "the reply waited");
  } finally {
    await mock.close();
  }
});

Deno.test("the mock answers with the real APIs' errors: 401, 429 with rate-limit headers, 529/503", async () => {
  const mock = await startMockApi({ fail: "auth", resetInSeconds: 60 });
  const codexTurn = { model: "m", input: [] };
  const post = async (path: string, body: unknown) =>
    await fetch(`${mock.url}${path}`, { method: "POST", body: JSON.stringify(body) });
  try {
    let res = await post("/v1/messages", anthropicTurn);
    strictEqual(res.status, 401);
    deepStrictEqual((await res.json()).error.type, "authentication_error");
    res = await post("/v1/responses", codexTurn);
    strictEqual(res.status, 401);
    strictEqual((await res.json()).error.code, "invalid_api_key");

    mock.set({ fail: "rate_limit" });
    res = await post("/v1/messages", anthropicTurn);
    strictEqual(res.status, 429);
    strictEqual((await res.json()).error.type, "rate_limit_error");
    strictEqual(res.headers.get("anthropic-ratelimit-requests-remaining"), "0");
    ok(Number(res.headers.get("retry-after")) > 0);
    ok(Date.parse(res.headers.get("anthropic-ratelimit-tokens-reset") ?? "") > Date.now());
    res = await post("/v1/responses", codexTurn);
    strictEqual(res.status, 429);
    strictEqual((await res.json()).error.code, "rate_limit_exceeded");
    strictEqual(res.headers.get("x-ratelimit-remaining-requests"), "0");

    mock.set({ fail: "usage_limit" });
    res = await post("/v1/messages", anthropicTurn);
    strictEqual(res.status, 429);
    await res.body?.cancel();
    strictEqual(res.headers.get("anthropic-ratelimit-unified-status"), "rejected");
    res = await post("/v1/responses", codexTurn);
    const usage = (await res.json()).error;
    strictEqual(usage.type, "usage_limit_reached");
    ok(usage.resets_at > Date.now() / 1000);

    mock.set({ fail: "overloaded" });
    res = await post("/v1/messages", anthropicTurn);
    strictEqual(res.status, 529);
    strictEqual((await res.json()).error.type, "overloaded_error");
    res = await post("/v1/responses", codexTurn);
    strictEqual(res.status, 503);
    await res.body?.cancel();
    ok(mock.requests.every((r) => r.answer.startsWith("fail:")));
  } finally {
    await mock.close();
  }
});

Deno.test("codex gets scripted calls of an MCP server's tools by namespace, in order, then text", async () => {
  const calls = [
    { name: "spawn", namespace: "mcp__lisa", input: { command: "true" } },
    { name: "status", namespace: "mcp__lisa", input: { session: "lisa-x" } },
  ];
  const mock = await startMockApi({ toolCall: true, toolCalls: calls, replyText: "done" });
  try {
    const input: Record<string, unknown>[] = [
      { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
    ];
    const seen: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const list = events(
        await (await fetch(`${mock.url}/v1/responses`, {
          method: "POST",
          body: JSON.stringify({ model: "m", stream: true, input }),
        })).text(),
      );
      const item = list.find((e) => e.event === "response.output_item.done")!.data
        .item as Record<string, unknown>;
      if (item.type !== "function_call") {
        seen.push(item.type);
        break;
      }
      seen.push([item.namespace, item.name, JSON.parse(String(item.arguments))]);
      input.push(item, { type: "function_call_output", call_id: item.call_id, output: "{}" });
    }
    deepStrictEqual(seen, [
      ["mcp__lisa", "spawn", calls[0].input],
      ["mcp__lisa", "status", calls[1].input],
      "message",
    ]);
  } finally {
    await mock.close();
  }
});
