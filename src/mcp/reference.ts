/**
 * The reference page of the MCP tools (`docs/mcp-tools.md`), generated from the tools (and so
 * from the command table) by `deno task docs`; a test fails when the page differs.
 */
import { type ArgSchema, toolSpecs } from "./tools.ts";

/** Where the page lives, from the repository root. */
export const REFERENCE_PATH = "docs/mcp-tools.md";

function typeOf(a: ArgSchema): string {
  if (a.enum) return a.enum.map((v) => `\`${v}\``).join(" \\| ");
  if (a.type === "array" && a.items?.enum) {
    return `array of ${typeOf({ ...a.items, description: "" })} (or comma-separated text)`;
  }
  if (a.type === "array") return `array of ${a.items?.type ?? "string"} (or comma-separated text)`;
  const range = a.minimum !== undefined || a.maximum !== undefined
    ? ` ${a.minimum ?? "…"}–${a.maximum ?? "…"}`
    : "";
  return `${a.type}${range}`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The page's whole text. */
export function referencePage(): string {
  const out = [
    "# lisa's MCP tools",
    "",
    "Every tool `lisa mcp` serves, with its arguments: for whoever connects an agent or another MCP",
    "client to lisa. Generated from the command table by `deno task docs` (do not edit). `lisa mcp`",
    "serves these tools over stdio; each runs the verb of the same name (`session` dropped:",
    "`kill_all` is `lisa session kill-all`) with its flags as arguments, and returns the document",
    "that verb prints under `--json` as `structuredContent` (and as JSON text in `content`), with",
    "`isError: true` when that document says `ok: false`; `_meta.exitCode` is the CLI's exit code.",
    "How to add it to an agent, and what it promises:",
    "[the guide](guide.md#agents-as-orchestrators-lisa-mcp).",
    "",
  ];
  for (const t of toolSpecs()) {
    out.push(`## \`${t.name}\``, "", `\`lisa ${t.route}\`: ${t.description}.`, "");
    const required = new Set(t.inputSchema.required ?? []);
    const args = Object.entries(t.inputSchema.properties);
    if (args.length === 0) {
      out.push("No arguments.", "");
      continue;
    }
    out.push("| argument | type | default | description |", "| --- | --- | --- | --- |");
    for (const [name, a] of args) {
      const def = a.default === undefined ? "" : `\`${JSON.stringify(a.default)}\``;
      const req = required.has(name) ? " (required)" : "";
      out.push(`| \`${name}\`${req} | ${typeOf(a)} | ${def} | ${cell(a.description)} |`);
    }
    out.push("");
  }
  return out.join("\n");
}
