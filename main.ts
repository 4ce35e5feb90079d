/**
 * lisa's entry point: the only file that calls `Deno.exit`. Hot commands (`session status`,
 * `hook`) take a lean path that does not load commander; everything else runs the full CLI.
 */
import { realIo } from "./src/cli/io.ts";
import { detectSelfCommand, makeDeps } from "./src/core/deps.ts";
import { DenoRunner } from "./src/proc/runner.ts";

async function run(argv: string[]): Promise<number> {
  const env = Deno.env.toObject();
  const { loadConfig } = await import("./src/core/config.ts");
  const uid = Deno.uid() ?? 0;
  const config = loadConfig(env, uid).config;
  const deps = makeDeps({
    env,
    config,
    cwd: Deno.cwd(),
    uid,
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    runner: new DenoRunner(config.cmdTimeoutSeconds * 1000),
    io: realIo(env),
    selfCommand: detectSelfCommand(Deno.execPath(), Deno.mainModule),
  });
  const { main } = await import("./src/cli/run.ts");
  return await main(argv, deps);
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
