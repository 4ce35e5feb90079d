/**
 * `deno task docs`: rewrites the generated blocks of the README (command map, error codes, from
 * the command table and the error-code table) and of `docs/development.md` (the ranking of the
 * core domains, from the imports: `module_graph.ts`). `--check` exits 1 when a file is out of
 * date.
 */
import { withBlocks, withGeneratedBlocks } from "../src/cli/docs.ts";
import { checkoutGraph, rankingTable } from "./module_graph.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** Each generated file with the function that redoes its blocks. */
const FILES: Record<string, (text: string) => string> = {
  "README.md": withGeneratedBlocks,
  "docs/development.md": (text) =>
    withBlocks(
      text,
      { "domain-ranking": () => rankingTable(checkoutGraph(ROOT)) },
      "docs/development.md",
    ),
};

let stale = false;
for (const [file, redo] of Object.entries(FILES)) {
  const path = `${ROOT}/${file}`;
  const text = Deno.readTextFileSync(path);
  const next = redo(text);
  if (next === text) continue;
  if (Deno.args.includes("--check")) {
    Deno.stderr.writeSync(new TextEncoder().encode(`${file} is out of date: run deno task docs\n`));
    stale = true;
  } else Deno.writeTextFileSync(path, next);
}
if (stale) Deno.exit(1);
