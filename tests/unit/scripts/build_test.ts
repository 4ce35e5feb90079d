/** The build's rewrite of lazy imports (scripts/build.ts): what the bundler can follow. */
import { ok, strictEqual, throws } from "node:assert/strict";
import { inlineLazyImports } from "../../../scripts/build.ts";

Deno.test("a lazy import of a literal relative path becomes a plain import, over lines, with its type", () => {
  const text = [
    'const { a } = await lazyImport<typeof import("../x/a.ts")>(',
    '  new URL("../x/a.ts", import.meta.url),',
    ");",
    'const load = () => lazyImport(new URL("./commands/b.ts", import.meta.url));',
  ].join("\n");
  const { text: out, count } = inlineLazyImports("/repo/src/y.ts", text);
  strictEqual(count, 2);
  strictEqual(
    out,
    'const { a } = await import("../x/a.ts");\nconst load = () => import("./commands/b.ts");',
  );
});

Deno.test("a lazy import the build cannot follow fails the build, naming the line", () => {
  const text = 'const x = 1;\nconst m = await lazyImport(new URL(pathOf("a"), import.meta.url));\n';
  throws(() => inlineLazyImports("/repo/src/z.ts", text), /\/repo\/src\/z\.ts:2: a lazy import/);
  const js = 'const m = await lazyImport(new URL("./data.js", import.meta.url));';
  throws(() => inlineLazyImports("/repo/src/z.ts", js), /z\.ts:1: a lazy import/);
});

Deno.test("main.ts's parts and non-relative imports (node:sqlite) are left as they are", () => {
  const main =
    "lazyImport<Parts[N]>(new URL(built ? `./${name}.js` : PARTS[name], import.meta.url))";
  strictEqual(inlineLazyImports("/repo/main.ts", main).text, main);
  const sqlite = 'sqlite = await lazyImport<SqliteModule>(new URL("node:sqlite"));';
  const r = inlineLazyImports("/repo/src/core/history/store.ts", sqlite);
  strictEqual(r.count, 0);
  ok(r.text.includes('new URL("node:sqlite")'));
});
