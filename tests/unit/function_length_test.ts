/**
 * No function in `src/` is longer than {@link MAX_LINES} lines (CONVENTIONS: a longer one is a
 * sign to name its phases). What counts: every function Deno's parser sees — declarations,
 * expressions (methods included), arrow functions — from the line its first token is on to the
 * line of its last, both included, comments and blank lines too; a function inside another counts
 * in that one as well. The functions are found by a lint rule run with `Deno.lint.runPlugin`, on
 * Deno's own syntax tree, so strings, regular expressions and types never confuse the count.
 */
import { deepStrictEqual } from "node:assert/strict";

/** The longest a function of `src/` may be, in lines. */
const MAX_LINES = 80;

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

// deno-lint-ignore no-explicit-any
type Node = any;

/** A name for the function at `node`: its own, its variable's, its method's, or anonymous. */
function nameOf(node: Node): string {
  if (node.id?.name) return node.id.name;
  const parent = node.parent;
  if (parent?.type === "VariableDeclarator" && parent.id?.name) return parent.id.name;
  if ((parent?.type === "MethodDefinition" || parent?.type === "Property") && parent.key) {
    return parent.key.name ?? String(parent.key.value);
  }
  return "(anonymous)";
}

/** Reports each function over `max` lines as "name: N lines". */
function lengthRule(max: number): Deno.lint.Plugin {
  return {
    name: "lisa",
    rules: {
      "max-function-lines": {
        create(context) {
          const check = (node: Node) => {
            const text = context.sourceCode.text;
            const first = text.slice(0, node.range[0]).split("\n").length;
            const last = text.slice(0, node.range[1]).split("\n").length;
            const lines = last - first + 1;
            if (lines > max) context.report({ node, message: `${nameOf(node)}: ${lines} lines` });
          };
          return {
            FunctionDeclaration: check,
            FunctionExpression: check,
            ArrowFunctionExpression: check,
          };
        },
      },
    },
  };
}

/** The functions of `text` (the file at `path`) over `max` lines, as "path:line name: N lines". */
function longFunctions(path: string, text: string, max = MAX_LINES): string[] {
  return Deno.lint.runPlugin(lengthRule(max), path, text).map((d) => {
    const line = text.slice(0, d.range[0]).split("\n").length;
    return `${path}:${line} ${d.message}`;
  });
}

function* sources(dir: string): Generator<string> {
  for (const entry of Deno.readDirSync(`${ROOT}/${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

Deno.test(`no function in src/ is longer than ${MAX_LINES} lines`, () => {
  const long = [...sources("src")].flatMap((path) =>
    longFunctions(path, Deno.readTextFileSync(`${ROOT}/${path}`))
  );
  deepStrictEqual(long, []);
});

/** A function of `n` lines in all (its first and last line included). */
function functionOf(n: number, head = "function f() {"): string {
  return [head, ...Array.from({ length: n - 2 }, (_, i) => `  const x${i} = ${i};`), "}"]
    .join("\n");
}

Deno.test("the count: first to last line of any function, nested ones in their parent too", () => {
  deepStrictEqual(longFunctions("a.ts", functionOf(MAX_LINES)), []);
  deepStrictEqual(longFunctions("a.ts", functionOf(MAX_LINES + 1)), [
    `a.ts:1 f: ${MAX_LINES + 1} lines`,
  ]);
  const arrow = functionOf(MAX_LINES + 1, "export const g = async (a: string) => {") + ";";
  deepStrictEqual(longFunctions("b.ts", arrow), [`b.ts:1 g: ${MAX_LINES + 1} lines`]);
  // A method's lines, a nested function's included (the nested one alone is short enough).
  const inner = functionOf(MAX_LINES - 1, "const inner = () => {");
  const method = `class C {\n  m() {\n${inner}\n  }\n}`;
  deepStrictEqual(longFunctions("c.ts", method), [`c.ts:2 m: ${MAX_LINES + 1} lines`]);
  const braces = 'function h() {\n  const s = "}}}";\n  const r = /\\{/;\n  return [s, r];\n}';
  deepStrictEqual(longFunctions("d.ts", braces, 4), ["d.ts:1 h: 5 lines"]);
});
