/**
 * A local mock of the two model APIs the real agents call, so a whole turn (streaming, tool use,
 * a permission prompt) runs offline: Anthropic `POST /v1/messages` (claude) and OpenAI
 * `POST /v1/responses` (codex), both as SSE streams. Listens on 127.0.0.1 only.
 *
 * Knobs (changeable while it runs): `delayMs` holds every main reply that long before its text
 * (the agent stays busy), and `toolCall` makes the first reply of a turn a shell tool call (so an
 * agent without bypass flags asks for permission); once the tool result comes back, the reply is
 * plain text. Requests without tools (titles, summaries) always get a short text at once.
 *
 * Run by hand: `deno run --allow-net=127.0.0.1 tests/agents/mock_api.ts [--port N] [--delay MS]
 * [--tool] [--fail=auth|rate_limit|usage_limit|overloaded]` prints the port and logs every request on stderr.
 */

/** The mock's knobs. */
export interface MockOptions {
  /** Port to listen on (0 = any free port). */
  port?: number;
  /** Delay of each main reply, in milliseconds. */
  delayMs?: number;
  /** Answer a turn's first main request with a shell tool call. */
  toolCall?: boolean;
  /** Shell command the tool call runs. */
  toolCommand?: string;
  /**
   * The tool calls of a turn, in order, instead of the one shell call (claude: e.g. a `Read` then
   * an `Edit`, whose permission dialogs differ from Bash's, or an MCP tool `mcp__lisa__status`;
   * codex: a function call, of an MCP server's tool when `namespace` is set). The n-th main
   * request of a turn gets the n-th call; once all ran, the reply is text. Empty: the single
   * shell call.
   */
  toolCalls?: MockToolCall[];
  /** Text of every reply. */
  replyText?: string;
  /** Log each request on stderr. */
  verbose?: boolean;
  /**
   * Answer every main request with an API error instead of a reply, shaped as the real APIs
   * send it (status, body, headers): `auth` 401 (invalid key), `rate_limit` 429 with the
   * per-minute rate-limit headers (`retry-after`, `anthropic-ratelimit-*` / `x-ratelimit-*`),
   * `usage_limit` 429 of a plan's usage limit (Anthropic's `anthropic-ratelimit-unified-*`
   * headers with status `rejected`; OpenAI's `usage_limit_reached` error with `resets_at`),
   * `overloaded` (Anthropic 529 `overloaded_error`; OpenAI 503 "overloaded"). Null: replies.
   */
  fail?: MockFailure | null;
  /** Seconds from now at which the limits of a `rate_limit`/`usage_limit` failure reset. */
  resetInSeconds?: number;
  /**
   * A slow but healthy reply (claude): the main reply's text streams as `tokens` words, one
   * every `everyMs` (after `delayMs`). Null: the text arrives in one delta.
   */
  drip?: { everyMs: number; tokens: number } | null;
  /**
   * Token counts every main reply reports (Anthropic `usage`: `input_tokens` without cached
   * input, `cache_read_input_tokens`, `cache_creation_input_tokens`, `output_tokens`; OpenAI:
   * `input_tokens` with the cached ones in it, `input_tokens_details.cached_tokens`). Default:
   * input 10, output 5, nothing cached.
   */
  usage?: MockUsage;
}

/** What {@link MockOptions.usage} sets. */
export interface MockUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** The API failures the mock can answer with (see {@link MockOptions.fail}). */
export type MockFailure = "auth" | "rate_limit" | "usage_limit" | "overloaded";

/** The failures the mock knows (for argument parsing). */
export const MOCK_FAILURES: readonly MockFailure[] = [
  "auth",
  "rate_limit",
  "usage_limit",
  "overloaded",
];

/**
 * The error response of the Anthropic Messages API for `fail`, as api.anthropic.com sends it
 * (documented error shapes and rate-limit headers). `resetAt` is when limits reset (epoch ms).
 */
