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
  /**
   * Told of each session state the call works out (every `status` evaluation: the polls of
   * `send --wait` and `monitor`, the send guard's), so whoever runs a long call can report how
   * it goes without reading anything more (`lisa mcp`'s progress). Absent on the command line.
   */
  noteState?: (note: StateNote) => void;
}

/** A session's state as a call just worked it out (see {@link Deps.noteState}). */
export interface StateNote {
  session: string;
  state: string;
  waitingFor: string | null;
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
 * How the built lisa (`deno task build`: `dist/lisa.js` and its bundles) runs: without a config
 * file (the bundles need no import map, no npm resolution), and with V8's young generation
 * starting at 4 MB instead of 1: a call then ends before its first scavenge (~0.5 ms), with no
 * more resident memory (measured: 40 MB either way). No other V8 flag: with
 * `--no-enable-lazy-source-positions` (it spared the first Error of a call ~2 ms), a lisa call
 * and any other `deno` process that starts a subprocess without it, run in turn, each took ~4 ms
 * more (by all appearances a cache of Deno's keyed by V8's flag hash, rewritten by each side);
 * `--min-semi-space-size` does not do this.
 */
export const BUNDLE_RUN_FLAGS = ["--no-config", "--v8-flags=--min-semi-space-size=4"];

/**
 * The argv that starts this lisa again: the binary itself when compiled; the built entry with
 * {@link BUNDLE_RUN_FLAGS} when lisa runs built; otherwise
 * `deno run <permissions> --config <deno.json> <main.ts>` of this checkout.
 */
export function detectSelfCommand(execPath: string, mainModule: string): string[] {
  const exe = execPath.slice(execPath.lastIndexOf("/") + 1);
  if (exe !== "deno" || !mainModule.startsWith("file://")) return [execPath];
  const mainPath = decodeURIComponent(new URL(mainModule).pathname);
  if (mainPath.endsWith(".js")) {
    return [execPath, "run", "-q", ...DENO_PERMISSIONS, ...BUNDLE_RUN_FLAGS, mainPath];
  }
  const dir = mainPath.slice(0, mainPath.lastIndexOf("/"));
  return [execPath, "run", "-q", ...DENO_PERMISSIONS, "--config", `${dir}/deno.json`, mainPath];
}
