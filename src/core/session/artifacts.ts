/**
 * Removal of a session's runtime artifacts (spawn's stale reset, kill, kill-all). The event log
 * (and its lock) is always kept for post-mortems, the hook log when history has not ingested it
 * yet; everything else of the session goes: meta,
 * state, heartbeat, done, hooks, the last output capture, lock files and leftover startup
 * scripts. One directory listing per call.
 */
import { joinPath } from "../../base/paths.ts";
import { CMD_SCRIPT_RE, OUTPUT_ARTIFACT_RE, SESSION_ARTIFACT_RE } from "../../store/runtime_dir.ts";

/** Options of {@link removeSessionArtifacts}. */
export interface RemoveArtifactsOptions {
  /** Only artifacts of this project hash; all hashes when absent. */
  hash?: string;
  /** Leave this project hash's artifacts alone (spawn --cleanup-all-hashes: the others). */
  exceptHash?: string;
  /** Keep the hook log (and its lock): history could not ingest it yet. */
  keepHooks?: boolean;
  /** Remove nothing: return what would be removed (a dry run's list is the real one's). */
  dryRun?: boolean;
}

/**
 * The session and hash an artifact file name belongs to, unless it is an event log (or, with
 * `keepHooks`, a hook log).
 */
function ownerOf(name: string, keepHooks: boolean): { hash: string; session: string } | null {
  const artifact = SESSION_ARTIFACT_RE.exec(name);
  if (artifact) {
    if (artifact[3] === "events.jsonl") return null;
    if (keepHooks && artifact[3] === "hooks.jsonl") return null;
    return { hash: artifact[1], session: artifact[2] };
  }
  const output = OUTPUT_ARTIFACT_RE.exec(name);
  if (output) return { hash: output[1], session: output[2] };
  const script = CMD_SCRIPT_RE.exec(name);
  if (script) return { hash: script[1], session: script[2] };
  return null;
}

/**
 * Removes the artifacts of `session` in `runtimeDir` (of one hash, or of every hash), keeping
 * its event log (and its hook log with `keepHooks`). Best effort: a file that cannot be removed
 * is skipped. Returns removed paths (with `dryRun`, the paths it would remove).
 */
export function removeSessionArtifacts(
  runtimeDir: string,
  session: string,
  options: RemoveArtifactsOptions = {},
): string[] {
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(runtimeDir)];
  } catch {
    return removed;
  }
  for (const entry of entries) {
    const owner = ownerOf(entry.name, options.keepHooks === true);
    if (owner === null || owner.session !== session) continue;
    if (options.hash !== undefined && owner.hash !== options.hash) continue;
    if (options.exceptHash !== undefined && owner.hash === options.exceptHash) continue;
    const path = joinPath(runtimeDir, entry.name);
    if (options.dryRun) {
      removed.push(path);
      continue;
    }
    try {
      Deno.removeSync(path);
      removed.push(path);
    } catch { /* gone already, or not removable: best effort */ }
  }
  return removed;
}
