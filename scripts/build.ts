/**
 * `deno task build`: lisa as minified bundles in `dist/` (or `--out DIR`), the form
 * `deno task install` puts on PATH and `deno task bench` times (DESIGN §7).
 *
 * `dist/lisa.js` is `main.ts`: it picks the part a call needs and imports the bundle beside it,
 * `hook.js`, `status.js`, `list.js`, `verbs/<route>.js` (the command table with only that verb's
 * code, for a call naming the route exactly) or `cli.js` (the table with every verb: help, typos).
 * Each bundle is self-contained, so a call loads one small script instead of a graph of
 * TypeScript modules, and runs without a config file or npm resolution (`--no-config`).
 *
 * In the source, verbs and rarely used helpers are imported from computed URLs
 * (`src/base/lazy.ts`), which keeps them out of the graph Deno loads at start-up but also out of
 * a bundler's sight. The build works on a copy of the source in which every
 * `lazyImport(new URL("<relative path>", import.meta.url))` is a plain `import("<relative path>")`,
 * which the bundler inlines as code that runs only when called. A lazy import of any other
 * shape fails the build rather than leaving a bundle that imports TypeScript files at run time.
 *
 * Usage: deno task build [--out DIR] [--no-minify] [--install [--root DIR]]
 * `--no-minify` keeps names and lines (for reading a CPU profile of the built lisa).
 * With `--install`, a shim `lisa` is then written into `${DENO_INSTALL_ROOT:-~/.deno}/bin` (or
 * `--root DIR`/bin) that runs `<this deno> run <flags> <out>/lisa.js`: the bundles stay in the
 * checkout, so a rebuild after an update is what the shim runs (`lisa doctor` says when the
 * checkout has moved on since the build).
 */
