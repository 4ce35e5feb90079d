/**
 * `deno task docs`: rewrites the README's generated blocks (command map, error codes) from the
 * command table and the error-code table, and the MCP tools' reference page
 * (`docs/mcp-tools.md`). `--check` exits 1 when either is out of date.
 */
import { withGeneratedBlocks } from "../src/cli/docs.ts";
import { REFERENCE_PATH, referencePage } from "../src/mcp/reference.ts";

const page = new URL(`../${REFERENCE_PATH}`, import.meta.url).pathname;
const pageNow = (() => {
  try {
    return Deno.readTextFileSync(page);
  } catch {
    return "";
  }
})();
if (Deno.args.includes("--check") && pageNow !== referencePage()) {
  Deno.stderr.writeSync(
    new TextEncoder().encode(`${REFERENCE_PATH} is out of date: run deno task docs\n`),
  );
  Deno.exit(1);
} else if (pageNow !== referencePage()) {
  Deno.mkdirSync(new URL("../docs", import.meta.url), { recursive: true });
  Deno.writeTextFileSync(page, referencePage());
}

const path = new URL("../README.md", import.meta.url).pathname;
const text = Deno.readTextFileSync(path);
const next = withGeneratedBlocks(text);
if (Deno.args.includes("--check")) {
  if (next !== text) {
    Deno.stderr.writeSync(new TextEncoder().encode("README is out of date: run deno task docs\n"));
    Deno.exit(1);
  }
} else if (next !== text) Deno.writeTextFileSync(path, next);
