/**
 * `lisa doctor`: what lisa needs and what it found. Exit 0 when tmux and at least one agent exist.
 */
import { type ConfigEntry, loadConfig } from "../../base/config.ts";
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { ensureRuntimeDir } from "../../store/runtime_dir.ts";

/** One external program. */
export interface ToolCheck {
  name: string;
  found: boolean;
  version: string | null;
  error?: string;
}

/** The doctor report. */
export interface DoctorReport {
  ok: boolean;
  tools: ToolCheck[];
  runtimeDir: { path: string; ok: boolean; error?: string };
  variables: ConfigEntry[];
  /** What is wrong, one sentence each ([] when `ok`). */
  problems: string[];
}

async function checkTool(deps: Deps, name: string, args: string[]): Promise<ToolCheck> {
  try {
    const r = await deps.runner.run([name, ...args], { allowFailure: true, timeoutMs: 10_000 });
    const text = (r.stdout.trim() || r.stderr.trim()).split("\n")[0] ?? "";
    if (!r.success) return { name, found: true, version: null, error: text || `exit ${r.code}` };
    return { name, found: true, version: text };
  } catch (error) {
    if (error instanceof LisaError && error.code === "program_not_found") {
      return { name, found: false, version: null };
    }
    return { name, found: false, version: null, error: (error as Error).message };
  }
}

/**
 * Checks tmux, claude, codex, the runtime dir and every variable; `problems` says what is
 * wrong. Never throws.
 */
export async function runDoctor(deps: Deps): Promise<DoctorReport> {
  const tools = await Promise.all([
    checkTool(deps, "tmux", ["-V"]),
    checkTool(deps, "claude", ["--version"]),
    checkTool(deps, "codex", ["--version"]),
  ]);
  const { entries } = loadConfig(deps.env, deps.uid);
  let runtimeDir: DoctorReport["runtimeDir"];
  try {
    ensureRuntimeDir(deps.config.runtimeDir, deps.uid);
    runtimeDir = { path: deps.config.runtimeDir, ok: true };
  } catch (error) {
    runtimeDir = { path: deps.config.runtimeDir, ok: false, error: (error as Error).message };
  }
  const [tmux, claude, codex] = tools;
  const problems: string[] = [];
  if (!tmux.found) problems.push("tmux is not on PATH");
  else if (tmux.version === null) problems.push(`tmux does not run: ${tmux.error}`);
  if (!claude.found && !codex.found) problems.push("neither claude nor codex is on PATH");
  if (!runtimeDir.ok) problems.push(runtimeDir.error ?? `runtime dir ${runtimeDir.path} is unsafe`);
  return { ok: problems.length === 0, tools, runtimeDir, variables: entries, problems };
}
