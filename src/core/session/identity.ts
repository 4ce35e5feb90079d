/**
 * Identity: canonical project root, project hash and slug, session names, run ids.
 * See DESIGN §4.3. Pure except for {@link canonicalProjectRoot}, which resolves symlinks.
 */
import { LisaError, UsageError } from "../../base/errors.ts";
import type { Agent, Mode } from "../../base/types.ts";
import { md5Hex } from "../../base/md5.ts";
import { baseName, resolvePath } from "../../base/paths.ts";

/**
 * Returns the absolute project root with symlinks resolved. `root` defaults to `cwd`.
 * Throws `project_root_not_found` when it does not exist or is not a directory.
 */
export function canonicalProjectRoot(root: string | undefined, cwd: string): string {
  const candidate = resolvePath(cwd, root && root.length > 0 ? root : cwd);
  let real: string;
  try {
    real = Deno.realPathSync(candidate);
  } catch (error) {
    throw new LisaError("project_root_not_found", `Project root "${candidate}" does not exist`, {
      cause: error,
      details: { projectRoot: candidate },
    });
  }
  let isDir = false;
  try {
    isDir = Deno.statSync(real).isDirectory;
  } catch { /* reported below */ }
  if (!isDir) {
    throw new LisaError("project_root_not_found", `Project root "${real}" is not a directory`, {
      details: { projectRoot: real },
    });
  }
  return real;
}

/** First 8 hex chars of md5(root). */
export function projectHash(root: string): string {
  return md5Hex(root).slice(0, 8);
}

/** Lowercased alphanumerics of the root's basename, at most 10, `project` when empty. */
export function projectSlug(root: string): string {
  const slug = baseName(root).toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 10);
  return slug === "" ? "project" : slug;
}

/** Lowercased alphanumerics of a tag, at most 16 chars ("" when nothing is left). */
export function sanitizeTag(tag: string): string {
  return tag.toLowerCase().replace(/[^a-z0-9]/g, "").slice(0, 16);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** Inputs of {@link sessionName}. */
export interface SessionNameInput {
  projectRoot: string;
  agent: Agent;
  mode: Mode;
  tag?: string;
  now: Date;
  /** Nanoseconds within the second (9 digits); random when absent. */
  nanos?: number;
}

/** Builds `lisa-{slug}-{YYMMDD-HHMMSS}-{nanos}-{agent}-{mode}[-{tag}]` (local time). */
export function sessionName(input: SessionNameInput): string {
  const d = input.now;
  const stamp = `${pad(d.getFullYear() % 100)}${pad(d.getMonth() + 1)}${pad(d.getDate())}-` +
    `${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
  const nanos = input.nanos ??
    (d.getMilliseconds() * 1_000_000 + (crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000));
  const tag = input.tag === undefined ? "" : sanitizeTag(input.tag);
  return `lisa-${projectSlug(input.projectRoot)}-${stamp}-${pad(nanos, 9)}-${input.agent}-` +
    `${input.mode}${tag ? `-${tag}` : ""}`;
}

// No "." (nor ":"): tmux uses them in targets and silently renames such a session ("a.b" →
// "a_b"), after which lisa could no longer find, watch or kill it.
const NAME_RE = /^lisa-[A-Za-z0-9_-]+$/;

/** True when `name` is a valid session name (custom or generated). */
export function isValidSessionName(name: string): boolean {
  return name.length <= 200 && NAME_RE.test(name);
}

/**
 * Longest name a new session may take. Its files' names must fit the file system's 255 bytes:
 * the longest, the startup script while it is written (`lisa-cmd-{hash}-{name}-{19 digits}.sh`
 * plus an atomic write's `.tmp-{pid}-{random}`), adds up to 68 bytes to the name.
 */
export const MAX_SPAWN_NAME_LENGTH = 180;

/**
 * Returns `name` as a new session's name, or throws `invalid_session_name`: the rules of
 * {@link validateSessionName}, and at most {@link MAX_SPAWN_NAME_LENGTH} characters.
 */
export function validateNewSessionName(name: string): string {
  validateSessionName(name);
  if (name.length > MAX_SPAWN_NAME_LENGTH) {
    throw new UsageError(
      `Session name "${name}" has ${name.length} characters; a new session's name may have at ` +
        `most ${MAX_SPAWN_NAME_LENGTH} (the names of its files must fit the file system's limit)`,
      "invalid_session_name",
      { maxLength: MAX_SPAWN_NAME_LENGTH },
    );
  }
  return name;
}

/** Returns `name` or throws `invalid_session_name` (exit 1) with the rule it broke. */
export function validateSessionName(name: string): string {
  if (!name.startsWith("lisa-")) {
    throw new UsageError(
      `Session name "${name}" must start with "lisa-"`,
      "invalid_session_name",
    );
  }
  if (name.includes(".") && isValidSessionName(name.replaceAll(".", "_"))) {
    throw new UsageError(
      `Session name "${name}" may not contain "." (tmux would rename it to ` +
        `"${name.replaceAll(".", "_")}"); use "_" or "-"`,
      "invalid_session_name",
    );
  }
  if (!isValidSessionName(name)) {
    throw new UsageError(
      `Session name "${name}" may contain only letters, digits, "_" and "-" (max 200)`,
      "invalid_session_name",
    );
  }
  return name;
}

/** The id used in artifact file names: the session name (already a safe file-name word). */
export function artifactId(session: string): string {
  return validateSessionName(session);
}

/** A new run id: unique per spawn, safe in file names and in the done file (no ":"). */
export function newRunId(now: Date): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  const rand = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${now.getTime().toString(36)}-${rand}`;
}
