/**
 * Another machine for the hosts tests: a real OpenSSH `sshd` (Debian's `openssh-server`) on
 * 127.0.0.1 on a free port, with its host key, the client's key, `sshd_config` (`StrictModes
 * no`, `UsePAM no`, `PidFile` and `AuthorizedKeysFile` in the temp dir) and its log all under
 * the world's temp dir, and a client `~/.ssh/config` under the world's HOME. The "remote" lisa
 * is this checkout run with its own `LISA_RUNTIME_DIR`, socket dir, HOME, project and history
 * database (set in the host's `lisa` command line), so for lisa it is another machine.
 *
 * ssh reads `~/.ssh/config` from the passwd entry's home, not from `$HOME`, so the world's lisa
 * runs ssh through a two-line wrapper (`LISA_SSH`) that adds `-F <world HOME>/.ssh/config`: the
 * real HOME's `~/.ssh` is never read or written. Run as root, sshd insists on its privilege
 * separation directory `/run/sshd`; when that is missing it runs in a private mount namespace
 * (`unshare --mount`) with a tmpfs `/run` of its own, so nothing is created outside the temp
 * dir. `stop()` ends every control master (`ssh -O exit`) and sshd (by PID).
 */
import { shellQuote } from "../../src/base/shell_quote.ts";
import { controlPathFor } from "../../src/core/hosts/mod.ts";
import { FAKE_BIN, LISA_ARGV, type World } from "./world.ts";

/** What the helper needs of a world (a test's `World`, or the bench's context). */
export type SshWorld = Pick<World, "base" | "home" | "env" | "runtimeDir">;

const SSHD = "/usr/sbin/sshd";
const decoder = new TextDecoder();

/** One "other machine": where its lisa keeps things. */
export interface RemoteLisa {
  /** Its host name in the hosts file and in the client's ssh config. */
  name: string;
  base: string;
  runtimeDir: string;
  socketDir: string;
  home: string;
  projectRoot: string;
  historyDb: string;
  /** The `lisa` command line of its hosts-file entry. */
  lisa: string;
}

