/**
 * `lisa doctor`: what lisa needs and what it found. Exit 0 when tmux and at least one agent exist.
 */
import { type ConfigEntry, loadConfig } from "../../base/config.ts";
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { BUILT_COMMIT, commitAt } from "../../base/version.ts";
import { ensureRuntimeDir, SOCKET_NAME_MAX, SOCKET_PATH_MAX } from "../../store/runtime_dir.ts";
import { readHostsFile } from "../hosts/mod.ts";

/** One external program. */
export interface ToolCheck {
  name: string;
  found: boolean;
  version: string | null;
  error?: string;
}

/** A built lisa (`deno task build`) against the checkout it was built from. */
export interface BuildCheck {
  /** The commit the bundles were built from (`+dirty`: with uncommitted changes). */
  builtFrom: string | null;
  /** The checkout the bundles live in, and its HEAD now. */
  checkout: string;
  checkoutCommit: string | null;
  /** True when the checkout has moved on since the build: run `deno task install` again. */
  stale: boolean;
}

/** The doctor report. */
export interface DoctorReport {
  ok: boolean;
  tools: ToolCheck[];
  runtimeDir: { path: string; ok: boolean; error?: string };
  /** Running built: the build against its checkout (null from source or compiled). */
  build: BuildCheck | null;
  variables: ConfigEntry[];
  /**
   * The hosts file (`--host`, `--all-hosts`): where it is, whether it exists, its hosts' names,
   * and its problems (each also in `problems`). With hosts, ssh is among `tools`.
   */
  hosts: { path: string | null; exists: boolean; names: string[]; problems: string[] };
  /** What is wrong, one sentence each ([] when `ok`). */
  problems: string[];
}

async function checkTool(deps: Deps, name: string, args: string[]): Promise<ToolCheck> {
  try {
    const r = await deps.runner.run([name, ...args], { allowFailure: true, timeoutMs: 10_000 });
    const text = (r.stdout.trim() || r.stderr.trim()).split("\n")[0] ?? "";
    if (!r.success) return { name, found: true, version: null, error: text || `exit ${r.code}` };
    return { name, found: true, version: text };
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") {
      return { name, found: false, version: null };
    }
    return { name, found: false, version: null, error: (error as Error).message };
  }
}

/**
 * When lisa runs built (its entry is `<checkout>/…/lisa.js`), compares the commit the build was
 * made from with the checkout's HEAD: an installed shim keeps running old bundles after a pull
 * until `deno task install` runs again. The checkout is the nearest folder above the bundles
 * holding `main.ts` and `scripts/build.ts`. Null when not built or not in a checkout.
 */
export function checkBuild(
  selfCommand: readonly string[],
  builtFrom: string | null,
): BuildCheck | null {
  const entry = selfCommand[selfCommand.length - 1] ?? "";
  if (!entry.endsWith("/lisa.js")) return null;
  let dir = entry.slice(0, entry.lastIndexOf("/"));
  while (dir.includes("/")) {
    dir = dir.slice(0, dir.lastIndexOf("/"));
    const holds = (rel: string) => {
      try {
        return Deno.statSync(`${dir || "/"}/${rel}`).isFile;
      } catch {
        return false;
      }
    };
    if (holds("main.ts") && holds("scripts/build.ts")) {
      const checkout = dir || "/";
      const checkoutCommit = commitAt(checkout);
      const built = builtFrom?.replace(/\+dirty$/, "") ?? null;
      const stale = built !== null && checkoutCommit !== null && built !== checkoutCommit;
      return { builtFrom, checkout, checkoutCommit, stale };
    }
  }
  return null;
}

/**
 * Checks tmux, claude, codex, the runtime dir, the length of the tmux sockets' paths, every
 * variable and the hosts file (with ssh when it lists hosts), and a built lisa against its
 * checkout; `problems` says what is wrong. Never throws.
 */
export async function runDoctor(deps: Deps): Promise<DoctorReport> {
  const hostsFile = readHostsFile(deps);
  const ssh = deps.config.sshProgram ?? "ssh";
  const tools = await Promise.all([
    checkTool(deps, "tmux", ["-V"]),
    checkTool(deps, "claude", ["--version"]),
    checkTool(deps, "codex", ["--version"]),
    ...(hostsFile.hosts.length > 0 ? [checkTool(deps, ssh, ["-V"])] : []),
  ]);
  const { entries } = loadConfig(deps.env, deps.uid);
  let runtimeDir: DoctorReport["runtimeDir"];
  try {
    ensureRuntimeDir(deps.config.runtimeDir, deps.uid);
    runtimeDir = { path: deps.config.runtimeDir, ok: true };
  } catch (error) {
    runtimeDir = { path: deps.config.runtimeDir, ok: false, error: (error as Error).message };
  }
  const [tmux, claude, codex] = tools;
  const problems: string[] = [];
  if (!tmux.found) problems.push("tmux is not on PATH");
  else if (tmux.version === null) problems.push(`tmux does not run: ${tmux.error}`);
  if (!claude.found && !codex.found) problems.push("neither claude nor codex is on PATH");
  if (!runtimeDir.ok) problems.push(runtimeDir.error ?? `runtime dir ${runtimeDir.path} is unsafe`);
  const socketDir = deps.config.tmuxSocketDir ?? deps.config.runtimeDir;
  const socketBytes = new TextEncoder().encode(socketDir).length + SOCKET_NAME_MAX;
  if (socketBytes > SOCKET_PATH_MAX) {
    problems.push(
      `a project's tmux socket in ${socketDir} takes up to ${socketBytes} bytes, over the ` +
        `${SOCKET_PATH_MAX} a socket's path may have: set LISA_TMUX_SOCKET_DIR to a shorter ` +
        "directory",
    );
  }
  problems.push(...hostsFile.problems);
  const sshTool = tools[3];
  if (sshTool !== undefined && !sshTool.found) {
    problems.push(`${ssh} is not found, and the hosts file ${hostsFile.path} lists hosts`);
  }
  const hosts = {
    path: hostsFile.path,
    exists: hostsFile.exists,
    names: hostsFile.hosts.map((h) => h.name),
    problems: hostsFile.problems,
  };
  const build = checkBuild(deps.selfCommand, BUILT_COMMIT);
  if (build?.stale) {
    problems.push(
      `this lisa was built from commit ${build.builtFrom}, but its checkout ${build.checkout} ` +
        `is at ${build.checkoutCommit}: run "deno task install" there`,
    );
  }
  return {
    ok: problems.length === 0,
    tools,
    runtimeDir,
    build,
    variables: entries,
    hosts,
    problems,
  };
}
