/**
 * `lisa mcp` driven by the official SDK's client, as an agent runs it: a subprocess of this
 * checkout's lisa (from source, or built under `LISA_TEST_BUILT_DIR`) in a test world.
 * `close()` closes its stdin (the server ends by itself) and waits for it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LISA_ARGV, type World } from "./world.ts";

/** A connected client and the server's stderr so far. */
export interface McpHandle {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `lisa mcp [args]` in `world` and connects the SDK's client to it. */
export async function startMcp(
  world: World,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<McpHandle> {
  const transport = new StdioClientTransport({
    command: LISA_ARGV[0],
    args: [...LISA_ARGV.slice(1), "mcp", ...args],
    env: { ...world.env, ...env },
    cwd: world.projectRoot,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "lisa-test", version: "1" });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/** A tool call's structured result (the CLI's `--json` document) and whether it is an error. */
export async function call(
  handle: McpHandle,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ doc: Record<string, unknown>; isError: boolean; exitCode: unknown }> {
  const r = await handle.client.callTool({ name, arguments: args });
  return {
    doc: r.structuredContent as Record<string, unknown>,
    isError: r.isError === true,
    exitCode: (r._meta as Record<string, unknown> | undefined)?.exitCode,
  };
}