export function anthropicFailure(fail: MockFailure, resetAt: number): Response {
  const iso = new Date(resetAt).toISOString().replace(/\.\d{3}Z$/, "Z");
  const retryAfter = String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "request-id": `req_mock_${Date.now()}`,
    "x-should-retry": "false",
  };
  let status = 400;
  let type = "invalid_request_error";
  let message = "";
  if (fail === "auth") {
    status = 401;
    type = "authentication_error";
    message = "invalid x-api-key";
  } else if (fail === "rate_limit") {
    status = 429;
    type = "rate_limit_error";
    message = "Number of request tokens has exceeded your per-minute rate limit " +
      "(https://docs.claude.com/en/api/rate-limits); see the response headers for current usage.";
    Object.assign(headers, {
      "retry-after": retryAfter,
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": iso,
      "anthropic-ratelimit-tokens-limit": "40000",
      "anthropic-ratelimit-tokens-remaining": "0",
      "anthropic-ratelimit-tokens-reset": iso,
      "anthropic-ratelimit-input-tokens-limit": "30000",
      "anthropic-ratelimit-input-tokens-remaining": "0",
      "anthropic-ratelimit-input-tokens-reset": iso,
      "anthropic-ratelimit-output-tokens-limit": "8000",
      "anthropic-ratelimit-output-tokens-remaining": "0",
      "anthropic-ratelimit-output-tokens-reset": iso,
    });
  } else if (fail === "usage_limit") {
    status = 429;
    type = "rate_limit_error";
    message = "This request would exceed your account's rate limit. Please try again later.";
    Object.assign(headers, {
      "retry-after": retryAfter,
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-reset": String(Math.floor(resetAt / 1000)),
      "anthropic-ratelimit-unified-representative-claim": "five_hour",
      "anthropic-ratelimit-unified-fallback": "unavailable",
      "anthropic-ratelimit-unified-overage-status": "rejected",
      "anthropic-ratelimit-unified-overage-disabled-reason": "org_level_disabled",
    });
  } else {
    status = 529;
    type = "overloaded_error";
    message = "Overloaded";
  }
  return new Response(JSON.stringify({ type: "error", error: { type, message } }), {
    status,
    headers,
  });
}

/**
 * The error response of the OpenAI Responses API for `fail`, as api.openai.com (and the ChatGPT
 * backend codex signs in to) sends it. `resetAt` is when limits reset (epoch ms).
 */
export function openaiFailure(fail: MockFailure, resetAt: number): Response {
  const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-request-id": `req_mock_${Date.now()}`,
  };
  let status: number;
  let error: Record<string, unknown>;
  if (fail === "auth") {
    status = 401;
    error = {
      message: "Incorrect API key provided: mock. You can find your API key at " +
        "https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    };
  } else if (fail === "rate_limit") {
    status = 429;
    error = {
      message: "Rate limit reached for mock-model in organization org-mock on requests per min " +
        `(RPM): Limit 3, Used 3, Requested 1. Please try again in ${seconds}s.`,
      type: "requests",
      param: null,
      code: "rate_limit_exceeded",
    };
    Object.assign(headers, {
      "retry-after": String(seconds),
      "x-ratelimit-limit-requests": "3",
      "x-ratelimit-remaining-requests": "0",
      "x-ratelimit-reset-requests": `${seconds}s`,
      "x-ratelimit-limit-tokens": "40000",
      "x-ratelimit-remaining-tokens": "0",
      "x-ratelimit-reset-tokens": `${seconds}s`,
    });
  } else if (fail === "usage_limit") {
    status = 429;
    error = {
      type: "usage_limit_reached",
      message: "The usage limit has been reached",
      plan_type: "plus",
      resets_at: Math.floor(resetAt / 1000),
      resets_in_seconds: seconds,
    };
    Object.assign(headers, {
      "x-codex-primary-used-percent": "100",
      "x-codex-primary-window-minutes": "300",
      "x-codex-primary-reset-after-seconds": String(seconds),
      "x-codex-primary-reset-at": String(Math.floor(resetAt / 1000)),
      "x-codex-secondary-used-percent": "40",
      "x-codex-secondary-window-minutes": "10080",
    });
  } else {
    status = 503;
    error = {
      message: "The server is overloaded or not ready yet.",
      type: "server_error",
      param: null,
      code: "server_is_overloaded",
    };
  }
  return new Response(JSON.stringify({ error }), { status, headers });
}

