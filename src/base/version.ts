/** Version facts of this build. */
import type { Deps } from "./deps.ts";

/** lisa's version. */
export const LISA_VERSION = "0.1.0";

/**
 * The version of lisa's JSON contract (the documents `--json` prints, their fields and error
 * codes). It goes up when a field changes meaning or goes away, so that a lisa driving another
 * host's lisa (`--host`) can tell a remote that answers in another contract
 * (`host_version_mismatch`). Adding a field keeps it.
 */
export const JSON_CONTRACT = 1;

/** Version, commit (the checkout's git HEAD when run from source or built), Deno version. */
export interface VersionInfo {
  version: string;
  /** {@link JSON_CONTRACT}. */
  jsonContract: number;
  commit: string | null;
  deno: string;
}

/** The commit a build was made from: `scripts/build.ts` writes it into its copy of this line. */
export const BUILT_COMMIT: string | null = null;

function commitOfCheckout(selfCommand: string[]): string | null {
  // The checkout is the directory of main.ts when running from source.
  const main = selfCommand[selfCommand.length - 1];
  if (!main.endsWith("main.ts")) return null;
  return commitAt(main.slice(0, main.lastIndexOf("/")));
}

/**
 * The HEAD commit (12 hex digits) of the git checkout at `dir`, or null. A linked worktree
 * (`git worktree add`) has a `.git` file naming its own git dir, which holds its HEAD; its
 * branches are in the main checkout's git dir (named by that dir's `commondir` file).
 */
export function commitAt(dir: string): string | null {
  try {
    let gitDir = `${dir}/.git`;
    if (Deno.statSync(gitDir).isFile) {
      const named = Deno.readTextFileSync(gitDir).trim().replace(/^gitdir: /, "");
      gitDir = named.startsWith("/") ? named : `${dir}/${named}`;
    }
    let common = gitDir;
    try {
      const named = Deno.readTextFileSync(`${gitDir}/commondir`).trim();
      common = named.startsWith("/") ? named : `${gitDir}/${named}`;
    } catch {
      // a main checkout: its git dir holds its branches
    }
    const head = Deno.readTextFileSync(`${gitDir}/HEAD`).trim();
    if (!head.startsWith("ref: ")) return head.slice(0, 12);
    const ref = head.slice(5);
    try {
      return Deno.readTextFileSync(`${common}/${ref}`).trim().slice(0, 12);
    } catch {
      const packed = Deno.readTextFileSync(`${common}/packed-refs`);
      const line = packed.split("\n").find((l) => l.endsWith(` ${ref}`));
      return line ? line.slice(0, 12) : null;
    }
  } catch {
    return null;
  }
}

/** Returns the version facts; never throws. */
export function versionInfo(deps: Deps): VersionInfo {
  return {
    version: LISA_VERSION,
    jsonContract: JSON_CONTRACT,
    commit: BUILT_COMMIT ?? commitOfCheckout(deps.selfCommand),
    deno: Deno.version.deno,
  };
}
