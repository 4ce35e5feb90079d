/** The real collaborators of a lisa process: this environment, clock, runner and terminal. */
import { loadConfig } from "../base/config.ts";
import { type Deps, detectSelfCommand } from "../base/deps.ts";
import { DenoRunner } from "../proc/runner.ts";
import { realIo } from "./io.ts";

/** The longest delay a timer takes (2^31 - 1 ms, 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits `ms`, in steps a timer can hold (`monitor --poll-interval` takes far more). */
async function sleep(ms: number): Promise<void> {
  let left = ms;
  do {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, MAX_TIMER_MS)));
    left -= MAX_TIMER_MS;
  } while (left > 0);
}

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
    sleep,
    runner: new DenoRunner(config.cmdTimeoutSeconds * 1000),
    io: realIo(env),
    get selfCommand() {
      selfCommand ??= detectSelfCommand(Deno.execPath(), Deno.mainModule);
      return selfCommand;
    },
  };
}
