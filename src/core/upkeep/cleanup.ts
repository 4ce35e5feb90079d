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
import { tryReadMeta, withSpawnLock } from "../session/mod.ts";
import { sessionPaths } from "../../store/runtime_dir.ts";
import {
  type CleanupPlan,
  type CleanupPlanOptions,
  type GoneSession,
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
 * Removes the files of the plan's gone sessions, a project's under its spawn lock: no spawn of
 * a name begins between the look and the removal. History takes what their hook and event files
 * say first, under the same lock: a spawn of the name landing earlier would otherwise have its
 * new run ingested and closed as `cleanup`. A session with a file replaced since it was listed
 * (a spawn of the name wrote it) is another run's now: history leaves it to that run, and the
 * replaced files stay.
 */
async function removeGoneSessions(
  deps: Deps,
  plan: CleanupPlan,
  report: CleanupReport,
  remove: (path: string, kind: keyof CleanupPaths) => void,
): Promise<void> {
  const byHash = new Map<string, GoneSession[]>();
  for (const g of plan.goneSessions) byHash.set(g.hash, [...(byHash.get(g.hash) ?? []), g]);
  for (const [hash, going] of byHash) {
    const removeAll = async () => {
      // Looked at once, under the lock and before history reads them: history's own note on a
      // hook log's lock file is no replacement.
      const replaced = new Set(
        going.flatMap((g) => g.files.filter((p) => fileIdentity(p) !== g.identities[p])),
      );
      if (report.dryRun) replaced.clear();
      const still = going.filter((g) => !g.files.some((p) => replaced.has(p)));
      const unrecorded = report.dryRun || still.length === 0 ? new Set<string>() : (
        await recordBeforeRemoval(deps, still.map((g) => recordOf(plan.runtimeDir, g)), "cleanup")
      ).unrecorded;
      for (const g of going) {
        // A hook file history could not take stays for the next ingestion.
        const keepHooks = unrecorded.has(recordKey(g));
        for (const path of g.files) {
          if ((keepHooks && g.hookFiles.includes(path)) || replaced.has(path)) {
            report.kept.artifacts.push(path);
          } else remove(path, "artifacts");
        }
      }
    };
    if (report.dryRun) {
      await removeAll();
      continue;
    }
    try {
      await withSpawnLock(
        plan.runtimeDir,
        hash,
        `the files of ${going.map((g) => `"${g.session}"`).join(", ")} were not removed`,
        removeAll,
      );
    } catch (error) {
      for (const g of going) {
        for (const path of g.files) report.errors.push({ path, error: (error as Error).message });
      }
    }
  }
}

/** What history records of gone session `g`: its files, and the run its meta names. */
function recordOf(runtimeDir: string, g: GoneSession) {
  const meta = tryReadMeta(sessionPaths(runtimeDir, g.hash, g.session).meta);
  return { runtimeDir, hash: g.hash, session: g.session, runId: meta?.runId ?? null };
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
