/**
 * lisa's entry point: the only file that calls `Deno.exit`. It loads one part per kind of call,
 * each as a single import (Deno loads a static graph at once; every extra dynamic import adds
 * its own set-up): `lisa hook` (called by agents on every hook event) loads only the hook
 * handler; `session status` (polled constantly) and `session list` their pre-parsed paths;
 * every other call the command table (`src/cli/run.ts`), which then loads the verb it runs.
 *
 * Run from source, a part is its module graph. Built (`deno task build`, `scripts/build.ts`),
 * this file is `dist/lisa.js` and each part is one minified bundle beside it (`dist/status.js`,
 * …): the form `deno task install` puts on PATH and `deno task bench` times.
 */
import { lazyImport } from "./src/base/lazy.ts";

/** The parts, by the name of their bundle, with their source module. */
export const PARTS = {
  hook: "./src/core/hook/run_hook.ts",
  status: "./src/cli/fast_status.ts",
  list: "./src/cli/fast_list.ts",
  cli: "./src/cli/run.ts",
} as const;

type Parts = {
  hook: typeof import("./src/core/hook/run_hook.ts");
  status: typeof import("./src/cli/fast_status.ts");
  list: typeof import("./src/cli/fast_list.ts");
  cli: typeof import("./src/cli/run.ts");
};

/** Loads `name`: the bundle beside this file when it runs built, otherwise the source module. */
function part<N extends keyof Parts>(name: N): Promise<Parts[N]> {
  const built = import.meta.url.endsWith(".js");
  return lazyImport<Parts[N]>(new URL(built ? `./${name}.js` : PARTS[name], import.meta.url));
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
  const { cli } = await part("cli");
  return await cli(argv, env);
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
