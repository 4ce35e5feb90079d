/**
 * The private runtime directory and the path of every artifact in it (DESIGN §4.4).
 */
import { LisaError, RuntimeDirUnsafeError } from "../base/errors.ts";
import { joinPath } from "../base/paths.ts";

/** Builds the error for an unsafe private directory. */
type UnsafeDir = (path: string, reason: string) => LisaError;

const runtimeUnsafe: UnsafeDir = (path, reason) => new RuntimeDirUnsafeError(path, reason);

/** `socket_dir_unsafe`: the tmux socket directory (`LISA_TMUX_SOCKET_DIR`) cannot be used. */
const socketUnsafe: UnsafeDir = (path, reason) =>
  new LisaError("socket_dir_unsafe", `Socket directory "${path}" is unsafe: ${reason}`, {
    details: { socketDir: path },
  });

/**
 * Makes sure `path` is a private directory of user `uid`: creates it 0700 when missing; refuses
 * (`runtime_dir_unsafe`) a symlink, a non-directory, a directory owned by someone else, or one
 * open to group/other. Returns `path`.
 */
export function ensureRuntimeDir(path: string, uid: number): string {
  return ensurePrivateDir(path, uid, runtimeUnsafe);
}

/**
 * The tmux socket directory (`LISA_TMUX_SOCKET_DIR`): created 0700 when missing; refused with
 * `socket_dir_unsafe` when it is a symlink, not a directory, owned by another user, or writable
 * by group or other ({@link checkSocketDir}). Unlike the runtime dir it may be readable by
 * others (the user's own 0755 directory): tmux makes its sockets private itself. tmux 3.3a
 * cannot create a socket in a missing directory yet exits 0, so the directory must exist before
 * any tmux call. Returns `path`.
 */
export function ensureSocketDir(path: string, uid: number): string {
  return ensureDir(path, uid, socketUnsafe, checkSocketDir);
}

/**
 * Throws `socket_dir_unsafe` unless `info` describes a directory of `uid` that no one else can
 * write to. The sticky bit does not make a writable directory safe: socket names are
 * predictable, and whoever may create entries can plant a socket under lisa's name before lisa
 * does, so that lisa's commands (prompts, text, keys) would go to a server someone else runs.
 */
export function checkSocketDir(path: string, info: Deno.FileInfo, uid: number): void {
  checkOwnDir(path, info, uid, socketUnsafe);
  if (info.mode !== null && (info.mode & 0o022) !== 0) {
    const mode = (info.mode & 0o7777).toString(8).padStart(3, "0");
    throw socketUnsafe(path, `its mode ${mode} makes it writable by group or other`);
  }
}

function ensurePrivateDir(path: string, uid: number, unsafe: UnsafeDir): string {
  return ensureDir(path, uid, unsafe, (p, info, u) => checkPrivateDir(p, info, u, unsafe));
}

function ensureDir(
  path: string,
  uid: number,
  unsafe: UnsafeDir,
  check: (path: string, info: Deno.FileInfo, uid: number) => void,
): string {
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (info === undefined) {
    const parent = path.slice(0, path.lastIndexOf("/")) || "/";
    try {
      Deno.mkdirSync(parent, { recursive: true });
      Deno.mkdirSync(path, { mode: 0o700 });
      Deno.chmodSync(path, 0o700);
    } catch (error) {
      // Created meanwhile by another lisa: checked below like any existing directory.
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        throw unsafe(path, `it cannot be created: ${(error as Error).message}`);
      }
    }
    info = Deno.lstatSync(path);
  }
  check(path, info, uid);
  return path;
}

/** A real directory (not a symlink) owned by `uid`, else `unsafe`. */
function checkOwnDir(path: string, info: Deno.FileInfo, uid: number, unsafe: UnsafeDir): void {
  if (info.isSymlink) throw unsafe(path, "it is a symlink");
  if (!info.isDirectory) throw unsafe(path, "it is not a directory");
  if (info.uid !== null && info.uid !== uid) {
    throw unsafe(path, `it is owned by uid ${info.uid}, not ${uid}`);
  }
}

function checkPrivateDir(path: string, info: Deno.FileInfo, uid: number, unsafe: UnsafeDir): void {
  checkOwnDir(path, info, uid, unsafe);
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
    throw unsafe(path, `its mode ${mode} lets group/other in (want 700)`);
  }
}

