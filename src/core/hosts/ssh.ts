/**
 * How lisa reaches another host: the argv of `ssh` and the command line the remote shell runs,
 * built by pure functions. lisa adds to the user's own ssh configuration only what it needs to
 * be a well-behaved client: `BatchMode=yes` (never a password prompt), a `ConnectTimeout`, no
 * agent, X11 or port forwarding (`-a -x`, `ClearAllForwardings=yes`: a `LocalForward` of the
 * user's config would otherwise be set up, or fail, on every call), and connection sharing
 * (`ControlMaster=auto`, `ControlPersist=60`, a `ControlPath` inside lisa's private runtime
 * dir), so that calls within a minute of each other reuse one SSH connection.
 */
import { UsageError } from "../../base/errors.ts";
import { md5Hex } from "../../base/md5.ts";
import { shellQuote } from "../../base/shell_quote.ts";

/** Seconds a shared connection stays up after its last call. */
export const CONTROL_PERSIST_SECONDS = 60;

/**
 * The longest control socket path used. A unix socket's path is capped by the kernel's
 * `sun_path` (108 bytes on Linux, 104 on macOS) and ssh appends a random suffix of its own to
 * the path while it sets the socket up (`.XXXXXXXXXXXXXXXX`, 17 bytes).
 */
const MAX_CONTROL_PATH_BYTES = 104 - 18;

/**
 * The control socket for `destination`: a short hashed name in the runtime dir
 * (`ssh-<12 hex>`), or null when sharing cannot be used there (the path would be too long, or
 * holds characters ssh's option parser or its `%` tokens would change). Pure.
 */
export function controlPathFor(runtimeDir: string, destination: string): string | null {
  const path = `${runtimeDir.replace(/\/+$/, "")}/ssh-${md5Hex(destination).slice(0, 12)}`;
  if (new TextEncoder().encode(path).length > MAX_CONTROL_PATH_BYTES) return null;
  if (/[\s"'%\\]/.test(path)) return null;
  return path;
}

/** One ssh invocation. */
export interface SshCall {
  /** The ssh program (`LISA_SSH`, default `ssh`). */
  program: string;
  destination: string;
  /** The remote command line (see {@link remoteCommandLine}). */
  command: string;
  /** A terminal on the remote side (`-t`, for attach); otherwise none (`-T`). */
  tty: boolean;
  connectTimeoutSeconds: number;
  /** The shared connection's socket; null: no sharing. */
  controlPath: string | null;
}

/**
 * The argv of one ssh call. The destination comes after `--`, so even a value that slipped
 * past validation could not be read as an option. Throws `invalid_host` for a destination
 * starting with `-` (the hosts file refuses those already). Pure.
 */
export function sshArgv(call: SshCall): string[] {
  if (call.destination.startsWith("-") || call.destination === "") {
    throw new UsageError(
      `${JSON.stringify(call.destination)} is not an ssh destination`,
      "invalid_host",
    );
  }
  const sharing = call.controlPath === null
    ? ["-o", "ControlMaster=no", "-o", "ControlPath=none"]
    : [
      "-o",
      "ControlMaster=auto",
      "-o",
      `ControlPersist=${CONTROL_PERSIST_SECONDS}`,
      "-o",
      `ControlPath=${call.controlPath}`,
    ];
  return [
    call.program,
    call.tty ? "-t" : "-T",
    "-a",
    "-x",
    "-o",
    "BatchMode=yes",
    "-o",
    `ConnectTimeout=${call.connectTimeoutSeconds}`,
    "-o",
    "ClearAllForwardings=yes",
    ...sharing,
    "--",
    call.destination,
    call.command,
  ];
}

/**
 * The command line the remote shell runs: the host's `lisa` command line as the hosts file
 * gives it (shell syntax by design, like `--command`), then every argument quoted for a POSIX
 * shell, so that each reaches the remote lisa as exactly one word with exactly its bytes:
 * quotes, `$()`, backticks, newlines, leading dashes and non-ASCII text included. This is the
 * one place arguments for another host are quoted. Throws `invalid_argument` for an argument
 * holding a NUL byte, which no command line can carry. Pure.
 *
 * With `hangup`, the remote lisa is ended (SIGTERM) when the connection's input closes: ssh
 * without a terminal sends the remote command no signal when the local side goes away, so a
 * remote `watch` would otherwise run on after the lisa that started it was stopped. The local
 * side then holds ssh's stdin open for the whole call (`RunOptions.holdStdin`), and the remote
 * shell runs lisa in the background beside a `cat` of that input; when `cat` sees its end, lisa
 * is ended, and when lisa ends first, the watcher is. lisa's stdin is then /dev/null.
 */
export function remoteCommandLine(lisa: string, args: readonly string[], hangup: boolean): string {
  for (const arg of args) {
    if (arg.includes("\0")) {
      throw new UsageError(
        "An argument for the other host holds a NUL byte, which no command line can carry",
        "invalid_argument",
      );
    }
  }
  const line = [lisa, ...args.map(shellQuote)].join(" ");
  if (!hangup) return line;
  return "exec 3<&0 </dev/null; " +
    `${line} 3<&- & p=$!; ` +
    "{ cat <&3 >/dev/null 2>&1; kill -TERM $p 2>/dev/null; } >/dev/null 2>&1 & w=$!; " +
    "wait $p; s=$?; kill $w 2>/dev/null; wait $w 2>/dev/null; exit $s";
}
