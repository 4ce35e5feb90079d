/** `lisa mcp`: serves lisa's verbs as MCP tools over stdio until stdin closes. */
import type { LisaContext } from "../context.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { FlagsOf } from "../verb_spec.ts";
import type { mcpFlags } from "./mcp_spec.ts";

/** Runs the MCP server (`src/mcp/server.ts`, loaded only here: no other verb pays for the SDK). */
export default async function mcp(this: LisaContext, flags: FlagsOf<typeof mcpFlags>) {
  const { serveMcp } = await lazyImport<typeof import("../../mcp/server.ts")>(
    new URL("../../mcp/server.ts", import.meta.url),
  );
  this.exitCode = await serveMcp(this.deps, { projectRoot: flags.projectRoot });
}