/** A tool call the mock makes the agent run (name and input as in Anthropic's `tool_use`). */
export interface MockToolCall {
  name: string;
  input: Record<string, unknown>;
  /**
   * codex: the namespace tool the call's tool is inside (`mcp__<server>`): codex offers an MCP
   * server's tools to the model as one `{"type":"namespace"}` tool, and the call names both.
   */
  namespace?: string;
}

/** One request the mock saw. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** "main" (has tools), "aux" (no tools), or "other" (not a model call). */
  kind: "main" | "aux" | "other";
  /** What the mock answered: "text", "tool", "json", "404", "fail:<failure>". */
  answer: string;
  body: Record<string, unknown> | null;
  at: number;
}

/** A running mock. */
export interface MockApi {
  port: number;
  /** `http://127.0.0.1:PORT` (claude's ANTHROPIC_BASE_URL). */
  url: string;
  /** Every request seen so far. */
  requests: RecordedRequest[];
  /** Changes the knobs of later replies. */
  set(options: Omit<MockOptions, "port" | "verbose">): void;
  /** Stops listening and ends open streams. */
  close(): Promise<void>;
}

const encoder = new TextEncoder();

function sse(event: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** A stream that runs `produce` to push SSE chunks; stops quietly when the client goes away. */
function sseResponse(
  produce: (push: (chunk: Uint8Array) => void, signal: AbortSignal) => Promise<void>,
  closing: AbortSignal,
): Response {
  const abort = new AbortController();
  closing.addEventListener("abort", () => abort.abort(), { once: true });
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const push = (chunk: Uint8Array) => {
        if (!abort.signal.aborted) controller.enqueue(chunk);
      };
      try {
        await produce(push, abort.signal);
      } catch { /* client gone */ }
      try {
        controller.close();
      } catch { /* already closed */ }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "request-id": `req_mock_${Date.now()}`,
    },
  });
}

type Json = Record<string, unknown>;

/** True when a user message part is a prompt a person typed (not a tool result or filler). */
function isPromptPart(part: Json): boolean {
  if (part?.type !== "text" || typeof part.text !== "string") return false;
  const text = (part.text as string).trim();
  return text !== "" && text !== "(no content)" && !text.startsWith("<system-reminder>");
}

/**
 * How many tool calls the agent already made after the last prompt of an Anthropic
 * conversation (this turn's calls so far).
 */
function anthropicToolsDone(body: Json): number {
  const messages = Array.isArray(body.messages) ? body.messages as Json[] : [];
  let calls = 0;
  for (const message of messages) {
    const parts = typeof message?.content === "string"
      ? [{ type: "text", text: message.content }]
      : Array.isArray(message?.content)
      ? message.content as Json[]
      : [];
    if (message?.role === "user" && parts.some(isPromptPart)) calls = 0;
    if (message?.role === "assistant") calls += parts.filter((p) => p?.type === "tool_use").length;
  }
  return calls;
}

/** How many tool calls codex made since the last prompt of its Responses input. */
function openaiToolsDone(body: Json): number {
  const input = Array.isArray(body.input) ? body.input as Json[] : [];
  let calls = 0;
  for (const item of input) {
    if (item?.type === "message" && item?.role === "user") {
      const parts = Array.isArray(item.content) ? item.content as Json[] : [];
      if (
        parts.some((p) =>
          p?.type === "input_text" && typeof p.text === "string" && !p.text.startsWith("<") &&
          p.text.trim() !== ""
        )
      ) calls = 0;
    }
    if (typeof item?.type === "string" && (item.type as string).endsWith("_call")) calls++;
  }
  return calls;
}

/** True when codex already made a tool call after the last prompt of its Responses input. */
function openaiToolDone(body: Json): boolean {
  const input = Array.isArray(body.input) ? body.input as Json[] : [];
  let lastPrompt = -1;
  let lastCall = -1;
  input.forEach((item, i) => {
    if (item?.type === "message" && item?.role === "user") {
      const parts = Array.isArray(item.content) ? item.content as Json[] : [];
      const typed = parts.some((p) =>
        p?.type === "input_text" && typeof p.text === "string" && !p.text.startsWith("<") &&
        p.text.trim() !== ""
      );
      if (typed) lastPrompt = i;
    }
    if (typeof item?.type === "string" && (item.type as string).endsWith("_call")) lastCall = i;
  });
  return lastCall > lastPrompt;
}

