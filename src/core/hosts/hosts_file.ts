/**
 * The hosts file: the other machines lisa may reach, `{"hosts": [{"name", "ssh", "lisa"}]}` at
 * `LISA_HOSTS_FILE`, else `${XDG_CONFIG_HOME:-~/.config}/lisa/hosts.json`. It decides where
 * lisa connects and what it runs there, so it is read strictly: a file with any problem (bad
 * JSON, a name that is not `^[a-z0-9][a-z0-9_-]*$`, a destination starting with `-`, an unknown
 * field, a file others may write) is refused as a whole (`hosts_file_invalid`), never half used.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError, UsageError } from "../../base/errors.ts";
import { checkHostName, HOST_NAME_RE } from "../../base/host_name.ts";

export { checkHostName, HOST_NAME_RE };

/** The remote command line when the file gives none. */
export const DEFAULT_REMOTE_LISA = "lisa";

/** One host of the file. */
export interface HostEntry {
  /** The name `--host` and `NAME:ALIAS` use. */
  name: string;
  /** The destination handed to ssh: an alias of the user's ssh config, or `user@host`. */
  ssh: string;
  /** The command line that runs lisa there, read by the remote shell (default `lisa`). */
  lisa: string;
}

/** The hosts file as read: its hosts, or the problems that make it unusable. */
export interface HostsFile {
  /** Where it is (null: no `LISA_HOSTS_FILE`, `XDG_CONFIG_HOME` or `HOME` to find it by). */
  path: string | null;
  exists: boolean;
  /** Empty when there are problems. */
  hosts: HostEntry[];
  /** Each problem as a sentence; empty when the file is fine (or absent). */
  problems: string[];
}

const FIELDS = new Set(["name", "ssh", "lisa"]);
// Control characters (a newline would end the remote command line early; NUL cannot be sent).
// deno-lint-ignore no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/** `text` as a hosts file: its hosts, or its problems (sentences naming the entry). Pure. */
export function parseHosts(text: string): { hosts: HostEntry[]; problems: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { hosts: [], problems: [`it is not JSON (${(error as Error).message})`] };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { hosts: [], problems: ['it must be an object: {"hosts": [...]}'] };
  }
  const list = (data as Record<string, unknown>).hosts;
  const problems: string[] = [];
  for (const key of Object.keys(data)) {
    if (key !== "hosts") problems.push(`unknown field "${key}" (only "hosts")`);
  }
  if (!Array.isArray(list)) {
    return { hosts: [], problems: [...problems, '"hosts" must be a list of hosts'] };
  }
  const hosts: HostEntry[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const where = `host ${i + 1}`;
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.push(`${where} must be an object with "name" and "ssh"`);
      return;
    }
    const entry = item as Record<string, unknown>;
    const before = problems.length;
    for (const key of Object.keys(entry)) {
      if (!FIELDS.has(key)) problems.push(`${where}: unknown field "${key}" (name, ssh, lisa)`);
    }
    const name = entry.name;
    if (typeof name !== "string" || !HOST_NAME_RE.test(name) || name.length > 64) {
      problems.push(
        `${where}: "name" must match ^[a-z0-9][a-z0-9_-]*$ (at most 64), got ${
          JSON.stringify(name ?? null)
        }`,
      );
    } else if (seen.has(name)) problems.push(`${where}: the name "${name}" is used twice`);
    const ssh = entry.ssh;
    if (
      typeof ssh !== "string" || ssh === "" || ssh.startsWith("-") || /\s/.test(ssh) ||
      CONTROL_RE.test(ssh)
    ) {
      problems.push(
        `${where}: "ssh" must be an ssh destination (an alias of ~/.ssh/config or user@host; ` +
          `no spaces, not starting with -), got ${JSON.stringify(ssh ?? null)}`,
      );
    }
    const lisa = entry.lisa ?? DEFAULT_REMOTE_LISA;
    if (typeof lisa !== "string" || lisa.trim() === "" || CONTROL_RE.test(lisa)) {
      problems.push(
        `${where}: "lisa" must be the command line that runs lisa there (one line), got ${
          JSON.stringify(entry.lisa)
        }`,
      );
    }
    if (problems.length > before) return;
    seen.add(name as string);
    hosts.push({ name: name as string, ssh: ssh as string, lisa: (lisa as string).trim() });
  });
  return problems.length > 0 ? { hosts: [], problems } : { hosts, problems };
}

/**
 * Reads the hosts file of `deps` (see the module doc). Never throws: a missing file is no
 * hosts; anything else wrong is in `problems`. The file must be the user's (or root's) and not
 * writable by group or other: whoever may edit it decides where lisa sends prompts.
 */
export function readHostsFile(deps: Pick<Deps, "config" | "uid">): HostsFile {
  const path = deps.config.hostsFile ?? null;
  if (path === null) return { path, exists: false, hosts: [], problems: [] };
  let text: string;
  try {
    const info = Deno.statSync(path);
    if (!info.isFile) {
      return { path, exists: true, hosts: [], problems: [`${path} is not a regular file`] };
    }
    if (info.uid !== null && info.uid !== deps.uid && info.uid !== 0) {
      return { path, exists: true, hosts: [], problems: [`${path} belongs to another user`] };
    }
    if (info.mode !== null && (info.mode & 0o022) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
      return {
        path,
        exists: true,
        hosts: [],
        problems: [`${path} is writable by group or other (mode ${mode}): chmod go-w it`],
      };
    }
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { path, exists: false, hosts: [], problems: [] };
    }
    return {
      path,
      exists: true,
      hosts: [],
      problems: [`${path} cannot be read: ${(error as Error).message}`],
    };
  }
  const parsed = parseHosts(text);
  return {
    path,
    exists: true,
    hosts: parsed.hosts,
    problems: parsed.problems.map((p) => `${path}: ${p}`),
  };
}

/** The hosts of the file; throws `hosts_file_invalid` when the file has problems. */
export function usableHosts(deps: Pick<Deps, "config" | "uid">): HostEntry[] {
  const file = readHostsFile(deps);
  if (file.problems.length > 0) {
    throw new LisaError(
      "hosts_file_invalid",
      `The hosts file cannot be used: ${file.problems.join("; ")}`,
      { details: { hostsFile: file.path, problems: file.problems } },
    );
  }
  return file.hosts;
}

/**
 * The host called `name`. Throws `invalid_host` (exit 1, before any ssh runs) for a name that
 * is not a host's name syntax or not in the file, and `hosts_file_invalid` for a broken file.
 */
export function hostNamed(deps: Pick<Deps, "config" | "uid">, name: string): HostEntry {
  checkHostName(name);
  const file = readHostsFile(deps);
  if (file.problems.length > 0) usableHosts(deps);
  const host = file.hosts.find((h) => h.name === name);
  if (host !== undefined) return host;
  const known = file.hosts.map((h) => h.name);
  throw new UsageError(
    file.path === null
      ? `No host "${name}": no hosts file (set LISA_HOSTS_FILE, or HOME for ` +
        "~/.config/lisa/hosts.json; see docs/many-machines.md)"
      : !file.exists
      ? `No host "${name}": there is no hosts file at ${file.path} (see docs/many-machines.md)`
      : `No host "${name}" in ${file.path}${
        known.length > 0 ? `; its hosts: ${known.join(", ")}` : " (it lists no hosts)"
      }`,
    "invalid_host",
    { host: name, hostsFile: file.path },
  );
}
