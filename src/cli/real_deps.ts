/** The real collaborators of a lisa process: this environment, clock, runner and terminal. */
import { loadConfig } from "../base/config.ts";
import { type Deps, detectSelfCommand } from "../base/deps.ts";
import { DenoRunner } from "../proc/runner.ts";
import { realIo } from "./io.ts";

/**
 * Builds the Deps of this process from its environment. `selfCommand` is worked out when first
 * read: only spawning verbs need it, and its URL parsing (~0.3 ms on a cold start) would
 * otherwise be paid by every status poll.
 */
export function realDeps(env: Record<string, string>): Deps {
  const uid = Deno.uid() ?? 0;
  const config = loadConfig(env, uid).config;
  let selfCommand: string[] | undefined;
  return {
    env,
    config,
    cwd: Deno.cwd(),
    uid,
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    runner: new DenoRunner(config.cmdTimeoutSeconds * 1000),
    io: realIo(env),
    get selfCommand() {
      selfCommand ??= detectSelfCommand(Deno.execPath(), Deno.mainModule);
      return selfCommand;
    },
  };
}
