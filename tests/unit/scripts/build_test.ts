/** The build's rewrite of lazy imports (scripts/build.ts): what the bundler can follow. */
import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import {
  declarationsOf,
  EVERY_VERB_ROUTES,
  inlineLazyImports,
  parseBuildArgs,
  routeBundleName,
  routeLoaderOf,
  withoutLoader,
} from "../../../scripts/build.ts";
import { routeIn } from "../../../main.ts";

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

Deno.test("a computed lazy import fails the build whatever its type argument, and one of a URL held in a variable", () => {
  const nested = "const m = await lazyImport<Promise<M>>(new URL(`./${n}.ts`, import.meta.url));";
  throws(() => inlineLazyImports("/repo/src/z.ts", nested), /z\.ts:1: a lazy import/);
  const held = 'const u = new URL("./a.ts", import.meta.url);\nconst m = await lazyImport<M>(u);';
  throws(() => inlineLazyImports("/repo/src/z.ts", held), /z\.ts:2: a lazy import/);
  const parted = 'await lazyImport(\n  new URL("./data.json", import.meta.url),\n);';
  throws(() => inlineLazyImports("/repo/src/z.ts", parted), /z\.ts:1: a lazy import/);
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

/** A verb declaration as the build's copy holds it (its loader already a plain import). */
const KILL_ALL_COPY = [
  "export const killAllVerb = {",
  '  route: "session kill-all",',
  '  brief: "kill every session",',
  "  flags: killAllFlags,",
  '  load: () => import("./kill_all.ts"),',
  "} satisfies VerbSpec;",
].join("\n");

Deno.test("a verb's declaration is read with its route and the module it loads", () => {
  deepStrictEqual(routeLoaderOf("src/cli/commands/session/kill_all_spec.ts", KILL_ALL_COPY), {
    route: "session kill-all",
    spec: "src/cli/commands/session/kill_all_spec.ts",
    module: "./kill_all.ts",
  });
  strictEqual(routeBundleName("session kill-all"), "session-kill-all");
  throws(
    () => routeLoaderOf("x_spec.ts", KILL_ALL_COPY.replace(/ {2}load:.*\n/, "")),
    /x_spec\.ts: a verb declaration needs one route and one loader/,
  );
});

Deno.test("another route's bundle fails this verb's loader, naming it", () => {
  const text = withoutLoader(KILL_ALL_COPY, "session kill-all");
  ok(!text.includes('import("./kill_all.ts")'));
  ok(
    text.includes(
      'load: () => Promise.reject(new Error("lisa build: session kill-all is not in this bundle")),',
    ),
  );
});

Deno.test("the whole table's bundle can do without a route's code (mcp has a bundle of its own)", () => {
  const version = routeLoaderOf(
    "src/cli/commands/version_spec.ts",
    KILL_ALL_COPY.replace('"session kill-all"', '"version"').replace(
      "./kill_all.ts",
      "./version.ts",
    ),
  );
  const killAll = routeLoaderOf("src/cli/commands/session/kill_all_spec.ts", KILL_ALL_COPY);
  deepStrictEqual(declarationsOf([version, killAll], new Set(["version"])), [version]);
  ok(EVERY_VERB_ROUTES.has("mcp"));
  throws(() => declarationsOf([version, killAll], new Set(["nope"])), /no loader of "nope"/);
});

Deno.test("the built entry picks a route's bundle only for an exact route, two words first", () => {
  const routes = ["version", "session capture", "session kill-all"];
  strictEqual(routeIn(["session", "capture", "--json"], routes), "session capture");
  strictEqual(routeIn(["version", "--json"], routes), "version");
  strictEqual(routeIn(["session", "--help"], routes), null);
  strictEqual(routeIn(["session", "captur"], routes), null);
  strictEqual(routeIn(["../x", "y"], routes), null);
  strictEqual(routeIn([], routes), null);
});

Deno.test("build arguments: relative paths from the task's folder, a flag without value refused", () => {
  const env = { HOME: "/home/u" };
  const a = parseBuildArgs(["--out", "d", "--install", "--root", "r"], env, "/repo");
  deepStrictEqual(a, { out: "/repo/d", minify: true, root: "/repo/r" });
  strictEqual(parseBuildArgs(["--out", "/abs"], env, "/repo").out, "/abs");
  strictEqual(parseBuildArgs([], env, "/repo").root, null);
  strictEqual(parseBuildArgs(["--install"], env, "/repo").root, "/home/u/.deno");
  strictEqual(
    parseBuildArgs(["--install"], { ...env, DENO_INSTALL_ROOT: "/opt/d" }, "/repo").root,
    "/opt/d",
  );
  strictEqual(parseBuildArgs(["--no-minify"], env, "/repo").minify, false);
  // Refused before anything is built, rather than installing into "undefined/bin".
  throws(() => parseBuildArgs(["--install", "--root"], env, "/repo"), /--root needs a directory/);
  throws(() => parseBuildArgs(["--out", "--install"], env, "/repo"), /--out needs a directory/);
  // Anything else (a typo, the --out=DIR form) is refused, not ignored.
  throws(() => parseBuildArgs(["--out=d"], env, "/repo"), /unknown argument "--out=d"/);
  throws(() => parseBuildArgs(["--instal"], env, "/repo"), /unknown argument "--instal"/);
});
