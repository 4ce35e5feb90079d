/**
 * A hermetic world for CLI and integration tests: temp runtime dir, private tmux socket dir,
 * a temp HOME and project root, fake agents first on PATH, lisa's real-time windows short
 * ({@link TEST_WINDOWS}). `dispose()` kills every tmux server on the private socket dir and
 * removes the temp tree. Never touches the default tmux server.
 */
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { loadConfig } from "../../src/base/config.ts";
import { BUNDLE_RUN_FLAGS, DENO_PERMISSIONS, makeDeps } from "../../src/base/deps.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import type { Runner } from "../../src/base/runner.ts";

/** Absolute path of the repository root. */
export const REPO_ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
/** Directory with the fake `claude` and `codex` executables. */
export const FAKE_BIN = `${REPO_ROOT}/tests/fixtures/bin`;
/**
 * Where a built lisa is (`deno task build --out DIR`) when the tests are to run it instead of
 * main.ts from source (`deno task test:built` sets it).
 */
const BUILT_DIR = ((dir) => dir && !dir.startsWith("/") ? `${REPO_ROOT}/${dir}` : dir)(
  Deno.env.get("LISA_TEST_BUILT_DIR"),
);

/** argv that runs this checkout's lisa as a subprocess: from source, or built. */
export const LISA_ARGV = BUILT_DIR
  ? [Deno.execPath(), "run", "-q", ...DENO_PERMISSIONS, ...BUNDLE_RUN_FLAGS, `${BUILT_DIR}/lisa.js`]
  : [
    Deno.execPath(),
    "run",
    "-q",
    ...DENO_PERMISSIONS,
    "--config",
    `${REPO_ROOT}/deno.json`,
    `${REPO_ROOT}/main.ts`,
  ];

/** What a lisa call returned. */
export interface LisaResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON when it is one JSON document, else undefined. */
  json: Record<string, unknown> | undefined;
}

/**
 * lisa's real-time windows as every world sets them, short so that a test waits for seconds,
 * not for the product's windows (their defaults, in `src/base/config.ts`, in the comments).
 * The quiet window stays 2 s: a fake agent's output pauses (a hook runs node and lisa between
 * two rows) can pass 1 s on a busy machine, and an agent read as idle in such a pause sends a
 * waiting test on to its next poll. Coupled: a quiet session is settled once the grace window
 * ends only when its start-up output is older than the quiet window by then, so grace − quiet
 * leaves a slow start 1 s. A test of a default's own length passes `windows: "product"`; one
 * that needs another length sets that variable in `env` (which wins over these).
 */
export const TEST_WINDOWS: Readonly<Record<string, string>> = {
  /** The start-up grace window (8 s). */
  LISA_GRACE_SECONDS: "3",
  /** Quiet this long, an interactive agent waits for input (3 s). */
  LISA_QUIET_SECONDS: "2",
};

/** Options of {@link makeWorld}. */
export interface WorldOptions {
  /** Put the fake agents first on PATH (default true). */
  fakeAgents?: boolean;
  /** Extra environment. */
  env?: Record<string, string>;
  /**
   * `"test"` (default): {@link TEST_WINDOWS}; `"product"`: lisa's own defaults, for tests
   * about a window's default length or that need its full margin.
   */
  windows?: "test" | "product";
}

/** A temp world; always `await world.dispose()` in `finally`. */
export interface World {
  base: string;
  runtimeDir: string;
  socketDir: string;
  projectRoot: string;
  home: string;
  env: Record<string, string>;
  /** The grace window lisa uses in this world (`LISA_GRACE_SECONDS`), in seconds. */
  graceSeconds: number;
  /** The quiet window lisa uses in this world (`LISA_QUIET_SECONDS`), in seconds. */
  quietSeconds: number;
  /** Runs this checkout's lisa as a subprocess in the world (`stdin`: fed to it, else null). */
  lisa(
    args: string[],
    options?: { cwd?: string; env?: Record<string, string>; stdin?: string },
  ): Promise<LisaResult>;
  /** Runs lisa's `main()` in this process (faster; same code path as the binary's full CLI). */
  lisaInProcess(
    args: string[],
    options?: {
      cwd?: string;
      env?: Record<string, string>;
      runner?: Runner;
      /** How nested calls run lisa (default: this checkout's lisa). */
      selfCommand?: string[];
    },
  ): Promise<LisaResult>;
  /** Runs a tmux command on one of the world's private sockets. */
  tmux(socket: string, args: string[]): Promise<LisaResult>;
  dispose(): Promise<void>;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text);
    return typeof v === "object" && v !== null ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Creates a world under a new temp dir. */