import { BUNDLE_RUN_FLAGS, DENO_PERMISSIONS } from "../src/base/deps.ts";
import { commitAt } from "../src/base/version.ts";
import { PARTS } from "../main.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/** `lazyImport<T>(new URL("./x.ts", import.meta.url))`, over lines, with its type argument. */
const LAZY_CALL =
  /lazyImport(?:<[^()]*(?:\([^()]*\)[^()]*)*>)?\(\s*new URL\(\s*("\.{1,2}\/[^"]+\.ts"),\s*import\.meta\.url,?\s*\),?\s*\)/g;
/** A call of `lazyImport` (not its import or its definition): each must be checked. */
const ANY_LAZY_CALL = /\blazyImport\s*[<(]/g;
/** The one lazy import left as it is: of a literal URL with a scheme (`new URL("node:sqlite")`). */
const SCHEME_LAZY =
  /^lazyImport(?:<[^()]*(?:\([^()]*\)[^()]*)*>)?\(\s*new URL\(\s*"[a-z][a-z0-9+.-]*:[^"]*"\s*\)\s*\)/;

/** Rewrites the lazy imports of one source file; throws on one the bundler could not follow. */
export function inlineLazyImports(path: string, text: string): { text: string; count: number } {
  let count = 0;
  const out = text.replace(LAZY_CALL, (_call, specifier: string) => {
    count++;
    return `import(${specifier})`;
  });
  if (!path.endsWith("/main.ts") && !path.endsWith("/src/base/lazy.ts")) {
    // Any other lazy import (a computed URL, a URL in a variable, a non-.ts relative path) the
    // bundler cannot follow: the bundle would import it at run time, from beside itself.
    const left = [...out.matchAll(ANY_LAZY_CALL)].find((m) =>
      !SCHEME_LAZY.test(out.slice(m.index))
    );
    if (left !== undefined) {
      const line = out.slice(0, left.index).split("\n").length;
      throw new Error(
        `${path}:${line}: a lazy import the build cannot follow (use a literal path)`,
      );
    }
  }
  return { text: out, count };
}

/**
 * The checkout's HEAD commit, with `+dirty` when its tracked files differ from it (the bundle is
 * then not that commit); null outside a git checkout.
 */
async function builtCommit(): Promise<string | null> {
  const commit = commitAt(REPO);
  if (commit === null) return null;
  try {
    const { code, stdout } = await new Deno.Command("git", {
      args: ["-C", REPO, "status", "--porcelain", "--untracked-files=no"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return code === 0 && stdout.length > 0 ? `${commit}+dirty` : commit;
  } catch {
    return commit;
  }
}

/** Copies the files the bundles are made of (main.ts, src/, deno.json, deno.lock) to `dir`. */
async function copySource(dir: string): Promise<number> {
  let rewritten = 0;
  const copy = async (rel: string) => {
    const info = await Deno.stat(`${REPO}/${rel}`);
    if (info.isDirectory) {
      await Deno.mkdir(`${dir}/${rel}`, { recursive: true });
      for await (const entry of Deno.readDir(`${REPO}/${rel}`)) await copy(`${rel}/${entry.name}`);
      return;
    }
    if (rel === "src/base/version.ts") {
      // The bundle remembers the commit it was built from (it runs away from the checkout).
      const line = "export const BUILT_COMMIT: string | null = null;";
      const text = await Deno.readTextFile(`${REPO}/${rel}`);
      if (!text.includes(line)) throw new Error(`${rel}: no "${line}" to stamp`);
      const commit = await builtCommit();
      await Deno.writeTextFile(
        `${dir}/${rel}`,
        text.replace(line, `export const BUILT_COMMIT: string | null = ${JSON.stringify(commit)};`),
      );
      return;
    }
    if (!rel.endsWith(".ts")) {
      await Deno.copyFile(`${REPO}/${rel}`, `${dir}/${rel}`);
      return;
    }
    const { text, count } = inlineLazyImports(
      `${REPO}/${rel}`,
      await Deno.readTextFile(`${REPO}/${rel}`),
    );
    rewritten += count;
    await Deno.writeTextFile(`${dir}/${rel}`, text);
  };
  for (const rel of ["main.ts", "src", "deno.json", "deno.lock"]) await copy(rel);
  return rewritten;
}

/** One verb of the command table: its route, its declaration file and the module it loads. */
export interface RouteLoader {
  route: string;
  /** The declaration (`src/cli/commands/…/<verb>_spec.ts`), relative to the copy. */
  spec: string;
  /** What its loader imports, relative to the declaration. */
  module: string;
}

const ROUTE_LINE = /^\s*route: "([a-z][a-z-]*(?: [a-z][a-z-]*)?)",$/m;
const INLINED_LOADER = /^(\s*load: \(\) => )import\("(\.\/[^"]+\.ts)"\),$/gm;

/**
 * The route and loader of the verb declared in `text` (the copy's `spec`, its loader already a
 * plain import); throws unless it declares exactly one route with one loader.
 */
export function routeLoaderOf(spec: string, text: string): RouteLoader {
  const route = ROUTE_LINE.exec(text)?.[1];
  const loads = [...text.matchAll(INLINED_LOADER)];
  if (route === undefined || loads.length !== 1) {
    throw new Error(`${spec}: a verb declaration needs one route and one loader`);
  }
  return { route, spec, module: loads[0][2] };
}

/**
 * A verb declaration with its loader replaced by one that fails: the bundle of another verb
 * carries the whole table (help, flags, suggestions) but only that verb's code.
 */
export function withoutLoader(text: string, route: string): string {
  return text.replace(
    INLINED_LOADER,
    (_line, head: string) =>
      `${head}Promise.reject(new Error("lisa build: ${route} is not in this bundle")),`,
  );
}

/** The verb declarations of the copy at `dir` (`src/cli/commands/**` + `_spec.ts`), by path. */
async function verbDeclarations(dir: string): Promise<RouteLoader[]> {
  const found: RouteLoader[] = [];
  const walk = async (rel: string) => {
    for await (const entry of Deno.readDir(`${dir}/${rel}`)) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith("_spec.ts")) {
        found.push(routeLoaderOf(path, await Deno.readTextFile(`${dir}/${path}`)));
      }
    }
  };
  await walk("src/cli/commands");
  return found.sort((a, b) => a.spec.localeCompare(b.spec));
}

/**
 * Routes whose bundle keeps every verb's code: `lisa mcp` runs any verb of the table as a tool
 * (and brings the MCP SDK, which no other bundle carries).
 */
export const EVERY_VERB_ROUTES: ReadonlySet<string> = new Set(["mcp"]);

/**
 * The declarations of `routes` among `declarations`: those whose loaders the whole table's bundle
 * (`cli.js`: help, typos) fails, as their code comes in bundles of their own (`lisa mcp`'s).
 * Throws when one of `routes` is declared nowhere.
 */
export function declarationsOf(
  declarations: readonly RouteLoader[],
  routes: ReadonlySet<string>,
): RouteLoader[] {
  const found = declarations.filter((d) => routes.has(d.route));
  const missing = [...routes].filter((r) => !found.some((d) => d.route === r));
  if (missing.length > 0) throw new Error(`no loader of "${missing.join(", ")}"`);
  return found;
}

/** The file name of a route's bundle, under `verbs/` (`session capture` → `session-capture`). */
export function routeBundleName(route: string): string {
  return route.replaceAll(" ", "-");
}

/**
 * Mirrors the directory tree `from` at `to` with hard links: each route's tree shares the one
 * copy's files (a copy each was ~55 copies of the source), and a file changed in one of them is
 * replaced there, never written through ({@link rewriteFile}). Copies where links cannot be made.
 */
async function linkTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const [src, dst] = [`${from}/${entry.name}`, `${to}/${entry.name}`];
    if (entry.isDirectory) await linkTree(src, dst);
    else await Deno.link(src, dst).catch(() => Deno.copyFile(src, dst));
  }
}

/** Gives `path` the content `text` as a new file: other trees' links to the old one keep it. */
async function rewriteFile(path: string, text: string): Promise<void> {
  await Deno.remove(path);
  await Deno.writeTextFile(path, text);
}

/** Replaces the one line `line` of the file at `path` by `next`; throws when it is not there. */
async function stampLine(path: string, line: string, next: string): Promise<void> {
  const text = await Deno.readTextFile(path);
  if (!text.includes(line)) throw new Error(`${path}: no "${line}" to stamp`);
  await rewriteFile(path, text.replace(line, next));
}

/**
 * Builds every bundle into `outDir`; existing bundles are replaced only when all are built. The
 * work goes into a temp dir (under `options.tempDir` when given).
 */
export async function build(
  outDir: string,
  options: { minify?: boolean; tempDir?: string } = {},
): Promise<{ files: string[]; lazyImports: number }> {
  const work = await Deno.makeTempDir({ prefix: "lisa-build-", dir: options.tempDir });
  let stage: string | undefined;
  try {
    const copy = `${work}/src-copy`;
    await Deno.mkdir(copy);
    const lazyImports = await copySource(copy);
    const routes = await verbDeclarations(copy);
    if (routes.length === 0) throw new Error("src/cli/commands: no verb declarations found");
    // Every route's bundle is built from a copy in which only that route's verb has a loader
    // (but those of EVERY_VERB_ROUTES, which keep every verb's).
    const entries: [string, string][] = [
      ["lisa", `${copy}/main.ts`],
      ...Object.entries(PARTS).map(([name, path]): [string, string] => [
        name,
        `${copy}/${path.slice(2)}`,
      ]),
    ];
    for (const { route } of routes) {
      const dir = `${work}/routes/${routeBundleName(route)}`;
      await linkTree(copy, dir);
      for (const other of EVERY_VERB_ROUTES.has(route) ? [] : routes) {
        if (other.route === route) continue;
        const path = `${dir}/${other.spec}`;
        await rewriteFile(path, withoutLoader(await Deno.readTextFile(path), other.route));
      }
      entries.push([`verbs/${routeBundleName(route)}`, `${dir}/${PARTS.cli.slice(2)}`]);
    }
    // The whole table (cli.js) without the routes whose bundles carry code of their own.
    for (const own of declarationsOf(routes, EVERY_VERB_ROUTES)) {
      const path = `${copy}/${own.spec}`;
      await rewriteFile(path, withoutLoader(await Deno.readTextFile(path), own.route));
    }
    await stampLine(
      `${copy}/main.ts`,
      "const BUILT_ROUTES: readonly string[] = [];",
      `const BUILT_ROUTES: readonly string[] = ${JSON.stringify(routes.map((r) => r.route))};`,
    );
    // One bundler run for all of them (each entry self-contained: no code splitting), into a
    // folder inside `outDir`: the bundles are then renamed into place on the same filesystem
    // (the temp dir may be another one, a tmpfs, where a rename would fail).
    await Deno.mkdir(`${outDir}/verbs`, { recursive: true });
    stage = await Deno.makeTempDir({ dir: outDir, prefix: ".build-" });
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "-q",
        ...(options.minify === false ? [] : ["--minify"]),
        "--platform",
        "deno",
        "--config",
        `${copy}/deno.json`,
        "--outdir",
        stage,
        ...entries.map(([, path]) => path),
      ],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) throw new Error(`deno bundle failed:\n${new TextDecoder().decode(stderr)}`);
    const files: string[] = [];
    // The entry last: a call made meanwhile never reads a route list naming a missing bundle.
    for (const [name, path] of [...entries.slice(1), entries[0]]) {
      // The bundler names each output after its entry's path below the entries' common folder.
      const built = `${stage}/${path.slice(work.length + 1).replace(/\.ts$/, ".js")}`;
      await Deno.rename(built, `${outDir}/${name}.js`);
      files.push(`${outDir}/${name}.js`);
    }
    return { files, lazyImports };
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
    if (stage !== undefined) await Deno.remove(stage, { recursive: true }).catch(() => {});
  }
}

