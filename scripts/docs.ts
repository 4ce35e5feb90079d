/**
 * `deno task docs`: rewrites the README's generated blocks (command map, error codes) from the
 * command table and the error-code table. `--check` exits 1 when the README is out of date.
 */
import { withGeneratedBlocks } from "../src/cli/docs.ts";

const path = new URL("../README.md", import.meta.url).pathname;
const text = Deno.readTextFileSync(path);
const next = withGeneratedBlocks(text);
if (Deno.args.includes("--check")) {
  if (next !== text) {
    Deno.stderr.writeSync(new TextEncoder().encode("README is out of date: run deno task docs\n"));
    Deno.exit(1);
  }
} else if (next !== text) Deno.writeTextFileSync(path, next);
