/**
 * Collaborators passed to every core function, so tests can pass fakes (DESIGN §3).
 */
import type { Io } from "./io.ts";
import type { Runner } from "./runner.ts";
import { type Config, type Env, loadConfig } from "./config.ts";

/** What core functions may use of the outside world. */
export interface Deps {
  /** Snapshot of the caller's environment. */
  env: Env;
  /** Settings derived from `env`. */
  config: Config;
  cwd: string;
  uid: number;
  now(): Date;
  sleep(ms: number): Promise<void>;
  runner: Runner;
  io: Io;
  /** argv that runs this lisa (compiled binary, or `deno run … main.ts`). */
  selfCommand: string[];
}

/** Builds Deps from parts; `config` is derived from `env` when absent. */
export function makeDeps(parts: Omit<Deps, "config"> & { config?: Config }): Deps {
  return { ...parts, config: parts.config ?? loadConfig(parts.env, parts.uid).config };
}

/**
 * Permissions lisa runs with under `deno run` (also used for nested invocations and hooks).
 * `--allow-all`: Deno (since 1.43) refuses every `/proc` read without it ("Requires all
 * access"), and status must read the pane's processes from `/proc`, not `ps` (DESIGN §7).
 * It grants nothing real beyond `--allow-run`, which lisa needs anyway (it runs tmux/agents).
 */
export const DENO_PERMISSIONS = ["--allow-all"];

/**
 * The argv that starts this lisa again: the binary itself when compiled, otherwise
 * `deno run <permissions> --config <deno.json> <main.ts>` of this checkout.
 */
export function detectSelfCommand(execPath: string, mainModule: string): string[] {
  const exe = execPath.slice(execPath.lastIndexOf("/") + 1);
  if (exe !== "deno" || !mainModule.startsWith("file://")) return [execPath];
  const mainPath = decodeURIComponent(new URL(mainModule).pathname);
  const dir = mainPath.slice(0, mainPath.lastIndexOf("/"));
  return [execPath, "run", "-q", ...DENO_PERMISSIONS, "--config", `${dir}/deno.json`, mainPath];
}
