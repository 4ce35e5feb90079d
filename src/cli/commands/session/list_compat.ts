/**
 * The older Go lisa's list contract, apart from the table so `list.ts` stays thin: JSON with
 * `sessions` (names) and `items` (rows), `--json-min`, `--with-next-action`, `--stale` with
 * `--prune-preview`, and `--delta-json --cursor-file`.
 */
import type { Deps } from "../../../base/deps.ts";
import { UsageError } from "../../../base/errors.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { listFlags } from "./list_spec.ts";
import { listDelta, type ListResult, staleReport } from "../../../core/inventory/mod.ts";
import { nextAction } from "../../../core/status/mod.ts";

/**
 * What to print instead of the plain table/JSON: a JSON payload, or extra text lines after the
 * table (`--stale`); null when none of the compatibility flags applies to text output.
 * Throws `cursor_file_requires_delta_json`.
 */
export async function listCompat(
  deps: Deps,
  result: ListResult,
  flags: FlagsOf<typeof listFlags>,
): Promise<{ json: Record<string, unknown> | null; lines: string[] } | null> {
  if (flags.cursorFile !== undefined && !flags.deltaJson) {
    throw new UsageError(
      "--cursor-file needs --delta-json",
      "cursor_file_requires_delta_json",
    );
  }
  const json = flags.json || flags.jsonMin || flags.deltaJson;
  if (!json && !flags.stale) return null;
  const stale = flags.stale || flags.prunePreview
    // Lost sessions are listed but not live: `stale` reports them as the metas tmux lost.
    ? await staleReport(deps, result.sessions.filter((s) => !s.lost).map((s) => s.session), {
      projectRoot: flags.projectRoot,
      allProjects: flags.allSockets,
      prunePreview: flags.prunePreview,
    })
    : undefined;
  if (!json) {
    const lines = [`stale: ${stale!.staleCount} of ${stale!.historicalCount} known session(s)`];
    for (const s of stale!.stale) lines.push(`  ${s.session} (${s.agent ?? "?"}, gone)`);
    if (stale!.prunePreview) {
      lines.push(
        `${stale!.prunePreview.command} would remove ${stale!.prunePreview.count} file(s)`,
      );
    }
    return { json: null, lines };
  }
  const withAction = flags.withNextAction === true;
  const items = result.sessions.map((s) => {
    const action = withAction && s.state !== null
      ? { nextAction: nextAction(s.state) }
      : withAction
      ? { nextAction: s.alive ? "check_status" : "capture_and_kill" }
      : {};
    return flags.jsonMin
      ? { session: s.session, state: s.state, alive: s.alive, exitCode: s.exitCode, ...action }
      : { ...s, ...action };
  });
  const names = result.sessions.map((s) => s.session);
  const staleFields = stale === undefined ? {} : flags.jsonMin
    ? {
      historicalCount: stale.historicalCount,
      staleCount: stale.staleCount,
      ...(stale.prunePreview ? { prunePreview: stale.prunePreview } : {}),
    }
    : { ...stale };
  const base = flags.jsonMin
    ? { sessions: names, items, count: result.count }
    : { ...result, sessions: names, items };
  const delta = flags.deltaJson
    ? {
      delta: listDelta(
        deps,
        result.sessions.map((s) => ({ session: s.session, state: s.state, alive: s.alive })),
        flags.cursorFile,
      ),
    }
    : {};
  return { json: { ...base, ...staleFields, ...delta }, lines: [] };
}