/** Paths of one session's artifacts. */
export interface SessionPaths {
  meta: string;
  state: string;
  heartbeat: string;
  done: string;
  hooks: string;
  events: string;
  /** Lock that serializes `send` to the session (held from its paste to its Enter). */
  inputLock: string;
  /**
   * Lock of `send --wait`, held for the whole waited turn (one waiter per session). Never the
   * hooks log's own lock: `lisa hook` appends under that one, and the agent waits for its hooks.
   */
  waitLock: string;
  output: string;
}

/** Every artifact path of session `session` of the project with hash `hash`. */
export function sessionPaths(runtimeDir: string, hash: string, session: string): SessionPaths {
  const base = joinPath(runtimeDir, `.lisa-${hash}-session-${session}`);
  return {
    meta: `${base}-meta.json`,
    state: `${base}-state.json`,
    heartbeat: `${base}-heartbeat.txt`,
    done: `${base}-done.txt`,
    hooks: `${base}-hooks.jsonl`,
    events: `${base}-events.jsonl`,
    inputLock: `${base}-input.lock`,
    waitLock: `${base}-wait.lock`,
    output: joinPath(runtimeDir, `lisa-${hash}-output-${session}.txt`),
  };
}

/** The lock file that guards `path` (a sibling `.lock`). */
export function lockPathFor(path: string): string {
  return `${path}.lock`;
}

/** Path of a startup script of `session`. */
export function cmdScriptPath(
  runtimeDir: string,
  hash: string,
  session: string,
  nanos: string,
): string {
  return joinPath(runtimeDir, `lisa-cmd-${hash}-${session}-${nanos}.sh`);
}

/**
 * Longest path a tmux socket may have: a Unix socket's address holds 108 bytes on Linux, 104 on
 * macOS, the terminating NUL included. tmux cannot create or reach a socket past it ("File name
 * too long").
 */
export const SOCKET_PATH_MAX = Deno.build.os === "linux" ? 107 : 103;

/** Bytes a project's socket name adds to its directory, at most: `/lisa-tmux-{10}-{8}.sock`. */
export const SOCKET_NAME_MAX = "/lisa-tmux-".length + 10 + 1 + 8 + ".sock".length;

/**
 * Throws `socket_path_too_long` when tmux could not use the socket `path` (over
 * {@link SOCKET_PATH_MAX} bytes), saying how to fix it.
 */
export function checkSocketPath(path: string): void {
  const bytes = new TextEncoder().encode(path).length;
  if (bytes <= SOCKET_PATH_MAX) return;
  throw new LisaError(
    "socket_path_too_long",
    `The tmux socket "${path}" would be ${bytes} bytes long, over the ${SOCKET_PATH_MAX} a ` +
      "socket's path may have; set LISA_TMUX_SOCKET_DIR to a shorter directory (it defaults to " +
      "the runtime dir, LISA_RUNTIME_DIR)",
    { details: { socketPath: path, bytes, maxBytes: SOCKET_PATH_MAX } },
  );
}

/** The project's tmux socket: `lisa-tmux-{slug}-{hash}.sock` in the socket dir. */
export function socketPath(socketDir: string, slug: string, hash: string): string {
  return joinPath(socketDir, `lisa-tmux-${slug}-${hash}.sock`);
}

/**
 * The project's spawn lock: held by a spawn from its check that the name is free to the meta
 * of the session it made, so two spawns of one name never clear each other's files.
 */
export function spawnLockPath(runtimeDir: string, hash: string): string {
  return joinPath(runtimeDir, `.lisa-${hash}-spawn.lock`);
}

/** The previous tree topology snapshot used by `session tree --delta`. */
export function treeDeltaPath(runtimeDir: string, hash: string): string {
  return joinPath(runtimeDir, `.lisa-${hash}-tree-delta.json`);
}

/** Matches artifact file names; groups: hash, session, kind. */
export const SESSION_ARTIFACT_RE =
  /^\.lisa-([0-9a-f]{8})-session-(lisa-[A-Za-z0-9._-]+)-(meta\.json|state\.json|heartbeat\.txt|done\.txt|hooks\.jsonl|events\.jsonl|input|wait)(\.lock)?$/;
/** Matches output file names; groups: hash, session. */
export const OUTPUT_ARTIFACT_RE = /^lisa-([0-9a-f]{8})-output-(lisa-[A-Za-z0-9._-]+)\.txt$/;
/** Matches startup script names; groups: hash, session-and-nanos. */
export const CMD_SCRIPT_RE = /^lisa-cmd-([0-9a-f]{8})-(lisa-[A-Za-z0-9._-]+)-(\d+)\.sh$/;
/** Matches socket names; groups: slug, hash. */
export const SOCKET_RE = /^lisa-tmux-([a-z0-9]+)-([0-9a-f]{8})\.sock$/;
