/**
 * lisa's entry point: the only file that calls `Deno.exit`. It loads one part per kind of call,
 * each as a single import (Deno loads a static graph at once; every extra dynamic import adds
 * its own set-up): `lisa hook` (called by agents on every hook event) loads only the hook
 * handler; `session status` (polled constantly) and `session list` their pre-parsed paths;
 * every other call the command table (`src/cli/run.ts`), which then loads the verb it runs.
 *
 * Run from source, a part is its module graph. Built (`deno task build`, `scripts/build.ts`),
 * this file is `dist/lisa.js` and each part is one minified bundle beside it (`dist/status.js`,
 * …), and every verb of the table also has a bundle of its own (`dist/verbs/session-capture.js`:
 * the command line with only that verb in it), which a call naming the verb's route loads
 * instead of the whole table (`cli.js`, for help, typos and anything else). That is the form
 * `deno task install` puts on PATH and `deno task bench` times.
 */
import { lazyImport } from "./src/base/lazy.ts";

/** The parts, by the name of their bundle, with their source module. */
export const PARTS = {
  hook: "./src/core/hook/mod.ts",
  status: "./src/cli/fast_status.ts",
  list: "./src/cli/fast_list.ts",
  cli: "./src/cli/run.ts",
} as const;

type Parts = {
  hook: typeof import("./src/core/hook/mod.ts");
  status: typeof import("./src/cli/fast_status.ts");
  list: typeof import("./src/cli/fast_list.ts");
  cli: typeof import("./src/cli/run.ts");
};

/** True when this file runs built (`dist/lisa.js`), false from source. */
const BUILT = import.meta.url.endsWith(".js");

/**
 * The routes of the command table that have a bundle of their own when built
 * (`verbs/<words>.js`: the command line with that one verb). `scripts/build.ts` writes the
 * list into its copy of this line; from source it stays empty.
 */
const BUILT_ROUTES: readonly string[] = [];

/** Loads `name`: the bundle beside this file when it runs built, otherwise the source module. */
function part<N extends keyof Parts>(name: N): Promise<Parts[N]> {
  return lazyImport<Parts[N]>(new URL(BUILT ? `./${name}.js` : PARTS[name], import.meta.url));
}

/** The route of `routes` that `argv` starts with, word for word ("session capture"), or null. */
export function routeIn(argv: readonly string[], routes: readonly string[]): string | null {
  if (argv.length >= 2 && routes.includes(`${argv[0]} ${argv[1]}`)) return `${argv[0]} ${argv[1]}`;
  return argv.length >= 1 && routes.includes(argv[0]) ? argv[0] : null;
}

/** The command line that runs `argv`: built, the bundle of its route when it has one. */
function commandLine(argv: readonly string[]): Promise<Parts["cli"]> {
  const route = routeIn(argv, BUILT_ROUTES);
  if (route === null) return part("cli");
  const file = `./verbs/${route.replaceAll(" ", "-")}.js`;
  return lazyImport<Parts["cli"]>(new URL(file, import.meta.url));
}

async function run(argv: string[]): Promise<number> {
  const env = Deno.env.toObject();
  if (argv[0] === "hook") {
    const { runHook } = await part("hook");
    return await runHook(argv.slice(1), env);
  }
  if (argv[0] === "session" && argv[1] === "status") {
    const { fastStatus } = await part("status");
    const code = await fastStatus(argv.slice(2), env);
    if (code !== null) return code;
  }
  if (argv[0] === "session" && argv[1] === "list") {
    const { fastList } = await part("list");
    const code = await fastList(argv.slice(2), env);
    if (code !== null) return code;
  }
  const { cli } = await commandLine(argv);
  return await cli(argv, env);
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
