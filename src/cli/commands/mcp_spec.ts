/** `lisa mcp`: its flags, help and loader (the implementation is `mcp.ts`). */
import * as F from "../flags.ts";
import { lazyImport } from "../../base/lazy.ts";
import type { VerbSpec } from "../verb_spec.ts";

/** The flags of `lisa mcp`. */
export const mcpFlags = { projectRoot: F.projectRoot };

/** `lisa mcp`. */
export const mcpVerb = {
  route: "mcp",
  brief: "serve lisa's verbs as MCP tools over stdio (for Claude Code, Codex and other agents)",
  fullDescription: "Add it to an agent: claude mcp add lisa -- lisa mcp (codex: " +
    '[mcp_servers.lisa] command = "lisa", args = ["mcp"]). It runs until its stdin ' +
    "closes; the sessions it spawned keep running. --project-root is the default of every call.",
  flags: mcpFlags,
  mcp: false,
  load: () => lazyImport(new URL("./mcp.ts", import.meta.url)),
} satisfies VerbSpec;