/** True for the side request codex makes to title a prompt. */
function isCodexTitleRequest(body: Json): boolean {
  const input = Array.isArray(body.input) ? body.input as Json[] : [];
  return input.some((item) =>
    Array.isArray(item?.content) &&
    (item.content as Json[]).some((p) =>
      typeof p?.text === "string" && /^Generate a concise, single-line task title/.test(p.text)
    )
  );
}

function toolNames(body: Json): string[] {
  const tools = Array.isArray(body.tools) ? body.tools as Json[] : [];
  return tools.map((t) => String(t?.name ?? (t?.function as Json | undefined)?.name ?? t?.type));
}

/** Starts the mock on 127.0.0.1. */
export function startMockApi(options: MockOptions = {}): Promise<MockApi> {
  const knobs = {
    delayMs: options.delayMs ?? 0,
    toolCall: options.toolCall ?? false,
    toolCommand: options.toolCommand ?? "echo mock-tool-ran",
    toolCalls: options.toolCalls ?? [] as MockToolCall[],
    replyText: options.replyText ?? "MOCK_REPLY_OK",
    fail: options.fail ?? null as MockFailure | null,
    resetInSeconds: options.resetInSeconds ?? 3 * 3600,
    drip: options.drip ?? null as { everyMs: number; tokens: number } | null,
    usage: options.usage ??
      { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 } as MockUsage,
  };
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  let counter = 0;
  const log = (line: string) => {
    if (options.verbose) Deno.stderr.writeSync(encoder.encode(line + "\n"));
  };

  function record(req: Request, path: string, body: Json | null, kind: RecordedRequest["kind"]) {
    const entry: RecordedRequest = {
      method: req.method,
      path,
      kind,
      answer: "",
      body,
      at: Date.now(),
    };
    requests.push(entry);
    return entry;
  }

  function anthropic(body: Json, entry: RecordedRequest): Response {
    const id = `msg_mock_${++counter}`;
    const model = String(body.model ?? "claude-mock");
    const main = toolNames(body).includes("Bash");
    entry.kind = main ? "main" : "aux";
    if (knobs.fail !== null) {
      // claude's side requests fail like its main one: a bad key or a limit hits every call.
      entry.answer = `fail:${knobs.fail}`;
      return anthropicFailure(knobs.fail, Date.now() + knobs.resetInSeconds * 1000);
    }
    const script: MockToolCall[] = knobs.toolCalls.length > 0 ? knobs.toolCalls : [{
      name: "Bash",
      input: { command: knobs.toolCommand, description: "Run the mock command" },
    }];
    const call = main && knobs.toolCall ? script[anthropicToolsDone(body)] : undefined;
    const useTool = call !== undefined;
    entry.answer = useTool ? "tool" : "text";
    const text = main ? knobs.replyText : "Mock title";
    const delay = main ? knobs.delayMs : 0;
    const toolName = call?.name ?? "Bash";
    const toolInput = call?.input ?? {};
    if (body.stream !== true) {
      const content = useTool
        ? [{ type: "tool_use", id: `toolu_mock_${counter}`, name: toolName, input: toolInput }]
        : [{ type: "text", text }];
      return Response.json({
        id,
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: useTool ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: main
          ? {
            input_tokens: knobs.usage.inputTokens,
            output_tokens: knobs.usage.outputTokens,
            cache_read_input_tokens: knobs.usage.cacheReadTokens,
            cache_creation_input_tokens: knobs.usage.cacheWriteTokens,
          }
          : { input_tokens: 10, output_tokens: 5 },
      });
    }
    return sseResponse(async (push, signal) => {
      push(sse("message_start", {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: main ? knobs.usage.inputTokens : 10,
            cache_creation_input_tokens: main ? knobs.usage.cacheWriteTokens : 0,
            cache_read_input_tokens: main ? knobs.usage.cacheReadTokens : 0,
            output_tokens: 1,
          },
        },
      }));
      // Pings keep the stream alive while the reply is held back.
      for (let waited = 0; waited < delay && !signal.aborted; waited += 1000) {
        push(sse("ping", { type: "ping" }));
        await sleep(Math.min(1000, delay - waited), signal);
      }
      if (useTool) {
        push(sse("content_block_start", {
          type: "content_block_start",
          index: 0,
          content_block: {
            type: "tool_use",
            id: `toolu_mock_${counter}`,
            name: toolName,
            input: {},
          },
        }));
        push(sse("content_block_delta", {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(toolInput) },
        }));
      } else {
        push(sse("content_block_start", {
          type: "content_block_start",
          index: 0,
          content_block: { type: "text", text: "" },
        }));
        const drip = main ? knobs.drip : null;
        for (let i = 0; drip !== null && i < drip.tokens && !signal.aborted; i++) {
          push(sse("content_block_delta", {
            type: "content_block_delta",
            index: 0,
            delta: { type: "text_delta", text: `word${i} ` },
          }));
          await sleep(drip.everyMs, signal);
        }
        push(sse("content_block_delta", {
          type: "content_block_delta",
          index: 0,
          delta: { type: "text_delta", text },
        }));
      }
      push(sse("content_block_stop", { type: "content_block_stop", index: 0 }));
      push(sse("message_delta", {
        type: "message_delta",
        delta: { stop_reason: useTool ? "tool_use" : "end_turn", stop_sequence: null },
        usage: { output_tokens: main ? knobs.usage.outputTokens : 5 },
      }));
      push(sse("message_stop", { type: "message_stop" }));
    }, closing.signal);
  }

  /** The function-call item codex understands, shaped after the tools it offered. */
  function codexToolItem(body: Json, callId: string): Json {
    const names = toolNames(body);
    const cmd = knobs.toolCommand;
    // Asking to run outside the sandbox makes codex request an approval (when its policy lets
    // it ask), like a tool call without bypass flags does in claude.
    const justification = "The mock asks for approval";
    let name = "shell";
    let args: Json = {
      command: ["bash", "-lc", cmd],
      with_escalated_permissions: true,
      justification,
    };
    if (names.includes("shell_command")) {
      name = "shell_command";
      args = { command: cmd, sandbox_permissions: "require_escalated", justification };
    } else if (!names.includes("shell") && names.includes("exec_command")) {
      name = "exec_command";
      args = { cmd, sandbox_permissions: "require_escalated", justification };
    }
    return {
      type: "function_call",
      id: `fc_${callId}`,
      call_id: callId,
      name,
      arguments: JSON.stringify(args),
      status: "completed",
    };
  }

  function openai(body: Json, entry: RecordedRequest): Response {
    const n = ++counter;
    const respId = `resp_mock_${n}`;
    // codex titles each prompt in a side thread; everything else is the user's turn (some
    // models get no `tools` array at all, so tools cannot tell them apart).
    const main = !isCodexTitleRequest(body);
    entry.kind = main ? "main" : "aux";
    if (knobs.fail !== null) {
      entry.answer = `fail:${knobs.fail}`;
      return openaiFailure(knobs.fail, Date.now() + knobs.resetInSeconds * 1000);
    }
    const scripted = main && knobs.toolCall && knobs.toolCalls.length > 0
      ? knobs.toolCalls[openaiToolsDone(body)]
      : undefined;
    const useTool = main && knobs.toolCall &&
      (knobs.toolCalls.length > 0 ? scripted !== undefined : !openaiToolDone(body));
    entry.answer = useTool ? "tool" : "text";
    const text = main ? knobs.replyText : "Mock title";
    const delay = main ? knobs.delayMs : 0;
    const model = String(body.model ?? "mock-model");
    return sseResponse(async (push, signal) => {
      const base = {
        id: respId,
        object: "response",
        created_at: Math.floor(Date.now() / 1000),
        model,
      };
      push(sse("response.created", {
        type: "response.created",
        response: { ...base, status: "in_progress", output: [] },
      }));
      for (let waited = 0; waited < delay && !signal.aborted; waited += 1000) {
        await sleep(Math.min(1000, delay - waited), signal);
      }
      let item: Json;
      if (useTool) {
        item = scripted === undefined ? codexToolItem(body, `call_mock_${n}`) : {
          type: "function_call",
          id: `fc_call_mock_${n}`,
          call_id: `call_mock_${n}`,
          name: scripted.name,
          ...(scripted.namespace === undefined ? {} : { namespace: scripted.namespace }),
          arguments: JSON.stringify(scripted.input),
          status: "completed",
        };
        push(sse("response.output_item.added", {
          type: "response.output_item.added",
          output_index: 0,
          item,
        }));
      } else {
        const msgId = `msg_mock_${n}`;
        item = {
          type: "message",
          id: msgId,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text, annotations: [] }],
        };
        push(sse("response.output_item.added", {
          type: "response.output_item.added",
          output_index: 0,
          item: { ...item, content: [], status: "in_progress" },
        }));
        push(sse("response.output_text.delta", {
          type: "response.output_text.delta",
          item_id: msgId,
          output_index: 0,
          content_index: 0,
          delta: text,
        }));
      }
      push(
        sse("response.output_item.done", {
          type: "response.output_item.done",
          output_index: 0,
          item,
        }),
      );
      push(sse("response.completed", {
        type: "response.completed",
        response: {
          ...base,
          status: "completed",
          output: [item],
          usage: main
            ? {
              input_tokens: knobs.usage.inputTokens + knobs.usage.cacheReadTokens,
              input_tokens_details: { cached_tokens: knobs.usage.cacheReadTokens },
              output_tokens: knobs.usage.outputTokens,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: knobs.usage.inputTokens + knobs.usage.cacheReadTokens +
                knobs.usage.outputTokens,
            }
            : {
              input_tokens: 10,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 5,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 15,
            },
        },
      }));
    }, closing.signal);
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    let body: Json | null = null;
    if (req.method === "POST") {
      try {
        body = await req.json();
      } catch {
        body = null;
      }
    }
    const entry = record(req, path, body, "other");
    let response: Response;
    if (req.method === "POST" && path === "/v1/messages" && body) {
      response = anthropic(body, entry);
    } else if (req.method === "POST" && path === "/v1/messages/count_tokens") {
      entry.answer = "json";
      response = Response.json({ input_tokens: 10 });
    } else if (req.method === "POST" && path === "/v1/responses" && body) {
      response = openai(body, entry);
    } else if (req.method === "GET" && path === "/v1/models") {
      entry.answer = "json";
      response = Response.json({ object: "list", data: [], models: [] });
    } else {
      entry.answer = "404";
      response = Response.json(
        { type: "error", error: { type: "not_found_error", message: path } },
        {
          status: 404,
        },
      );
    }
    log(`mock: ${req.method} ${path} kind=${entry.kind} answer=${entry.answer}`);
    return response;
  }

  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: options.port ?? 0,
      signal: closing.signal,
      onListen: () => {},
    }, handle);
    const port = (server.addr as Deno.NetAddr).port;
    resolve({
      port,
      url: `http://127.0.0.1:${port}`,
      requests,
      set(next) {
        if (next.delayMs !== undefined) knobs.delayMs = next.delayMs;
        if (next.toolCall !== undefined) knobs.toolCall = next.toolCall;
        if (next.toolCommand !== undefined) knobs.toolCommand = next.toolCommand;
        if (next.toolCalls !== undefined) knobs.toolCalls = next.toolCalls;
        if (next.replyText !== undefined) knobs.replyText = next.replyText;
        if (next.fail !== undefined) knobs.fail = next.fail;
        if (next.resetInSeconds !== undefined) knobs.resetInSeconds = next.resetInSeconds;
        if (next.drip !== undefined) knobs.drip = next.drip;
        if (next.usage !== undefined) knobs.usage = next.usage;
      },
      async close() {
        closing.abort();
        await server.finished.catch(() => {});
      },
    });
  });
}

if (import.meta.main) {
  const args = Deno.args;
  const num = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  const mock = await startMockApi({
    port: num("--port") ?? 0,
    delayMs: num("--delay") ?? 0,
    toolCall: args.includes("--tool"),
    fail: MOCK_FAILURES.find((f) => args.includes(`--fail=${f}`)) ?? null,
    verbose: true,
  });
  Deno.stdout.writeSync(encoder.encode(`${mock.port}\n`));
}
