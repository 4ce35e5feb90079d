/**
 * The version of the agent a spawn will start, so lisa gives it only the hooks it knows: an
 * event name claude does not know makes older versions skip the whole `--settings` ("Invalid key
 * in record", every hook lost) and makes 2.1.197 stop at a "Settings Warning" dialog before its
 * prompt (measured here). Found without running the agent when its install says it:
 *
 * 1. the executable named on PATH, symlinks resolved;
 * 2. a versioned directory of claude's own installer (`…/versions/2.1.197`);
 * 3. the `package.json` of the npm package it belongs to (`@anthropic-ai/claude-code…`);
 * 4. otherwise `<agent> --version` (about 0.8 s for claude), remembered in the runtime dir per
 *    executable (path, size and mtime), so only the first spawn of an install pays for it.
 *
 * Never throws: an agent whose version cannot be told is `null`, and gets the hooks every
 * version lisa supports knows.
 */
import type { Deps } from "../base/deps.ts";
import { readJsonIfExists, writeJsonAtomic } from "../store/atomic.ts";
import { tryWithLockSync } from "../store/lock.ts";

/** A version as three numbers (`2.1.197` → [2, 1, 197]). */
export type Version = readonly [number, number, number];

/** Longest wait for `<agent> --version`. */
const VERSION_TIMEOUT_MS = 5000;

/** The first `N.N.N` in `text`, or null. */
export function parseVersion(text: string): Version | null {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** True when `version` is `since` or newer. */
export function atLeast(version: Version, since: Version): boolean {
  for (let i = 0; i < 3; i++) {
    if (version[i] !== since[i]) return version[i] > since[i];
  }
  return true;
}

/** The first executable file named `name` in the `PATH` list `path`, or null. */
export function findOnPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? "").split(":")) {
    if (dir === "") continue;
    const candidate = `${dir.replace(/\/+$/, "")}/${name}`;
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) return candidate;
    } catch { /* not here */ }
  }
  return null;
}

/** The version an install's layout says (steps 2 and 3 of the module doc), or null. */
export function versionFromInstall(realPath: string): string | null {
  const parts = realPath.split("/");
  const at = parts.lastIndexOf("versions");
  if (at >= 0 && at + 1 < parts.length && /^\d+\.\d+\.\d+$/.test(parts[at + 1])) {
    return parts[at + 1];
  }
  let dir = realPath.slice(0, realPath.lastIndexOf("/"));
  for (let up = 0; up < 4 && dir.includes("/"); up++) {
    let pkg: { name?: unknown; version?: unknown } | undefined;
    try {
      pkg = readJsonIfExists(`${dir}/package.json`);
    } catch {
      return null; // a damaged package file: the agent is asked instead
    }
    if (pkg !== undefined && pkg !== null) {
      const named = typeof pkg.name === "string" &&
        pkg.name.startsWith("@anthropic-ai/claude-code");
      return named && typeof pkg.version === "string" && parseVersion(pkg.version) !== null
        ? pkg.version
        : null;
    }
    dir = dir.slice(0, dir.lastIndexOf("/"));
  }
  return null;
}

/** What the runtime dir remembers: executable path → its size, mtime and version. */
type VersionCache = Record<string, { key: string; version: string }>;

/** The remembered versions ({} when there are none, or the file is damaged or unsafe). */
function readCache(path: string): VersionCache {
  try {
    const value = readJsonIfExists<VersionCache>(path);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** "size:mtime" of a file: a new install at the same path changes it. */
function fileKey(path: string): string | null {
  try {
    const info = Deno.statSync(path);
    return `${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return null;
  }
}

/**
 * The version of `program` as the spawn will run it (module doc), e.g. `"2.1.197"`; null when it
 * is not on PATH or cannot be told. `remember: false` (a dry run) writes nothing. Never throws.
 */
export async function agentVersion(
  deps: Pick<Deps, "env" | "config" | "runner">,
  program: string,
  remember = true,
): Promise<string | null> {
  try {
    const found = findOnPath(program, deps.env.PATH);
    if (found === null) return null;
    const real = Deno.realPathSync(found);
    const fromInstall = versionFromInstall(real);
    if (fromInstall !== null) return fromInstall;
    const key = fileKey(real);
    const cachePath = `${deps.config.runtimeDir}/.lisa-agent-versions.json`;
    const cached = readCache(cachePath)[real];
    if (key !== null && cached?.key === key) return cached.version;
    // In the caller's environment, as the session will run it.
    const result = await deps.runner.run([real, "--version"], {
      env: { ...deps.env },
      clearEnv: true,
      allowFailure: true,
      timeoutMs: VERSION_TIMEOUT_MS,
    });
    const version = result.success ? parseVersion(result.stdout) : null;
    if (version === null) return null;
    const text = version.join(".");
    if (key !== null && remember) {
      // Best effort: a busy or unwritable cache only costs the next spawn the same call.
      try {
        tryWithLockSync(`${cachePath}.lock`, () => {
          const all = readCache(cachePath);
          all[real] = { key, version: text };
          writeJsonAtomic(cachePath, all);
        });
      } catch { /* not remembered */ }
    }
    return text;
  } catch {
    return null;
  }
}