export async function makeWorld(options: WorldOptions = {}): Promise<World> {
  const base = await Deno.makeTempDir({ prefix: "lisa-test-" });
  const runtimeDir = `${base}/run`;
  const socketDir = `${base}/sock`;
  const projectRoot = `${base}/project`;
  const home = `${base}/home`;
  await Deno.mkdir(runtimeDir, { mode: 0o700 });
  await Deno.chmod(runtimeDir, 0o700);
  await Deno.mkdir(socketDir, { mode: 0o700 });
  await Deno.mkdir(projectRoot);
  await Deno.mkdir(home);
  const inherited = Deno.env.toObject();
  for (const key of Object.keys(inherited)) {
    if (key.startsWith("LISA_") || key === "TMUX" || key === "TMUX_PANE") delete inherited[key];
  }
  const path = options.fakeAgents === false ? inherited.PATH : `${FAKE_BIN}:${inherited.PATH}`;
  const env: Record<string, string> = {
    ...inherited,
    PATH: path ?? "/usr/bin:/bin",
    LISA_RUNTIME_DIR: runtimeDir,
    LISA_TMUX_SOCKET_DIR: socketDir,
    // Deno's cache stays the caller's, so nested `deno run` does not download anything.
    DENO_DIR: inherited.DENO_DIR ??
      `${inherited.XDG_CACHE_HOME ?? `${inherited.HOME}/.cache`}/deno`,
    HOME: home,
    NO_COLOR: "1",
    ...(options.windows === "product" ? {} : TEST_WINDOWS),
    ...options.env,
  };
  const decoder = new TextDecoder();
  const windows = loadConfig(env, Deno.uid() ?? 0).config;

  const world: World = {
    base,
    runtimeDir,
    socketDir,
    projectRoot,
    home,
    env,
    graceSeconds: windows.graceSeconds,
    quietSeconds: windows.quietSeconds,
    async lisa(args, opts = {}) {
      const child = new Deno.Command(LISA_ARGV[0], {
        args: [...LISA_ARGV.slice(1), ...args],
        cwd: opts.cwd ?? projectRoot,
        env: { ...env, ...opts.env },
        clearEnv: true,
        stdin: opts.stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      if (opts.stdin !== undefined) {
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(opts.stdin));
        await writer.close();
      }
      const out = await child.output();
      const stdout = decoder.decode(out.stdout);
      return {
        code: out.code,
        stdout,
        stderr: decoder.decode(out.stderr),
        json: parseJson(stdout),
      };
    },
    async lisaInProcess(args, opts = {}) {
      const io = new MemoryIo();
      const fullEnv = { ...env, ...opts.env };
      const config = loadConfig(fullEnv, Deno.uid() ?? 0).config;
      const deps = makeDeps({
        env: fullEnv,
        config,
        cwd: opts.cwd ?? projectRoot,
        uid: Deno.uid() ?? 0,
        now: () => new Date(),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        runner: opts.runner ?? new DenoRunner(config.cmdTimeoutSeconds * 1000),
        io,
        selfCommand: opts.selfCommand ?? LISA_ARGV,
      });
      const code = await main(args, deps);
      return { code, stdout: io.stdout, stderr: io.stderr, json: parseJson(io.stdout) };
    },
    async tmux(socket, args) {
      const out = await new Deno.Command("tmux", {
        args: ["-S", socket, ...args],
        env,
        clearEnv: true,
        stdin: "null",
      }).output();
      const stdout = decoder.decode(out.stdout);
      return { code: out.code, stdout, stderr: decoder.decode(out.stderr), json: undefined };
    },
    async dispose() {
      // Every socket anywhere under the world (tests may point LISA_TMUX_SOCKET_DIR at a
      // nested dir of their own): its tmux server is ended before the tree is removed.
      for (const socket of socketsUnder(base)) {
        await new Deno.Command("tmux", {
          args: ["-S", socket, "kill-server"],
          stdout: "null",
          stderr: "null",
        }).output();
      }
      await Deno.remove(base, { recursive: true }).catch(() => {});
    },
  };
  return world;
}

/** Paths of the `.sock` files anywhere under `dir` (symlinks not followed). */
function socketsUnder(dir: string): string[] {
  const out: string[] = [];
  let entries: Deno.DirEntry[] = [];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) out.push(...socketsUnder(path));
    else if (e.name.endsWith(".sock") && !e.isSymlink) out.push(path);
  }
  return out;
}

/** Polls `fn` every `intervalMs` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await fn();
  while (!last && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await fn();
  }
  return last;
}
