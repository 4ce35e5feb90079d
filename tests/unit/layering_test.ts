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
 */
import { deepStrictEqual, ok } from "node:assert/strict";

const SRC = new URL("../../src/", import.meta.url).pathname;
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
const IMPORT_RE = /(?:from\s*|import\(\s*)"(\.[^"]+)"/g;

function* sources(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) yield* sources(`${path}/`);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return `/${out.join("/")}`;
}

/** The top folder of `src/` a path is in. */
function layerOf(path: string): string {
  return path.slice(SRC.length).split("/")[0];
}

/** Every import of `src/` that runs against the layering, as "from → to". */
export function violations(): string[] {
  const out: string[] = [];
  for (const file of sources(SRC)) {
    const from = layerOf(file);
    const dir = file.slice(0, file.lastIndexOf("/"));
    for (const m of Deno.readTextFileSync(file).matchAll(IMPORT_RE)) {
      const target = normalize(`${dir}/${m[1]}`);
      const to = layerOf(target);
      const allowed = to === from || RANK[to] < RANK[from] || (PEERS.has(from) && PEERS.has(to));
      if (!allowed) out.push(`${file.slice(SRC.length)} → ${target.slice(SRC.length)}`);
    }
  }
  return out;
}

Deno.test("every folder of src/ has a layer", () => {
  for (const entry of Deno.readDirSync(SRC)) {
    if (entry.isDirectory) ok(entry.name in RANK, `src/${entry.name} has no layer`);
  }
});

Deno.test("imports run one way: cli/mcp → core → agents → tmux/proc/store → base", () => {
  deepStrictEqual(violations(), []);
});

Deno.test("base imports nothing of lisa but base", () => {
  for (const file of sources(`${SRC}base/`)) {
    for (const m of Deno.readTextFileSync(file).matchAll(IMPORT_RE)) {
      ok(m[1].startsWith("./"), `${file.slice(SRC.length)} imports ${m[1]}`);
    }
  }
});
