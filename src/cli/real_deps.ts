/** The real collaborators of a lisa process: this environment, clock, runner and terminal. */
import { loadConfig } from "../base/config.ts";
import { type Deps, detectSelfCommand, makeDeps } from "../base/deps.ts";
import { DenoRunner } from "../proc/runner.ts";
import { realIo } from "./io.ts";

/** Builds the Deps of this process from its environment. */
export function realDeps(env: Record<string, string>): Deps {
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
