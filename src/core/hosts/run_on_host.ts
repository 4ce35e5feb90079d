/**
 * Runs lisa on another host: `ssh <destination> <its lisa> <args…>` through the runner, the way
 * `docker -H ssh://` and git reach another machine. No daemon, no protocol of lisa's own: what
 * comes back is the remote lisa's output and exit code. What went wrong on the way is named:
 * ssh could not connect or the connection broke (`host_unreachable`, exit 1; ssh exits 255 for
 * its own failures), no answer within the time allowed (`host_unreachable`), or the host's
 * lisa command could not run there (`host_lisa_failed`: the remote shell exits 126/127).
 */
import type { Deps } from "../../base/deps.ts";
import { CommandTimeoutError, LisaError } from "../../base/errors.ts";
import { ensureRuntimeDir } from "../../store/runtime_dir.ts";
import type { HostEntry } from "./hosts_file.ts";
import { controlPathFor, remoteCommandLine, sshArgv } from "./ssh.ts";

/** How one call runs. */
export interface HostCallOptions {
  /** Bytes for the remote lisa's stdin (a `--text -` payload); no hang-up guard then. */
  stdin?: Uint8Array;
  /** A terminal on both sides (attach): the call takes this process's terminal. */
  tty?: boolean;
  /** The longest the whole call may take (ms); `Infinity`: no limit (watch, monitor). */
  timeoutMs: number;
  /** Receive stdout/stderr as they arrive instead of in the result. */
  onStdout?: (text: string) => void;
  onStderr?: (text: string) => void;
  /** Ends the call (the remote lisa is ended with it). */
  signal?: AbortSignal;
}

/** What the remote lisa did. */
export interface HostCallResult {
  /** The remote lisa's exit code. */
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the call, connection included. */
  elapsedMs: number;
}

/** ssh's exit status for its own failures (connection refused, timed out, broken). */
const SSH_FAILED = 255;

/** The last non-empty line of ssh's stderr (its reason), or "". */
function lastLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  return lines[lines.length - 1] ?? "";
}

/** `host_unreachable` for `host`, with ssh's reason. */
export function unreachable(host: HostEntry, reason: string): LisaError {
  return new LisaError(
    "host_unreachable",
    `Host "${host.name}" (${host.ssh}) is unreachable: ${reason}`,
    { details: { host: host.name } },
  );
}

/**
 * Runs `args` with the lisa of `host` (see the module doc). Throws `host_unreachable` when ssh
 * fails or the call passes `timeoutMs`, `host_lisa_failed` when the remote shell could not run
 * the host's lisa command, and `program_not_found` when there is no ssh; any other exit code
 * is the remote lisa's and is returned.
 */
export async function runOnHost(
  deps: Deps,
  host: HostEntry,
  args: readonly string[],
  options: HostCallOptions,
): Promise<HostCallResult> {
  const hangup = options.stdin === undefined && !options.tty;
  const command = remoteCommandLine(host.lisa, args, hangup);
  ensureRuntimeDir(deps.config.runtimeDir, deps.uid);
  const argv = sshArgv({
    program: deps.config.sshProgram ?? "ssh",
    destination: host.ssh,
    command,
    tty: options.tty === true,
    connectTimeoutSeconds: deps.config.hostConnectTimeoutSeconds,
    controlPath: controlPathFor(deps.config.runtimeDir, host.ssh),
  });
  // What streamed past is kept in part: ssh's reason is its last stderr line.
  let stderrTail = "";
  let sawStdout = false;
  const onStdout = options.onStdout && ((text: string) => {
    sawStdout = true;
    options.onStdout!(text);
  });
  const onStderr = options.onStderr && ((text: string) => {
    stderrTail = (stderrTail + text).slice(-4096);
    options.onStderr!(text);
  });
  const started = performance.now();
  let result;
  try {
    result = await deps.runner.run(argv, {
      allowFailure: true,
      timeoutMs: options.timeoutMs,
      interactive: options.tty === true,
      ...(options.stdin !== undefined ? { stdin: options.stdin } : { holdStdin: hangup }),
      onStdout,
      onStderr,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof CommandTimeoutError) {
      throw unreachable(host, `no answer within ${Math.round(options.timeoutMs / 1000)} s`);
    }
    throw error;
  }
  const elapsedMs = Math.round(performance.now() - started);
  if (options.signal?.aborted) return { ...result, elapsedMs };
  const stderr = result.stderr + stderrTail;
  if (result.code === SSH_FAILED) {
    throw unreachable(host, lastLine(stderr) || "ssh exited 255");
  }
  if ((result.code === 126 || result.code === 127) && result.stdout === "" && !sawStdout) {
    const why = lastLine(stderr);
    throw new LisaError(
      "host_lisa_failed",
      `The lisa command of host "${host.name}" (${host.lisa}) could not run there (exit ${result.code}${
        why ? `: ${why}` : ""
      }); set its "lisa" in the hosts file to the command line that runs lisa on that host`,
      { details: { host: host.name, exitStatus: result.code } },
    );
  }
  return { ...result, elapsedMs };
}
