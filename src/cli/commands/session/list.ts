/** `lisa session list`: the lisa sessions with their live states, as a table or JSON. */
import type { LisaContext } from "../../context.ts";
import { printList } from "../../list_render.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { listFlags } from "./list_spec.ts";
import {
  type FleetListResult,
  listAllHosts,
  type ListResult,
  listSessionsOf,
} from "../../../core/inventory/mod.ts";
import { UsageError } from "../../../base/errors.ts";
import { lazyImport } from "../../../base/lazy.ts";
import type { Deps } from "../../../base/deps.ts";
import { listCompat } from "./list_compat.ts";

type HistoryModule = typeof import("../../../core/history/mod.ts");

/**
 * `--wide`: each session's tokens so far, from this machine's history (loaded only then); a
 * row of another host (`--all-hosts`) has its tokens in that host's history: none here.
 */
async function withUsage(deps: LisaContext["deps"], result: ListResult): Promise<ListResult> {
  const { sessionsUsage } = await lazyImport<HistoryModule>(
    new URL("../../../core/history/mod.ts", import.meta.url),
  );
  const here = (s: ListResult["sessions"][number]) => !(s as { host?: unknown }).host;
  const local = result.sessions.filter(here);
  const usage = await sessionsUsage(
    deps,
    local.map((s) => ({ session: s.session, projectHash: s.projectHash })),
  );
  const of = new Map(local.map((s, i) => [s, usage[i]]));
  return { ...result, sessions: result.sessions.map((s) => ({ ...s, usage: of.get(s) ?? null })) };
}

/** `--all-hosts` with a flag that reads or keeps this machine's files only: refused. */
function checkAllHosts(flags: FlagsOf<typeof listFlags>): void {
  const local = [
    [flags.stale, "--stale"],
    [flags.prunePreview, "--prune-preview"],
    [flags.deltaJson, "--delta-json"],
    [flags.cursorFile !== undefined, "--cursor-file"],
  ] as const;
  for (const [given, name] of local) {
    if (given) {
      throw new UsageError(
        `${name} reads this machine's files only: it does not go with --all-hosts`,
        "conflicting_options",
      );
    }
  }
}

/**
 * The JSON of `list --all-hosts`: the list's own document (`compat`), its rows with `host`,
 * `sessions` named so that `--session` finds them (`HOST:name` for a host's), and `hosts[]`.
 */
function fleetJson(
  compat: Record<string, unknown>,
  result: FleetListResult,
): Record<string, unknown> {
  const rows = result.sessions;
  const items = Array.isArray(compat.items)
    ? compat.items.map((item, i) => ({ host: rows[i]?.host ?? null, ...item }))
    : compat.items;
  return {
    ...compat,
    sessions: rows.map((s) => s.host === null ? s.session : `${s.host}:${s.session}`),
    items,
    hosts: result.hosts,
  };
}

/** Each host that did not answer, as one line on stderr (the list still succeeds). */
function reportHosts(deps: Deps, result: FleetListResult): void {
  for (const h of result.hosts) {
    if (!h.ok) deps.io.err(`lisa: host ${h.name}: ${h.errorCode}: ${h.error}\n`);
  }
}

/** Prints the sessions (with --watch: redraws them in place until Ctrl-C). */
export default async function list(
  this: LisaContext,
  flags: FlagsOf<typeof listFlags>,
): Promise<void> {
  const deps = this.deps;
  const allHosts = flags.allHosts === true;
  if (allHosts) checkAllHosts(flags);
  const options = {
    projectRoot: flags.projectRoot,
    projectOnly: flags.projectOnly ?? false,
    allSockets: flags.allSockets ?? false,
    live: true,
  };
  const view = () => ({
    wide: flags.wide ?? false,
    hosts: allHosts,
    columns: deps.io.columns?.() ?? null,
    colour: !deps.io.noColor,
  });
  const fetch = async (): Promise<ListResult> => {
    if (!allHosts) return await listSessionsOf(deps, options);
    return await listAllHosts(deps, options);
  };
  const render = async (listed: ListResult) => {
    if (allHosts) reportHosts(deps, listed as FleetListResult);
    const result = flags.wide ? await withUsage(deps, listed) : listed;
    const compat = await listCompat(deps, result, flags);
    if (compat === null) printList(deps.io, result, flags.json ?? false, deps.now(), view());
    else if (compat.json) {
      printJson(
        deps.io,
        allHosts ? fleetJson(compat.json, result as FleetListResult) : compat.json,
      );
    } else {
      printList(deps.io, result, false, deps.now(), view());
      for (const line of compat.lines) deps.io.out(`${line}\n`);
    }
  };
  if (flags.watch === undefined) {
    await render(await fetch());
    return;
  }
  // --watch: redraw until Ctrl-C, SIGTERM (a terminal multiplexer or a supervisor ending it) or
  // a closed stdout; on a terminal the screen is cleared and the cursor hidden while drawing,
  // and restored on the way out, whichever of them ended it.
  const tty = deps.io.isTty && !flags.json;
  let stop = false;
  const onSignal = () => {
    stop = true;
  };
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  try {
    if (tty) deps.io.out("\x1b[?25l");
    while (!stop && !deps.io.outClosed) {
      const result = await fetch();
      if (tty) deps.io.out("\x1b[H\x1b[2J");
      await render(result);
      const until = Date.now() + flags.watch * 1000;
      while (!stop && Date.now() < until) await deps.sleep(Math.min(100, until - Date.now()));
    }
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
    if (tty) deps.io.out("\x1b[?25h");
  }
}
