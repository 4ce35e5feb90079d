/**
 * Whether a session verb's call names another host: `--host`, or `NAME:` before the session
 * (`--session`, `--for`, an entry of `--sessions`, or the session argument). Session names and
 * aliases hold no `:`. Apart from `remote.ts` so the command line and the MCP server can ask
 * without loading the ssh code for a local call.
 */

/** True when `args` (the verb's flags, then its positionals) name a host (see module doc). */
export function namesHost(route: string, args: readonly unknown[]): boolean {
  if (!route.startsWith("session ")) return false;
  const flags = (args[0] ?? {}) as Record<string, unknown>;
  const prefixed = (v: unknown) => typeof v === "string" && v.includes(":");
  return flags.host !== undefined || prefixed(flags.session) || prefixed(flags.for) ||
    (Array.isArray(flags.sessions) && flags.sessions.some(prefixed)) || prefixed(args[1]);
}