/** The argv that runs the built lisa in `outDir` (what the installed shim and the bench run). */
export function builtArgv(outDir: string): string[] {
  return [
    Deno.execPath(),
    "run",
    "-q",
    ...DENO_PERMISSIONS,
    ...BUNDLE_RUN_FLAGS,
    `${outDir}/lisa.js`,
  ];
}

/**
 * Writes `<root>/bin/lisa`, a shell shim that runs the built entry in `outDir` with the Deno that
 * built it (as `deno install --global` would, but without the empty config file that command
 * adds, which costs a call ~1 ms). Returns the shim's path.
 */
export async function installShim(root: string, outDir: string): Promise<string> {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  const bin = `${root}/bin`;
  await Deno.mkdir(bin, { recursive: true });
  const shim = `${bin}/lisa`;
  const text = `#!/bin/sh\n# lisa, built by \`deno task install\` (scripts/build.ts)\n` +
    `exec ${builtArgv(outDir).map(quote).join(" ")} "$@"\n`;
  const tmp = `${shim}.tmp-${Deno.pid}`;
  await Deno.writeTextFile(tmp, text, { mode: 0o755 });
  await Deno.chmod(tmp, 0o755);
  await Deno.rename(tmp, shim);
  return shim;
}

function say(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(`${line}\n`));
}

