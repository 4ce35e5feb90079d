/**
 * `session list --stale`: sessions whose metadata is still in the runtime dir but whose tmux
 * session is gone (the older Go lisa's `historicalCount`/`staleCount`), and with
 * `--prune-preview` what `lisa cleanup` would remove for them (a dry run: nothing changes).
 * A thin layer beside `list.ts`: it reads metas and asks for cleanup's plan (`stale_files.ts`).
 */
import type { Deps } from "../../base/deps.ts";
import { resolveProject, scanMetaFiles, shownAgent, tryReadMeta } from "../session/mod.ts";
import { planCleanup } from "./stale_files.ts";

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
    const plan = await planCleanup(deps, options.allProjects ? {} : { projectHash: project.hash });
    const names = new Set(stale.map((s) => s.session));
    const gone = plan.goneSessions.filter((g) => names.has(g.session) && g.files.length > 0);
    const files = gone.flatMap((g) => g.files).sort();
    const owners = new Set(gone.map((g) => g.session));
    report.prunePreview = {
      command: options.allProjects ? "lisa cleanup" : "lisa cleanup --project-only",
      sessions: stale.map((s) => s.session).filter((n) => owners.has(n)),
      files,
      count: files.length,
    };
  }
  return report;
}
