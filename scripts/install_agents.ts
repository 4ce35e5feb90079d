/**
 * Installs the real agent CLIs the end-to-end tier runs (DESIGN §4.7), pinned, from npm, into a
 * cache outside the repository: `${XDG_CACHE_HOME:-~/.cache}/lisa-agents/<pkg>@<version>`.
 * Idempotent: an install whose binary answers `--version` with the pinned version is reused.
 *
 * Usage: `deno run -A scripts/install_agents.ts [--json]` prints the directories to put on PATH.
 * Exit codes: 0 installed (or already there); 3 npm cannot install them (no npm, no registry):
 * the tier then skips with that message; 1 any other failure (installed but not working).
 *
 * Version checks run with a private temp HOME and `DISABLE_AUTOUPDATER=1`, so nothing here
 * touches the real HOME's agent config (npm's own download cache is used as usual).
 */
import { withLock } from "../src/store/lock.ts";

/** One pinned agent package. */
export interface AgentPackage {
  /** The executable name on PATH. */
  bin: "claude" | "codex";
  pkg: string;
  version: string;
}

/** The pinned versions (DESIGN §4.7). */
export const AGENT_PACKAGES: readonly AgentPackage[] = [
  { bin: "claude", pkg: "@anthropic-ai/claude-code", version: "2.1.197" },
  { bin: "codex", pkg: "@openai/codex", version: "0.169.0" },
];

/** Exit code of this script when npm cannot install the packages. */
export const EXIT_INSTALL_IMPOSSIBLE = 3;

/** Where one agent ended up. */
export interface InstalledAgent extends AgentPackage {
  /** Install prefix (`…/lisa-agents/<pkg>@<version>`). */
  prefix: string;
  /** Directory holding an executable named `bin` (put it first on PATH). */
  binDir: string;
}

/** Result of {@link installAgents}. */
export type InstallResult =
  | { ok: true; agents: Record<"claude" | "codex", InstalledAgent> }
  | { ok: false; impossible: boolean; message: string };

const decoder = new TextDecoder();

/** The cache root: `$XDG_CACHE_HOME/lisa-agents` or `~/.cache/lisa-agents`. */
export function agentsCacheDir(env: Record<string, string> = Deno.env.toObject()): string {
  const base = env.XDG_CACHE_HOME || `${env.HOME ?? "/tmp"}/.cache`;
  return `${base.replace(/\/+$/, "")}/lisa-agents`;
}

async function run(
  argv: string[],
  options: { env?: Record<string, string>; timeoutMs: number; cwd?: string },
): Promise<{ code: number; out: string }> {
  try {
    const out = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      env: options.env,
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(options.timeoutMs),
    }).output();
    return { code: out.code, out: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
  } catch (error) {
    return { code: -1, out: (error as Error).message };
  }
}

/** The binary's `--version` output when it runs, with a private HOME; null otherwise. */
async function versionOf(path: string, home: string): Promise<string | null> {
  try {
    Deno.statSync(path);
  } catch {
    return null;
  }
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    HOME: home,
    DISABLE_AUTOUPDATER: "1",
  };
  delete env.CODEX_HOME;
  const result = await run([path, "--version"], { env, timeoutMs: 30_000 });
  return result.code === 0 ? result.out.trim() : null;
}

/**
 * Candidate executables of a package: the npm bin link, then (claude) the platform package's
 * native binary, which works even when npm skipped the postinstall that links it.
 */
function candidates(prefix: string, agent: AgentPackage): string[] {
  const list = [`${prefix}/node_modules/.bin/${agent.bin}`];
  if (agent.bin === "claude") {
    const arch = Deno.build.arch === "aarch64" ? "arm64" : "x64";
    const os = Deno.build.os === "darwin" ? "darwin" : "linux";
    list.push(`${prefix}/node_modules/@anthropic-ai/claude-code-${os}-${arch}/claude`);
  }
  return list;
}

