/**
 * lisa's module graph as its layering test and `deno task docs` read it: every import of a
 * source file (static `import … from`, `export … from`, side-effect `import "…"`, dynamic
 * `import("…")`, type-level `typeof import("…")`, and `lazyImport(new URL("…", import.meta.url))`,
 * the lazy form `src/base/lazy.ts` explains), resolved to the file it names. On top of it: the
 * domains of `src/core/` (each folder is one), which domain imports which, the cycles among them,
 * each domain's rank (what it may import: only lower ranks), and the imports that reach past a
 * domain's face (`mod.ts`). Pure over a map of file texts, so tests can feed it made-up trees.
 */

/** Repo-relative path → file text. */
export type SourceTree = ReadonlyMap<string, string>;

/** One import of a file: the file it names (repo-relative) and how. */
export interface Edge {
  from: string;
  to: string;
  kind: "static" | "dynamic" | "url";
}

/** Comments are prose: an import named in one is no import. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

const STATIC = /(?:\bfrom\s*|^\s*import\s*)"(\.{1,2}\/[^"\n]+)"/gm;
const DYNAMIC = /\bimport\(\s*"(\.{1,2}\/[^"\n]+)"\s*\)/g;
const URL_IMPORT = /\bnew URL\(\s*"(\.{1,2}\/[^"\n]+\.ts)"\s*,\s*import\.meta\.url/g;

/** `path` with `.` and `..` segments resolved (repo-relative, no leading slash). */
export function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/** The relative imports of the file at `path` (repo-relative) with text `text`. */
export function importsOf(path: string, text: string): Edge[] {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  const code = withoutComments(text);
  const edges: Edge[] = [];
  const add = (spec: string, kind: Edge["kind"]) =>
    edges.push({ from: path, to: normalize(`${dir}/${spec}`), kind });
  for (const m of code.matchAll(STATIC)) add(m[1], "static");
  for (const m of code.matchAll(DYNAMIC)) add(m[1], "dynamic");
  for (const m of code.matchAll(URL_IMPORT)) add(m[1], "url");
  return edges;
}

/** Every import of every file of `tree`. */
export function edgesOf(tree: SourceTree): Edge[] {
  return [...tree].flatMap(([path, text]) => importsOf(path, text));
}

/** The core domain a path is in (`src/core/status/x.ts` → `status`), or null. */
export function domainOf(path: string): string | null {
  const m = /^src\/core\/([^/]+)\//.exec(path);
  return m === null ? null : m[1];
}

/** The face of `domain`: the one file other folders may import. */
export function faceOf(domain: string): string {
  return `src/core/${domain}/mod.ts`;
}

/** Imports from outside a domain that name a file of it other than its face, as "from → to". */
export function faceViolations(edges: readonly Edge[]): string[] {
  return edges.filter((e) => {
    const target = domainOf(e.to);
    return target !== null && domainOf(e.from) !== target && e.to !== faceOf(target);
  }).map((e) => `${e.from} → ${e.to}`);
}

/** Domain → the domains it imports, each with one import that shows it. */
export type DomainGraph = Map<string, Map<string, Edge>>;

/** Which core domain imports which (`domains` lists every domain, importing or not). */
export function domainGraph(edges: readonly Edge[], domains: readonly string[]): DomainGraph {
  const graph: DomainGraph = new Map(domains.map((d) => [d, new Map()]));
  for (const e of edges) {
    const from = domainOf(e.from);
    const to = domainOf(e.to);
    if (from === null || to === null || from === to) continue;
    const out = graph.get(from) ?? new Map<string, Edge>();
    if (!out.has(to)) out.set(to, e);
    graph.set(from, out);
  }
  return graph;
}

/**
 * The cycles of `graph`: one line per strongly connected group of two or more domains (domains
 * that each reach all the others), naming the group and one closed path through it with the
 * import that makes each step.
 */
export function cyclesOf(graph: DomainGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.map((group) => describeCycle(graph, group));
}

/** A closed path through `group` (a strongly connected set of domains), with its imports. */
function describeCycle(graph: DomainGraph, group: readonly string[]): string {
  const members = new Set(group);
  const start = [...group].sort()[0];
  // Breadth-first from `start` back to it, inside the group: the shortest cycle through it.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!members.has(w) || previous.has(w)) continue;
      previous.set(w, v);
      if (w === start) queue.length = 0;
      else queue.push(w);
    }
  }
  const path = [start];
  for (let v = previous.get(start)!; v !== start; v = previous.get(v)!) path.unshift(v);
  path.unshift(start);
  const steps = path.slice(1).map((to, i) => {
    const e = graph.get(path[i])!.get(to)!;
    return `${path[i]} → ${to} (${e.from} → ${e.to})`;
  });
  return `${[...group].sort().join(", ")}: ${steps.join("; ")}`;
}

/**
 * Each domain's rank: 0 for a domain that imports no other, else one more than the highest rank
 * it imports. A domain may import only lower ranks. Throws when `graph` has a cycle.
 */
export function ranksOf(graph: DomainGraph): Map<string, number> {
  const ranks = new Map<string, number>();
  const visiting = new Set<string>();
  const rank = (d: string): number => {
    const known = ranks.get(d);
    if (known !== undefined) return known;
    if (visiting.has(d)) throw new Error(`domains import each other in a cycle through ${d}`);
    visiting.add(d);
    const deps = [...(graph.get(d)?.keys() ?? [])].map(rank);
    visiting.delete(d);
    const r = deps.length === 0 ? 0 : Math.max(...deps) + 1;
    ranks.set(d, r);
    return r;
  };
  for (const d of graph.keys()) rank(d);
  return ranks;
}

/** The ranking as markdown: one row per rank, lowest first, with what each domain imports. */
export function rankingTable(graph: DomainGraph): string {
  const ranks = ranksOf(graph);
  const byRank = new Map<number, string[]>();
  for (const [d, r] of ranks) byRank.set(r, [...(byRank.get(r) ?? []), d]);
  const rows = [...byRank.keys()].sort((a, b) => a - b).flatMap((r) =>
    byRank.get(r)!.sort().map((d) => {
      const deps = [...graph.get(d)!.keys()].sort();
      return [String(r), `\`${d}\``, deps.length === 0 ? "—" : deps.join(", ")];
    })
  );
  const head = ["rank", "domain", "imports (faces of)"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(head), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)]
    .join("\n") + "\n";
}

/** The `.ts` files under `dir` (repo-relative), read from the checkout at `root`. */
export function readTree(root: string, dirs: readonly string[]): Map<string, string> {
  const tree = new Map<string, string>();
  const walk = (rel: string) => {
    const info = Deno.statSync(`${root}/${rel}`);
    if (info.isFile) {
      if (rel.endsWith(".ts")) tree.set(rel, Deno.readTextFileSync(`${root}/${rel}`));
      return;
    }
    for (const entry of Deno.readDirSync(`${root}/${rel}`)) walk(`${rel}/${entry.name}`);
  };
  for (const dir of dirs) walk(dir);
  return tree;
}

/** The core domains of the checkout at `root` (the folders of `src/core/`), sorted. */
export function domainsAt(root: string): string[] {
  return [...Deno.readDirSync(`${root}/src/core`)].filter((e) => e.isDirectory).map((e) => e.name)
    .sort();
}

/** The domain graph of the checkout at `root`. */
export function checkoutGraph(root: string): DomainGraph {
  return domainGraph(edgesOf(readTree(root, ["src"])), domainsAt(root));
}
