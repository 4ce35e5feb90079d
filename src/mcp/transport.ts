/**
 * The MCP stdio transport of `lisa mcp`: newline-delimited JSON-RPC messages on this process's
 * stdin and stdout, over Deno's own streams. The SDK's `StdioServerTransport` is not used: it
 * never reports the end of stdin, and a server must end when its client closes it.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";

/** Longest line accepted (a message past it is dropped with an error on stderr). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Byte streams of a {@link LineTransport} (stdin/stdout, or pipes in tests). */
export interface TransportStreams {
  input: ReadableStream<Uint8Array>;
  output: { write(p: Uint8Array): Promise<number> };
}

/** A stdio transport (see the module doc). `closed` settles when the input ends. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private writing: Promise<void> = Promise.resolve();
  private ended = false;
  private readonly encoder = new TextEncoder();

  constructor(private readonly streams: TransportStreams) {}

  start(): Promise<void> {
    this.reader = this.streams.input.getReader();
    this.readLoop().catch((error) => this.onerror?.(error)).finally(() => this.end());
    return Promise.resolve();
  }

  private async readLoop(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await this.reader!.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, "");
        buffer = buffer.slice(nl + 1);
        if (line.trim() !== "") this.deliver(line);
      }
      if (buffer.length > MAX_LINE_BYTES) {
        buffer = "";
        this.onerror?.(new Error(`a message longer than ${MAX_LINE_BYTES} bytes was dropped`));
      }
    }
    if (buffer.trim() !== "") this.deliver(buffer);
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(new Error(`not a JSON-RPC message: ${String(error).slice(0, 200)}`));
      return;
    }
    this.onmessage?.(message);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const bytes = this.encoder.encode(serializeMessage(message));
    // One message after the other: writes of two answers never interleave.
    this.writing = this.writing.then(async () => {
      let rest = bytes;
      while (rest.length > 0) rest = rest.subarray(await this.streams.output.write(rest));
    }).catch((error) => this.onerror?.(error));
    return this.writing;
  }

  async close(): Promise<void> {
    await this.reader?.cancel().catch(() => {});
    this.end();
  }
}
