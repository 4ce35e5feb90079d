/**
 * `session list --stale`: sessions whose metadata is still in the runtime dir but whose tmux
 * session is gone (the older Go lisa's `historicalCount`/`staleCount`), and with
 * `--prune-preview` what `lisa cleanup` would remove for them (a dry run: nothing changes).
 * A thin layer beside `list.ts`: it reads metas and asks cleanup for its plan.
 */
import type { Deps } from "../../base/deps.ts";
import { scanMetaFiles, shownAgent, tryReadMeta } from "../session/locate.ts";
import { resolveProject } from "../session/project.ts";
import { runCleanup } from "../upkeep/cleanup.ts";
import { baseName } from "../../base/paths.ts";
import { OUTPUT_ARTIFACT_RE, SESSION_ARTIFACT_RE } from "../../store/runtime_dir.ts";

/** The session an artifact path belongs to (by its exact name), or undefined. */
function sessionOfArtifact(path: string): string | undefined {
  const name = baseName(path);
  return (SESSION_ARTIFACT_RE.exec(name) ?? OUTPUT_ARTIFACT_RE.exec(name))?.[2];
}

/** One stale session (meta without a tmux session). */
export interface StaleSession {
  session: string;
  agent: string | null;
  mode: string | null;
  projectRoot: string | null;
  createdAt: string | null;
  projectHash: string;
}

/** The `--stale` part of `list`. */
export interface StaleReport {
  /** Sessions with metadata in scope (active or not). */
  historicalCount: number;
  staleCount: number;
  stale: StaleSession[];
  /** With `--prune-preview`: what `lisa cleanup` would remove now for the stale sessions. */
  prunePreview?: {
    command: string;
    sessions: string[];
    files: string[];
    count: number;
  };
}

/** Options of {@link staleReport}. */
export interface StaleOptions {
  projectRoot?: string;
  /** Every project's metadata (list --all-sockets), not only the current project's. */
  allProjects?: boolean;
  prunePreview?: boolean;
}

/**
 * Compares the metas in scope with `active` (the names tmux listed). Throws the project errors.
 */
export async function staleReport(
  deps: Deps,
  active: readonly string[],
  options: StaleOptions,
): Promise<StaleReport> {
  const project = resolveProject(deps, options.projectRoot);
  const live = new Set(active);
  const metas = scanMetaFiles(project.runtimeDir)
    .filter((m) => options.allProjects || m.hash === project.hash);
  const stale: StaleSession[] = [];
  for (const m of metas) {
    if (live.has(m.session)) continue;
    const meta = tryReadMeta(m.path);
    stale.push({
      session: m.session,
      agent: meta ? shownAgent(meta) : null,
      mode: meta?.mode ?? null,
      projectRoot: meta?.projectRoot ?? null,
      createdAt: meta?.createdAt ?? null,
      projectHash: m.hash,
    });
  }
  stale.sort((a, b) => (a.createdAt ?? "").localeCompare(b.createdAt ?? ""));
  const report: StaleReport = {
    historicalCount: new Set(metas.map((m) => `${m.hash}/${m.session}`)).size,
    staleCount: stale.length,
    stale,
  };
  if (options.prunePreview) {
    const plan = await runCleanup(deps, {
      dryRun: true,
      ...(options.allProjects ? {} : { projectHash: project.hash }),
    });
    const names = new Set(stale.map((s) => s.session));
    const files = plan.removed.artifacts.filter((path) => names.has(sessionOfArtifact(path) ?? ""));
    const owners = new Set(files.map(sessionOfArtifact));
    report.prunePreview = {
      command: options.allProjects ? "lisa cleanup" : "lisa cleanup --project-only",
      sessions: stale.map((s) => s.session).filter((n) => owners.has(n)),
      files,
      count: files.length,
    };
  }
  return report;
}
