/**
 * `lisa cleanup`: removes what lisa left behind and can prove stale, as planned by
 * `inventory/stale_files.ts` (which says what counts as stale). Cleanup never kills anything: it
 * only deletes files. History takes a gone session's hook and event files before they go; a hook
 * file it could not take stays for the next ingestion. A gone session's files are removed under
 * the project's spawn lock, and only those not replaced since they were listed: a spawn of the
 * name meanwhile keeps its own. `--dry-run` reports the same plan and changes nothing.
 */
import type { Deps } from "../../base/deps.ts";
import type { Runner } from "../../base/runner.ts";
import { fileIdentity } from "../../store/atomic.ts";
import { probeSocket } from "../../tmux/sessions.ts";
import { recordBeforeRemoval, recordKey } from "../history/mod.ts";
import { withSpawnLock } from "../session/mod.ts";
import {
  type CleanupPlan,
  type CleanupPlanOptions,
  type LiveSession,
  planCleanup,
} from "../inventory/mod.ts";

/** Options of {@link runCleanup}. */
export interface CleanupOptions extends CleanupPlanOptions {
  dryRun: boolean;
}

/** Removed or kept paths by kind. */
export interface CleanupPaths {
  sockets: string[];
  artifacts: string[];
  scripts: string[];
}

/** What cleanup did (or, with `dryRun`, would do). */
export interface CleanupReport {
  dryRun: boolean;
  removed: CleanupPaths;
  kept: CleanupPaths;
  liveSessions: LiveSession[];
  /** Sockets whose server could not be asked (not "no server"): nothing depending on them goes. */
  unknownSockets: { path: string; error: string }[];
  /** Files that could not be removed. */
  errors: { path: string; error: string }[];
}

/**
 * Removes the socket at `path` when no server answers on it and nobody replaced it meanwhile.
 * Returns true when it was removed. Never stops a server.
 */
export async function removeStaleSocket(
  runner: Runner,
  path: string,
  timeoutMs: number,
): Promise<boolean> {
  const id = fileIdentity(path);
  if (id === null) return false;
  if ((await probeSocket(runner, path, timeoutMs)).kind !== "stale") return false;
  if (fileIdentity(path) !== id) return false;
  try {
    Deno.removeSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the files of the plan's gone sessions (history takes what their hook and event files
 * say first), each session's under the project's spawn lock: no spawn of the name begins between
 * the look and the removal, and a file replaced since it was listed (a spawn of the name wrote
 * it while history waited for its database, say) is that session's and stays.
 */
async function removeGoneSessions(
  deps: Deps,
  plan: CleanupPlan,
  report: CleanupReport,
  remove: (path: string, kind: keyof CleanupPaths) => void,
): Promise<void> {
  const going = plan.goneSessions;
  const unrecorded = report.dryRun || going.length === 0
    ? new Set<string>()
    : (await recordBeforeRemoval(
      deps,
      going.map((g) => ({ runtimeDir: plan.runtimeDir, hash: g.hash, session: g.session })),
      "cleanup",
    )).unrecorded;
  for (const g of going) {
    // A hook file history could not take stays for the next ingestion.
    const keepHooks = unrecorded.has(recordKey(g));
    const sweep = () => {
      for (const path of g.files) {
        const replaced = !report.dryRun && fileIdentity(path) !== g.identities[path];
        if ((keepHooks && g.hookFiles.includes(path)) || replaced) {
          report.kept.artifacts.push(path);
        } else remove(path, "artifacts");
      }
      return Promise.resolve();
    };
    if (report.dryRun) {
      await sweep();
      continue;
    }
    try {
      await withSpawnLock(
        plan.runtimeDir,
        g.hash,
        `the files of session "${g.session}" were not removed`,
        sweep,
      );
    } catch (error) {
      for (const path of g.files) report.errors.push({ path, error: (error as Error).message });
    }
  }
}

/** Carries out `plan` (or, with `dryRun`, only reports it). Removal failures go to `errors`. */
async function applyPlan(deps: Deps, plan: CleanupPlan, dryRun: boolean): Promise<CleanupReport> {
  const report: CleanupReport = {
    dryRun,
    removed: { sockets: [], artifacts: [], scripts: [] },
    kept: { sockets: [...plan.keptSockets], artifacts: [...plan.keptArtifacts], scripts: [] },
    liveSessions: plan.liveSessions,
    unknownSockets: plan.unknownSockets,
    errors: [],
  };
  const remove = (path: string, kind: keyof CleanupPaths) => {
    if (!dryRun) {
      try {
        Deno.removeSync(path);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) {
          report.errors.push({ path, error: (error as Error).message });
          return;
        }
      }
    }
    report.removed[kind].push(path);
  };
  for (const { path, identity } of plan.staleSockets) {
    // A new server may have replaced the dead one's socket since the probe: keep it then.
    if (fileIdentity(path) === identity) remove(path, "sockets");
    else report.kept.sockets.push(path);
  }
  await removeGoneSessions(deps, plan, report, remove);
  plan.staleScripts.forEach((path) => remove(path, "scripts"));
  report.kept.scripts.push(...plan.keptScripts);
  plan.staleTemps.forEach((path) => remove(path, "artifacts"));
  for (const list of [report.removed, report.kept]) {
    list.sockets.sort();
    list.artifacts.sort();
    list.scripts.sort();
  }
  return report;
}

/**
 * Finds stale lisa sockets, artifacts and startup scripts in the runtime dir (and the socket
 * dir) and removes them unless `dryRun`. Kills nothing. Removal failures are reported in
 * `errors`, not thrown; throws only when the runtime dir is unsafe.
 */
export async function runCleanup(deps: Deps, options: CleanupOptions): Promise<CleanupReport> {
  return await applyPlan(deps, await planCleanup(deps, options), options.dryRun);
}
