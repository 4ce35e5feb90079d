/**
 * lisa's entry point: the only file that calls `Deno.exit`. Hot commands (`hook`,
 * `session status`, `session list`) take lean paths that do not load commander (~25 ms);
 * everything else runs the full CLI in `src/cli/run.ts`.
 */
import { realIo } from "./src/cli/io.ts";
import { loadConfig } from "./src/base/config.ts";
import { type Deps, detectSelfCommand, makeDeps } from "./src/base/deps.ts";
import { DenoRunner } from "./src/proc/runner.ts";

function realDeps(env: Record<string, string>): Deps {
  const uid = Deno.uid() ?? 0;
  const config = loadConfig(env, uid).config;
  return makeDeps({
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
}

async function run(argv: string[]): Promise<number> {
  const env = Deno.env.toObject();
  if (argv[0] === "hook") {
    const { runHook } = await import("./src/core/hook/run_hook.ts");
    return await runHook(argv.slice(1), env);
  }
  const deps = realDeps(env);
  if (argv[0] === "session" && argv[1] === "status") {
    const { fastStatus } = await import("./src/cli/fast_status.ts");
    const code = await fastStatus(argv.slice(2), deps);
    if (code !== null) return code;
  } else if (argv[0] === "session" && argv[1] === "list") {
    const { fastList } = await import("./src/cli/fast_list.ts");
    const code = await fastList(argv.slice(2), deps);
    if (code !== null) return code;
  }
  const { main } = await import("./src/cli/run.ts");
  return await main(argv, deps);
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
