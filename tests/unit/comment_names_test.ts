/**
 * Every file a comment of `src/`, `main.ts` or `scripts/` names (a `*.ts` word in a comment)
 * exists, so a reader sent to a file finds it. A name with a folder (`capture/offset.ts`,
 * `src/core/hook/run_hook.ts`) is read from the comment's folder, else as the end of a path of the
 * checkout; a bare name (`offset.ts`) must be in the comment's folder or one above it: a file of
 * another folder is named with its folder. Not checked: placeholders (`x.ts`), name patterns
 * (`_spec.ts`, `non-.ts`) and `mod.ts` (every domain's face).
 */
import { deepStrictEqual } from "node:assert/strict";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

const COMMENT = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;
const NAME = /(?<![\w./-])((?:\.{1,2}\/|[\w-]+\/)*[\w-]+\.ts)\b/g;
/** lisa's file names: snake_case. Anything else in a comment is a pattern, not a file. */
const FILE_NAME = /^[a-z0-9][a-z0-9_]*\.ts$/;

function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/** True when `name`, mentioned in the file at `from`, names a file of `paths` (see the doc). */
function names(paths: readonly string[], from: string, name: string): boolean {
  const all = new Set(paths);
  const dir = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
  if (name.includes("/")) {
    return all.has(normalize(`${dir}/${name}`)) || all.has(name) ||
      paths.some((p) => p.endsWith(`/${name}`));
  }
  for (let d = dir;; d = d.includes("/") ? d.slice(0, d.lastIndexOf("/")) : "") {
    if (all.has(d === "" ? name : `${d}/${name}`)) return true;
    if (d === "") return false;
  }
}

/** The comments' file names that name no file, as "file: name". */
export function staleNames(texts: ReadonlyMap<string, string>, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const [path, text] of texts) {
    for (const comment of text.matchAll(COMMENT)) {
      for (const m of comment[0].matchAll(NAME)) {
        const base = m[1].slice(m[1].lastIndexOf("/") + 1);
        if (!FILE_NAME.test(base) || base === "x.ts" || base === "mod.ts") continue;
        if (!names(paths, path, m[1])) out.push(`${path}: ${m[1]}`);
      }
    }
  }
  return out;
}

/** Every file of the checkout under `dirs` (repo-relative), hidden ones aside. */
function filesUnder(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    if (Deno.statSync(`${ROOT}/${rel}`).isFile) {
      out.push(rel);
      return;
    }
    for (const entry of Deno.readDirSync(`${ROOT}/${rel}`)) {
      if (!entry.name.startsWith(".")) walk(`${rel}/${entry.name}`);
    }
  };
  for (const dir of dirs) walk(dir);
  return out;
}

Deno.test("every file a comment of src/, main.ts or scripts/ names exists", () => {
  const paths = filesUnder(["main.ts", "src", "scripts", "tests"]);
  const checked = paths.filter((p) =>
    p.endsWith(".ts") && (p === "main.ts" || p.startsWith("src/") || p.startsWith("scripts/"))
  );
  const texts = new Map(checked.map((p) => [p, Deno.readTextFileSync(`${ROOT}/${p}`)]));
  deepStrictEqual(staleNames(texts, paths), []);
});

Deno.test("a gone file, a file of another folder named bare, and a wrong folder are found", () => {
  const paths = ["main.ts", "src/core/kill/kill.ts", "src/core/kill/coverage.ts", "src/base/x.ts"];
  const texts = new Map([
    [
      "src/core/kill/kill.ts",
      [
        "/** What the search could see (`kill_coverage.ts`), see `coverage.ts` and `main.ts`. */",
        "// `kill.ts` is this file; `core/kill/coverage.ts` and `../kill/coverage.ts` are there.",
        "// `x.ts` and `_spec.ts` are patterns; `base/x.ts` too.",
        "/* the poll is written by `record.ts` in `src/hook/run_hook.ts` */",
        'const s = "not a comment: gone.ts";',
      ].join("\n"),
    ],
  ]);
  deepStrictEqual(staleNames(texts, paths), [
    "src/core/kill/kill.ts: kill_coverage.ts",
    "src/core/kill/kill.ts: record.ts",
    "src/core/kill/kill.ts: src/hook/run_hook.ts",
  ]);
});
