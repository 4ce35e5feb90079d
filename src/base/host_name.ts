/**
 * The name of another host, as `--host NAME` and `--session NAME:ALIAS` give it and the hosts
 * file declares it (`core/hosts`). Here, apart from the hosts domain, because the flag parsers
 * check it without loading anything of that domain (the status pre-parser reads every flag).
 */
import { UsageError } from "./errors.ts";

/** What a host's name may look like. */
export const HOST_NAME_RE = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * `name` when it has a host name's syntax; throws `invalid_host` otherwise, so that a value such
 * as `-oProxyCommand=…` is refused before anything reads the hosts file or runs ssh.
 */
export function checkHostName(name: string): string {
  if (!HOST_NAME_RE.test(name)) {
    throw new UsageError(
      `${JSON.stringify(name)} is not a host name: names in the hosts file match ` +
        "^[a-z0-9][a-z0-9_-]*$",
      "invalid_host",
      { host: name },
    );
  }
  return name;
}

/**
 * The host and the session of a `--session` value: `box1:brave-otter` → `["box1",
 * "brave-otter"]`; a value without `:` (session names and aliases have none) → `[null, value]`.
 * Throws `invalid_host` when the part before `:` is no host name.
 */
export function splitHostSession(value: string): [string | null, string] {
  const colon = value.indexOf(":");
  if (colon < 0) return [null, value];
  return [checkHostName(value.slice(0, colon)), value.slice(colon + 1)];
}