/** What a `deno task build` command line asks for. */
export interface BuildArgs {
  /** Absolute output folder. */
  out: string;
  minify: boolean;
  /** The install root (`<root>/bin/lisa`) with `--install`, else null. */
  root: string | null;
}

/**
 * Reads the build's arguments (relative paths from `cwd`: under `deno task`, the checkout, as
 * the other tasks' paths). Throws on a flag without its value, before anything is built or
 * written.
 */
const BUILD_USAGE = "deno task build [--out DIR] [--no-minify] [--install [--root DIR]]";

export function parseBuildArgs(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): BuildArgs {
  const absolute = (path: string) => path.startsWith("/") ? path : `${cwd}/${path}`;
  const valueOf = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    if (at < 0) return undefined;
    const value = args[at + 1];
    if (value === undefined || value.startsWith("--")) throw new Error(`${flag} needs a directory`);
    return value;
  };
  const out = valueOf("--out");
  const root = valueOf("--root");
  const known = new Set(["--out", "--root", "--no-minify", "--install"]);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--out" || args[i] === "--root") i++;
    else if (!known.has(args[i])) {
      throw new Error(`unknown argument "${args[i]}" (usage: ${BUILD_USAGE})`);
    }
  }
  return {
    out: out === undefined ? `${REPO}/dist` : absolute(out),
    minify: !args.includes("--no-minify"),
    root: !args.includes("--install")
      ? null
      : root !== undefined
      ? absolute(root)
      : env.DENO_INSTALL_ROOT ?? `${env.HOME ?? "."}/.deno`,
  };
}

if (import.meta.main) {
  let parsed: BuildArgs;
  try {
    parsed = parseBuildArgs(Deno.args, Deno.env.toObject(), Deno.cwd());
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    Deno.exit(2);
  }
  const { out, minify, root } = parsed;
  try {
    const { files, lazyImports } = await build(out, { minify });
    say(`built ${files.length} bundles in ${out} (${lazyImports} lazy imports inlined)`);
  } catch (error) {
    say(`build failed: ${error instanceof Error ? error.message : error}`);
    Deno.exit(1);
  }
  if (root !== null) {
    try {
      say(`installed ${await installShim(root, out)}`);
    } catch (error) {
      say(`install failed: ${error instanceof Error ? error.message : error}`);
      Deno.exit(1);
    }
  }
}