/** The first candidate that reports the pinned version, or null. */
async function workingBinary(
  prefix: string,
  agent: AgentPackage,
  home: string,
): Promise<string | null> {
  for (const path of candidates(prefix, agent)) {
    const version = await versionOf(path, home);
    if (version !== null && version.includes(agent.version)) return path;
  }
  return null;
}

/** A directory with `bin` linked to `binary` (the npm link itself when it is the one). */
function binDirFor(prefix: string, agent: AgentPackage, binary: string): string {
  const dir = binary.slice(0, binary.lastIndexOf("/"));
  if (binary.endsWith(`/${agent.bin}`)) return dir;
  const linkDir = `${prefix}/lisa-bin`;
  Deno.mkdirSync(linkDir, { recursive: true });
  try {
    Deno.removeSync(`${linkDir}/${agent.bin}`);
  } catch { /* not there yet */ }
  Deno.symlinkSync(binary, `${linkDir}/${agent.bin}`);
  return linkDir;
}

/**
 * Installs (or finds) every pinned agent. Never throws: `impossible` is true when npm itself
 * cannot install (missing, registry unreachable), so callers can skip with `message`.
 */
export async function installAgents(
  options: { cacheDir?: string; log?: (line: string) => void } = {},
): Promise<InstallResult> {
  const cacheDir = options.cacheDir ?? agentsCacheDir();
  const log = options.log ?? (() => {});
  const home = await Deno.makeTempDir({ prefix: "lisa-agents-home-" });
  try {
    Deno.mkdirSync(cacheDir, { recursive: true });
    // One installer at a time per cache (parallel test files share it).
    return await withLock(`${cacheDir}/.install.lock`, { timeoutMs: 15 * 60_000 }, async () => {
      const agents: Partial<Record<"claude" | "codex", InstalledAgent>> = {};
      for (const agent of AGENT_PACKAGES) {
        const prefix = `${cacheDir}/${agent.pkg}@${agent.version}`;
        let binary = await workingBinary(prefix, agent, home);
        if (binary === null) {
          log(`installing ${agent.pkg}@${agent.version} into ${prefix}`);
          Deno.mkdirSync(prefix, { recursive: true });
          const npm = await run([
            "npm",
            "install",
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--prefix",
            prefix,
            `${agent.pkg}@${agent.version}`,
          ], { timeoutMs: 10 * 60_000, cwd: prefix });
          if (npm.code !== 0) {
            const last = npm.out.trim().split("\n").slice(-3).join(" | ");
            return {
              ok: false,
              impossible: true,
              message: `npm cannot install ${agent.pkg}@${agent.version}: ${last}`,
            };
          }
          binary = await workingBinary(prefix, agent, home);
          if (binary === null) {
            return {
              ok: false,
              impossible: false,
              message: `${agent.pkg}@${agent.version} installed in ${prefix} but ` +
                `\`${agent.bin} --version\` does not report ${agent.version}`,
            };
          }
        }
        agents[agent.bin] = { ...agent, prefix, binDir: binDirFor(prefix, agent, binary) };
      }
      return { ok: true, agents: agents as Record<"claude" | "codex", InstalledAgent> };
    });
  } catch (error) {
    return { ok: false, impossible: false, message: (error as Error).message };
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  const write = (stream: typeof Deno.stdout, text: string) =>
    stream.writeSync(new TextEncoder().encode(text));
  const result = await installAgents({ log: (line) => write(Deno.stderr, `${line}\n`) });
  if (!result.ok) {
    write(Deno.stderr, `install_agents: ${result.message}\n`);
    Deno.exit(result.impossible ? EXIT_INSTALL_IMPOSSIBLE : 1);
  }
  if (Deno.args.includes("--json")) write(Deno.stdout, JSON.stringify(result.agents) + "\n");
  else {
    for (const a of Object.values(result.agents)) {
      write(Deno.stdout, `${a.bin} ${a.version} ${a.binDir}\n`);
    }
  }
}
