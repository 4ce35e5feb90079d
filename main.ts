/**
 * lisa's entry point: the only file that calls `Deno.exit`. It loads one module graph per kind
 * of call, each as a single import (Deno loads a static graph at once; every extra dynamic
 * import adds its own set-up): `lisa hook` (called by agents on every hook event) loads only the
 * hook handler; `session status` (polled constantly) and `session list` their pre-parsed paths;
 * every other call the
 * command table (`src/cli/run.ts`), which then loads the verb it runs.
 */
import { lazyImport } from "./src/base/lazy.ts";

async function run(argv: string[]): Promise<number> {
  const env = Deno.env.toObject();
  if (argv[0] === "hook") {
    const { runHook } = await lazyImport<typeof import("./src/core/hook/run_hook.ts")>(
      new URL("./src/core/hook/run_hook.ts", import.meta.url),
    );
    return await runHook(argv.slice(1), env);
  }
  if (argv[0] === "session" && argv[1] === "status") {
    const { fastStatus } = await lazyImport<typeof import("./src/cli/fast_status.ts")>(
      new URL("./src/cli/fast_status.ts", import.meta.url),
    );
    const code = await fastStatus(argv.slice(2), env);
    if (code !== null) return code;
  }
  if (argv[0] === "session" && argv[1] === "list") {
    const { fastList } = await lazyImport<typeof import("./src/cli/fast_list.ts")>(
      new URL("./src/cli/fast_list.ts", import.meta.url),
    );
    const code = await fastList(argv.slice(2), env);
    if (code !== null) return code;
  }
  const { cli } = await lazyImport<typeof import("./src/cli/run.ts")>(
    new URL("./src/cli/run.ts", import.meta.url),
  );
  return await cli(argv, env);
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