/** A running sshd and the hosts it serves (each an alias of 127.0.0.1 in the ssh config). */
export interface Sshd {
  port: number;
  dir: string;
  /** The ssh wrapper the world's lisa runs (`LISA_SSH`). */
  ssh: string;
  /** The client config (also at `<world HOME>/.ssh/config`). */
  config: string;
  hostsFile: string;
  remotes: Map<string, RemoteLisa>;
  /** Environment for the world's lisa: `LISA_SSH`, `LISA_HOSTS_FILE`. */
  env: Record<string, string>;
  /** Connections sshd accepted so far (its log's "Connection from" lines). */
  accepts(): Promise<number>;
  log(): Promise<string>;
  /** Runs the client ssh (through the wrapper) with `args`. */
  client(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Ends every control master of the world's lisa, then sshd. */
  stop(): Promise<void>;
}

async function run(
  argv: string[],
  options: { env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: options.env,
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Why sshd is not installed, or null when it is. */
export function sshdMissing(): string | null {
  try {
    Deno.statSync(SSHD);
  } catch {
    return `no ${SSHD} (install openssh-server: apt-get install -y openssh-server)`;
  }
  return null;
}

/** The argv that starts sshd with `args`: directly, or (root without /run/sshd) unshared. */
function sshdArgv(args: string[]): string[] {
  const direct = Deno.uid() !== 0 || existsSync("/run/sshd");
  if (direct) return [SSHD, ...args];
  return [
    "unshare",
    "--mount",
    "--propagation",
    "private",
    "--",
    "/bin/sh",
    "-c",
    'mount -t tmpfs -o mode=0755 lisa-test-sshd /run && mkdir -m 0755 /run/sshd && exec "$@"',
    "sh",
    SSHD,
    ...args,
  ];
}

/**
 * Why no sshd can run on this machine (not installed; as root without `/run/sshd` and without
 * mount namespaces), or null when one can: a config test (`sshd -t`) the way the tests start it.
 */
export async function sshdUnavailable(): Promise<string | null> {
  const missing = sshdMissing();
  if (missing !== null) return missing;
  const dir = await Deno.makeTempDir({ prefix: "lisa-sshd-probe-" });
  try {
    const key = await run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", `${dir}/k`]);
    if (key.code !== 0) return `ssh-keygen failed: ${key.stderr.trim()}`;
    await Deno.writeTextFile(
      `${dir}/sshd_config`,
      `Port ${freePort()}\nListenAddress 127.0.0.1\nHostKey ${dir}/k\nPidFile ${dir}/pid\n` +
        "UsePAM no\nStrictModes no\n",
    );
    const r = await run(sshdArgv(["-t", "-f", `${dir}/sshd_config`]));
    return r.code === 0 ? null : `sshd cannot run here: ${(r.stderr + r.stdout).trim()}`;
  } catch (error) {
    return `sshd cannot run here: ${(error as Error).message}`;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** A TCP port nobody listens on right now, on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Options of {@link startSshd}. */
export interface SshdOptions {
  /** Host names to declare, each a remote lisa of its own (default `["box1"]`). */
  hosts?: string[];
  /**
   * Extra `VAR=value` for every remote lisa's command line (real-time windows, …); a function
   * gets each host's name and base dir.
   */
  remoteEnv?:
    | Record<string, string>
    | ((remote: { name: string; base: string }) => Record<string, string>);
  /** Extra `VAR=value` for one host's lisa (by host name), after `remoteEnv`. */
  hostEnv?: Record<string, Record<string, string>>;
  /** Extra entries for the hosts file (an unreachable host, …), after the served ones. */
  extraHosts?: { name: string; ssh: string; lisa?: string }[];
  /** Extra client config text (other Host blocks). */
  extraConfig?: string;
  /** The argv that runs lisa on the hosts (default: this checkout's, as the tests run it). */
  lisaArgv?: readonly string[];
}

/** The `lisa` command line of a remote lisa: its own dirs, then this checkout's lisa. */
function remoteCommand(
  r: Omit<RemoteLisa, "lisa">,
  world: SshWorld,
  extra: Record<string, string>,
  lisa: readonly string[],
) {
  const env: Record<string, string> = {
    LISA_RUNTIME_DIR: r.runtimeDir,
    LISA_TMUX_SOCKET_DIR: r.socketDir,
    HOME: r.home,
    LISA_HISTORY_DB: r.historyDb,
    LISA_PROJECT_ROOT: r.projectRoot,
    PATH: `${FAKE_BIN}:${world.env.PATH}`,
    ...(world.env.DENO_DIR ? { DENO_DIR: world.env.DENO_DIR } : {}),
    NO_COLOR: "1",
    ...extra,
  };
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...assignments, ...lisa.map(shellQuote)].join(" ");
}

/**
 * Starts sshd for `world` (see the module doc). Returns a reason string instead when sshd
 * cannot run on this machine at all (the caller reports its tests as ignored, with the reason).
 */
export async function startSshd(
  world: SshWorld,
  options: SshdOptions = {},
): Promise<Sshd | string> {
  const missing = sshdMissing();
  if (missing !== null) return missing;
  const dir = `${world.base}/ssh`;
  await Deno.mkdir(dir, { mode: 0o700 });
  for (const key of ["host_key", "client_key"]) {
    const r = await run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", `${dir}/${key}`]);
    if (r.code !== 0) return `ssh-keygen failed: ${r.stderr}`;
  }
  await Deno.copyFile(`${dir}/client_key.pub`, `${dir}/authorized_keys`);
  await Deno.mkdir(`${dir}/login-home`);
  const user = (await run(["id", "-un"])).stdout.trim();
  const root = Deno.uid() === 0;
  const names = options.hosts ?? ["box1"];
  const remotes = new Map<string, RemoteLisa>();
  for (const name of names) {
    const base = `${world.base}/remote-${name}`;
    const r = {
      name,
      base,
      runtimeDir: `${base}/run`,
      socketDir: `${base}/sock`,
      home: `${base}/home`,
      projectRoot: `${base}/project`,
      historyDb: `${base}/home/history.db`,
    };
    await Deno.mkdir(r.runtimeDir, { recursive: true, mode: 0o700 });
    await Deno.chmod(r.runtimeDir, 0o700);
    await Deno.mkdir(r.socketDir, { mode: 0o700 });
    await Deno.mkdir(r.home);
    await Deno.mkdir(r.projectRoot);
    const shared = typeof options.remoteEnv === "function"
      ? options.remoteEnv({ name, base })
      : options.remoteEnv;
    const env = { ...shared, ...options.hostEnv?.[name] };
    remotes.set(name, { ...r, lisa: remoteCommand(r, world, env, options.lisaArgv ?? LISA_ARGV) });
  }
  let sshd: Deno.ChildProcess | null = null;
  let port = 0;
  const log = `${dir}/sshd.log`;
  const config = `${dir}/sshd_config`;
  // A port can be taken between the probe and sshd's bind: try a few.
  for (let attempt = 0; attempt < 5 && sshd === null; attempt++) {
    port = freePort();
    await Deno.writeTextFile(
      config,
      [
        `Port ${port}`,
        "ListenAddress 127.0.0.1",
        `HostKey ${dir}/host_key`,
        `PidFile ${dir}/sshd.pid`,
        `AuthorizedKeysFile ${dir}/authorized_keys`,
        "StrictModes no",
        "UsePAM no",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        `AllowUsers ${user}`,
        ...(root ? ["PermitRootLogin prohibit-password"] : []),
        "PermitUserEnvironment no",
        "X11Forwarding no",
        "AllowAgentForwarding no",
        "MaxSessions 64",
        "MaxStartups 64",
        "LogLevel VERBOSE",
        // The login shell's HOME is a temp dir too: the real HOME's shell start-up files (a
        // .bashrc that bash reads for ssh commands) are neither read nor timed.
        `SetEnv HOME=${dir}/login-home`,
        "",
      ].join("\n"),
    );
    await Deno.writeTextFile(log, "");
    const argv = sshdArgv(["-D", "-E", log, "-f", config]);
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const listening = await waitForLog(log, child, 10_000);
    if (listening === true) sshd = child;
    else {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      const status = await child.status;
      const stderr = decoder.decode(await readAll(child.stderr));
      const text = await Deno.readTextFile(log).catch(() => "");
      if (!/Address already in use|Bind to port/.test(text + stderr)) {
        return `sshd cannot run here (exit ${status.code}): ${(stderr + text).trim()}`;
      }
    }
  }
  if (sshd === null) return "sshd could not bind a free port";
  const child = sshd;
  // The client side: ssh config under the world's HOME, keys and known_hosts in the temp dir.
  const sshDir = `${world.home}/.ssh`;
  await Deno.mkdir(sshDir, { recursive: true, mode: 0o700 });
  const hostKey = (await Deno.readTextFile(`${dir}/host_key.pub`)).trim();
  await Deno.writeTextFile(`${sshDir}/known_hosts`, `[127.0.0.1]:${port} ${hostKey}\n`);
  const clientConfig = `${sshDir}/config`;
  await Deno.writeTextFile(
    clientConfig,
    [
      ...(options.extraConfig ? [options.extraConfig] : []),
      `Host ${names.join(" ")}`,
      "  HostName 127.0.0.1",
      `  Port ${port}`,
      `  User ${user}`,
      "",
      "Host *",
      `  IdentityFile ${dir}/client_key`,
      "  IdentitiesOnly yes",
      `  UserKnownHostsFile ${sshDir}/known_hosts`,
      "  GlobalKnownHostsFile /dev/null",
      "  StrictHostKeyChecking yes",
      "  PasswordAuthentication no",
      "",
    ].join("\n"),
  );
  const ssh = `${dir}/ssh`;
  await Deno.writeTextFile(
    ssh,
    `#!/bin/sh\nexec /usr/bin/ssh -F ${shellQuote(clientConfig)} "$@"\n`,
  );
  await Deno.chmod(ssh, 0o700);
  const hostsFile = `${world.home}/.config/lisa/hosts.json`;
  await Deno.mkdir(`${world.home}/.config/lisa`, { recursive: true });
  const entries = [
    ...[...remotes.values()].map((r) => ({ name: r.name, ssh: r.name, lisa: r.lisa })),
    ...(options.extraHosts ?? []),
  ];
  await Deno.writeTextFile(hostsFile, JSON.stringify({ hosts: entries }, null, 2) + "\n");
  await Deno.chmod(hostsFile, 0o600);
  const client = (args: string[]) => run([ssh, ...args]);
  const destinations = entries.map((e) => e.ssh);
  let stopped = false;
  return {
    port,
    dir,
    ssh,
    config: clientConfig,
    hostsFile,
    remotes,
    env: { LISA_SSH: ssh, LISA_HOSTS_FILE: hostsFile },
    async accepts() {
      const text = await Deno.readTextFile(log);
      return text.split("\n").filter((l) => l.startsWith("Connection from 127.0.0.1")).length;
    },
    log: () => Deno.readTextFile(log),
    client,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const dest of new Set(destinations)) {
        const path = controlPathFor(world.runtimeDir, dest);
        if (path === null || !existsSync(path)) continue;
        await client(["-O", "exit", "-o", `ControlPath=${path}`, dest]);
      }
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await child.stderr.cancel().catch(() => {});
    },
  };
}

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of stream) chunks.push(c);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** True once sshd logged that it listens; false when it exited or the time passed. */
async function waitForLog(log: string, child: Deno.ChildProcess, timeoutMs: number) {
  let exited = false;
  child.status.then(() => exited = true);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited) {
    const text = await Deno.readTextFile(log).catch(() => "");
    if (text.includes("Server listening on")) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
