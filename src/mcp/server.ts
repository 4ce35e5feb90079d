/**
 * `lisa mcp`: an MCP server over stdio whose tools are lisa's verbs (`tools.ts`, generated from
 * the command table), each call running the verb's own code (`call.ts`). It is built on the
 * official SDK's protocol layer (`Server`: initialize and version negotiation, request
 * dispatch, cancellation) with lisa's own stdio transport (`transport.ts`).
 *
 * Resident: tmux calls go over one control-mode client per server (`src/tmux/resident.ts`),
 * so steady-state calls start no process. stdout carries only protocol messages; diagnostics
 * (a verb's stderr lines, transport errors) go to stderr. The server ends when stdin closes
 * (or on SIGTERM/SIGINT): calls still running are cancelled, the control clients are ended,
 * and the sessions it spawned keep running.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../base/deps.ts";
import { LISA_VERSION } from "../base/version.ts";
import { ResidentRunner } from "../tmux/resident.ts";
import { callTool, CancelledError } from "./call.ts";
import { CallProgress } from "./progress.ts";
import { LineTransport, type TransportStreams } from "./transport.ts";
import { type CallDefaults, type ToolSpec, toolSpecs } from "./tools.ts";

/** How long calls still running when stdin closes get to end before the server exits. */
const DRAIN_MS = 1000;

/** What the server tells a client about itself at `initialize`. */
const INSTRUCTIONS = "lisa starts, watches, drives and cleans up AI coding agents (claude, " +
  "codex, any command) in tmux sessions. Loop: spawn (agent, prompt) → send (text, wait: true " +
  'returns the turn\'s reply) or watch (until: ["waiting_input", "terminal"]: a worker needs ' +
  "you or ended) → capture → kill. " +
  "Every result is the JSON document of the same lisa CLI call; ok:false carries errorCode.";

/** Options of {@link serveMcp}. */
export interface ServeOptions extends CallDefaults {
  /** Streams to serve on (tests); this process's stdin and stdout otherwise. */
  streams?: TransportStreams;
}

/** What the server's handlers share. */
interface Served {
  /** The caller's deps (its own runner: diagnostics, clock, config). */
  deps: Deps;
  /** The deps each call runs with: tmux over the resident runner. */
  callDeps: Deps;
  tools: Map<string, ToolSpec>;
  /** One controller per call still running (the server's end aborts them). */
  running: Set<AbortController>;
  options: ServeOptions;
  /** A diagnostic line on stderr. */
  diag: (line: string) => void;
}

/** Serves until the input closes (see the module doc); returns the exit code (0). */
export async function serveMcp(deps: Deps, options: ServeOptions = {}): Promise<number> {
  const bufferDir = await Deno.makeTempDir({ prefix: "lisa-mcp-" });
  const runner = new ResidentRunner(deps.runner, {
    bufferDir,
    timeoutMs: deps.config.cmdTimeoutSeconds * 1000,
  });
  const served: Served = {
    deps,
    callDeps: Object.create(deps, { runner: { value: runner } }),
    tools: new Map(toolSpecs().map((t) => [t.name, t])),
    running: new Set(),
    options,
    diag: (line) => deps.io.err(`lisa mcp: ${line}\n`),
  };
  try {
    await serveUntilClosed(served, serverOf(served));
  } finally {
    for (const c of served.running) c.abort();
    const deadline = Date.now() + DRAIN_MS;
    while (served.running.size > 0 && Date.now() < deadline) await deps.sleep(10);
    await runner.close();
    await Deno.remove(bufferDir, { recursive: true }).catch(() => {});
  }
  return 0;
}

/** The SDK's server with lisa's tools: their list, and each call run by {@link callOf}. */
function serverOf(served: Served): Server {
  const server = new Server(
    { name: "lisa", version: LISA_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.onerror = (error: Error) => served.diag(error.message);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...served.tools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    // deno-lint-ignore no-explicit-any
    (request: CallToolRequest, extra: RequestHandlerExtra<any, any>) =>
      callOf(served, request, extra),
  );
  return server;
}

/**
 * One tool call: the verb run (`call.ts`) with progress beats when the client asked for them,
 * cancelled by the client or by the server's end; its result as MCP gives it.
 */
async function callOf(
  served: Served,
  request: CallToolRequest,
  // deno-lint-ignore no-explicit-any
  extra: RequestHandlerExtra<any, any>,
) {
  const { deps, diag, running } = served;
  const tool = served.tools.get(request.params.name);
  if (tool === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}"`);
  }
  const token = request.params._meta?.progressToken;
  const progress = new CallProgress(
    deps,
    token === undefined ? undefined : (count, message) => {
      extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: count, message },
      }).catch(() => {});
    },
    deps.config.mcpProgressSeconds,
  );
  const onLine = (line: string, stream: "out" | "err") => {
    if (stream === "err") diag(`${tool.name}: ${line}`);
    progress.line(line);
  };
  // One controller per call, fired by the client's cancellation or by the server's end.
  const controller = new AbortController();
  const forward = () => controller.abort();
  extra.signal.addEventListener("abort", forward, { once: true });
  running.add(controller);
  try {
    const outcome = await callTool(tool, request.params.arguments, {
      deps: served.callDeps,
      defaults: { projectRoot: served.options.projectRoot },
      signal: controller.signal,
      onLine,
      onState: (note) => progress.state(note),
    });
    return {
      content: [{ type: "text" as const, text: JSON.stringify(outcome.document) }],
      structuredContent: outcome.document,
      isError: outcome.isError,
      _meta: { exitCode: outcome.exitCode },
    };
  } catch (error) {
    if (error instanceof CancelledError) {
      throw new McpError(ErrorCode.RequestTimeout, error.message);
    }
    throw error;
  } finally {
    progress.stop();
    running.delete(controller);
    extra.signal.removeEventListener("abort", forward);
  }
}

/** Connects `server` to stdio (or the test's streams) and returns once the input closed. */
async function serveUntilClosed(served: Served, server: Server): Promise<void> {
  const { options } = served;
  const transport = new LineTransport(
    options.streams ?? { input: Deno.stdin.readable, output: Deno.stdout },
  );
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  const stop = () => {
    transport.close().catch(() => {});
  };
  const signals: Deno.Signal[] = options.streams ? [] : ["SIGTERM", "SIGINT"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  try {
    // connect() keeps the onclose set above and calls it first.
    await server.connect(transport);
    await closed;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, stop);
  }
}
