/**
 * `deno task docs`: rewrites the reference page (`docs/reference.md`: commands, flags, states,
 * exit and error codes, environment, from the command table and the code's tables, keeping its
 * hand-written prose blocks), the generated block of `docs/development.md` (the ranking of the
 * core domains, from the imports: `module_graph.ts`), and the MCP tools' reference page
 * (`docs/mcp-tools.md`, whole). `--check` exits 1 when a file is out of date.
 */
import { withBlocks } from "../src/cli/docs.ts";
import { REFERENCE_PAGE, referencePage } from "../src/cli/reference.ts";
import { REFERENCE_PATH, referencePage as toolsPage } from "../src/mcp/reference.ts";
import { checkoutGraph, rankingTable } from "./module_graph.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** Each generated file with the function that redoes it (its blocks, or the whole of it). */
const FILES: Record<string, (text: string) => string> = {
  [REFERENCE_PAGE]: referencePage,
  "docs/development.md": (text) =>
    withBlocks(
      text,
      { "domain-ranking": () => rankingTable(checkoutGraph(ROOT)) },
      "docs/development.md",
    ),
  [REFERENCE_PATH]: () => toolsPage(),
};

/** The file's text; "" when there is none yet (a generated page is then written whole). */
function readOrEmpty(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}

let stale = false;
for (const [file, redo] of Object.entries(FILES)) {
  const path = `${ROOT}/${file}`;
  const text = readOrEmpty(path);
  const next = redo(text);
  if (next === text) continue;
  if (Deno.args.includes("--check")) {
    Deno.stderr.writeSync(new TextEncoder().encode(`${file} is out of date: run deno task docs\n`));
    stale = true;
  } else {
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(path, next);
  }
}
if (stale) Deno.exit(1);
