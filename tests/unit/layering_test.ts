/**
 * The layering of `src/` (DESIGN §3): imports run one way, from the command line down to the
 * base. A module may import modules of its own folder and of lower layers only:
 *
 *   cli | mcp → core → agents → tmux | proc | store → base
 *
 * `cli` and `mcp` are the interfaces, on one rank, and may use each other: the MCP server
 * serves the command table's verbs (their flags, implementations and error reporting), and the
 * table's `mcp` verb starts the server.
 * `agents` (per-agent knowledge) reads hook files through `store` and process facts through
 * `proc`; `tmux`, `proc` and `store` do not import each other; `base` imports nothing of lisa.
 *
 * Inside `core`, each folder is a domain with a face (`mod.ts`): a file outside the domain
 * (another domain, `cli/`, `mcp/`, `main.ts`, `scripts/`) imports the face only, and the domains
 * import each other without a cycle, so they can be ranked (`docs/development.md` shows the
 * ranking).
 * Every import counts: static, dynamic, `typeof import(…)` and `lazyImport(new URL(…))`
 * (`scripts/module_graph.ts` reads them).
 */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  checkoutGraph,
  cyclesOf,
  domainGraph,
  domainOf,
  domainsAt,
  edgesOf,
  faceViolations,
  importsOf,
  rankingTable,
  ranksOf,
  readTree,
} from "../../scripts/module_graph.ts";
import { withBlocks } from "../../src/cli/docs.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const RANK: Record<string, number> = {
  base: 0,
  tmux: 1,
  proc: 1,
  store: 1,
  agents: 2,
  core: 3,
  cli: 4,
  mcp: 4,
};
/** Folders of one rank that may import each other. */
const PEERS = new Set(["cli", "mcp"]);

/** The top folder of `src/` a repo-relative path is in. */
function layerOf(path: string): string {
  return path.split("/")[1];
}

/** Every import of `src/` that runs against the layering, as "from → to". */
export function violations(): string[] {
  return edgesOf(readTree(ROOT, ["src"])).filter((e) => {
    const from = layerOf(e.from);
    const to = layerOf(e.to);
    return !(to === from || RANK[to] < RANK[from] || (PEERS.has(from) && PEERS.has(to)));
  }).map((e) => `${e.from} → ${e.to}`);
}

Deno.test("every folder of src/ has a layer", () => {
  for (const entry of Deno.readDirSync(`${ROOT}/src`)) {
    if (entry.isDirectory) ok(entry.name in RANK, `src/${entry.name} has no layer`);
  }
});

Deno.test("imports run one way: cli/mcp → core → agents → tmux/proc/store → base", () => {
  deepStrictEqual(violations(), []);
});

Deno.test("base imports nothing of lisa but base", () => {
  for (const e of edgesOf(readTree(ROOT, ["src/base"]))) {
    ok(e.to.startsWith("src/base/"), `${e.from} imports ${e.to}`);
  }
});

Deno.test("every domain of src/core has a face (mod.ts)", () => {
  for (const domain of domainsAt(ROOT)) {
    ok(Deno.statSync(`${ROOT}/src/core/${domain}/mod.ts`).isFile, `core/${domain} has no mod.ts`);
  }
});

Deno.test("a file outside a domain imports only its face (mod.ts)", () => {
  deepStrictEqual(faceViolations(edgesOf(readTree(ROOT, ["src", "main.ts", "scripts"]))), []);
});

Deno.test("the domains of src/core import each other without a cycle", () => {
  deepStrictEqual(cyclesOf(checkoutGraph(ROOT)), []);
});

Deno.test("docs/development.md shows the domain ranking the imports give (deno task docs)", () => {
  const path = `${ROOT}/docs/development.md`;
  const text = Deno.readTextFileSync(path);
  const ranking = () => rankingTable(checkoutGraph(ROOT));
  strictEqual(withBlocks(text, { "domain-ranking": ranking }, path), text);
});

// The checks above must be able to fail: the same functions, over made-up trees.

Deno.test("the graph reads static, dynamic, typeof and new URL imports, not commented ones", () => {
  const text = [
    `import { a } from "./a.ts";`,
    `export { b } from "../b.ts";`,
    `import "./side.ts";`,
    `const c = await import("./c.ts");`,
    `type D = typeof import("./d.ts");`,
    `const e = lazyImport<D>(new URL("./e.ts", import.meta.url));`,
    `// import { f } from "./f.ts";`,
    `/** lazyImport(new URL("./g.ts", import.meta.url)) */`,
  ].join("\n");
  deepStrictEqual(importsOf("src/core/x/m.ts", text).map((e) => `${e.kind} ${e.to}`).sort(), [
    "dynamic src/core/x/c.ts",
    "dynamic src/core/x/d.ts",
    "static src/core/b.ts",
    "static src/core/x/a.ts",
    "static src/core/x/side.ts",
    "url src/core/x/e.ts",
  ]);
});

Deno.test("a reach past a face is found, a face and a file of one's own domain are not", () => {
  const tree = new Map([
    ["src/cli/v.ts", `import { s } from "../core/status/status.ts";`],
    [
      "src/core/drive/send.ts",
      `const m = lazyImport(new URL("../status/mod.ts", import.meta.url));`,
    ],
    ["src/core/status/mod.ts", `export { s } from "./status.ts";`],
    ["src/core/status/status.ts", `export const s = 1;`],
  ]);
  deepStrictEqual(faceViolations(edgesOf(tree)), [
    "src/cli/v.ts → src/core/status/status.ts",
  ]);
  strictEqual(domainOf("src/core/status/status.ts"), "status");
  strictEqual(domainOf("src/cli/v.ts"), null);
});

Deno.test("a cycle between domains is found, however it is imported, and cannot be ranked", () => {
  const tree = new Map([
    ["src/core/a/mod.ts", `import { b } from "../b/mod.ts";`],
    ["src/core/b/mod.ts", `type C = typeof import("../c/mod.ts");`],
    ["src/core/c/mod.ts", `const a = lazyImport(new URL("../a/mod.ts", import.meta.url));`],
    ["src/core/d/mod.ts", `import { a } from "../a/mod.ts";`],
  ]);
  const graph = domainGraph(edgesOf(tree), ["a", "b", "c", "d"]);
  const cycles = cyclesOf(graph);
  strictEqual(cycles.length, 1);
  ok(cycles[0].startsWith("a, b, c: a → b "), cycles[0]);
  ok(cycles[0].includes("c → a (src/core/c/mod.ts → src/core/a/mod.ts)"), cycles[0]);
  throws(() => ranksOf(graph), /cycle/);
});

Deno.test("ranks: a domain ranks above every domain it imports", () => {
  const tree = new Map([
    ["src/core/top/mod.ts", `import "../mid/mod.ts";\nimport "../low/mod.ts";`],
    ["src/core/mid/mod.ts", `import "../low/mod.ts";`],
    ["src/core/low/mod.ts", ``],
  ]);
  const ranks = ranksOf(domainGraph(edgesOf(tree), ["low", "mid", "top"]));
  deepStrictEqual(Object.fromEntries(ranks), { low: 0, mid: 1, top: 2 });
});
