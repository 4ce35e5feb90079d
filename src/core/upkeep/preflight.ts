/**
 * `lisa session preflight`: an orchestrator's first step. The environment (doctor's checks:
 * tmux, an agent, the runtime dir) plus a self-check of the contracts an orchestrator written
 * for the older Go lisa relies on, run against this build's own code: mode aliases, the monitor
 * marker guard and exit codes, capture's delta forms, nested-hint routing. `--model` /
 * `--auto-model` are recorded, not probed: lisa never calls a model API itself (a wrong model
 * shows up as the agent's own error on its screen).
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import { parseMode } from "../../base/types.ts";
import { type DoctorReport, runDoctor } from "./doctor.ts";
import { monitorExitCode, monitorSession } from "../monitor/mod.ts";
import { detectNested } from "../spawn/mod.ts";
import { deltaTime, parseOffset } from "../capture/mod.ts";
import { resolveProject } from "../session/mod.ts";

/** Candidates `--auto-model` picks from when none are given (the older Go lisa's defaults). */
export const DEFAULT_MODEL_CANDIDATES = ["gpt-5.3-codex", "gpt-5-codex"];

/** One contract self-check. */
export interface ContractCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** Options of {@link runPreflight}. */
export interface PreflightOptions {
  projectRoot?: string;
  agent?: string;
  model?: string;
  autoModel?: boolean;
  autoModelCandidates?: readonly string[];
  /** Skip the programs' version probes (PATH lookup only). */
  fast?: boolean;
}

/** The preflight report. */
export interface PreflightReport {
  ok: boolean;
  /** `preflight_failed` when not ok, else null. */
  errorCode: string | null;
  projectRoot: string;
  environment: Pick<DoctorReport, "ok" | "tools" | "runtimeDir" | "problems">;
  contracts: { ok: boolean; checks: ContractCheck[] };
  model?: { name: string; source: "flag" | "auto"; probed: false; candidates?: string[] };
}

function check(name: string, fn: () => string | true): ContractCheck {
  try {
    const r = fn();
    return { name, ok: r === true, detail: r === true ? "ok" : r };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message };
  }
}

/** The contract self-checks (pure apart from one monitor call that must fail fast). */
export async function contractChecks(deps: Deps): Promise<ContractCheck[]> {
  const checks = [
    check(
      "mode_aliases",
      () =>
        parseMode("execution") === "exec" && parseMode("non-interactive") === "exec" ||
        "alias lost",
    ),
    check("monitor_exit_codes", () => {
      const want: [string, number][] = [
        ["completed", 0],
        ["waiting_input", 0],
        ["marker_found", 0],
        ["max_polls_exceeded", 2],
        ["crashed", 2],
        ["expected_terminal_got_waiting_input", 2],
      ];
      const bad = want.filter(([r, c]) => monitorExitCode(r) !== c);
      return bad.length === 0 || `wrong exit code for ${bad.map(([r]) => r).join(", ")}`;
    }),
    check("capture_delta_parsing", () => {
      const ok = parseOffset("0") !== undefined && deltaTime("@1700000000") === 1_700_000_000_000 &&
        deltaTime("2026-01-02T03:04:05Z") !== undefined && parseOffset("nonsense") === undefined;
      return ok || "a --delta-from form is not parsed as documented";
    }),
    check("nested_codex_hint_routing", () => {
      const yes = detectNested("codex", "exec", "Use ./LISA for child orchestration.");
      const no = detectNested("codex", "exec", "Use lisa inside of lisa inside as well.");
      const doc = detectNested("codex", "exec", "The string './lisa' appears in docs only.");
      return (yes.autoBypass && yes.reason === "prompt_contains_dot_slash_lisa" &&
        !no.autoBypass && no.reason === "no_nested_hint" && !doc.autoBypass) ||
        "nested hint routing differs from the contract";
    }),
  ];
  // --expect marker without --until-marker must be a usage error (exit 1) before any poll.
  let guard: ContractCheck;
  try {
    await monitorSession(deps, { session: "lisa-preflight-probe", expect: "marker", maxPolls: 1 });
    guard = { name: "monitor_marker_guard", ok: false, detail: "accepted --expect marker alone" };
  } catch (error) {
    const ok = error instanceof LisaError && error.exitCode === 1 && error.usage;
    guard = { name: "monitor_marker_guard", ok, detail: ok ? "ok" : String(error) };
  }
  return [...checks, guard];
}

function onPath(deps: Deps, name: string): boolean {
  for (const dir of (deps.env.PATH ?? "").split(":")) {
    if (dir === "") continue;
    try {
      const info = Deno.statSync(`${dir}/${name}`);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return true;
    } catch { /* not here */ }
  }
  return false;
}

/** Runs the preflight; never throws for a failed check (it is in the report). */
export async function runPreflight(
  deps: Deps,
  options: PreflightOptions,
): Promise<PreflightReport> {
  const project = resolveProject(deps, options.projectRoot);
  let environment: PreflightReport["environment"];
  if (options.fast) {
    const tools = ["tmux", "claude", "codex"].map((name) => ({
      name,
      found: onPath(deps, name),
      version: null,
    }));
    const problems: string[] = [];
    if (!tools[0].found) problems.push("tmux is not on PATH");
    if (!tools[1].found && !tools[2].found) problems.push("neither claude nor codex is on PATH");
    environment = {
      ok: problems.length === 0,
      tools,
      runtimeDir: { path: project.runtimeDir, ok: true },
      problems,
    };
  } else {
    const d = await runDoctor(deps);
    environment = { ok: d.ok, tools: d.tools, runtimeDir: d.runtimeDir, problems: d.problems };
  }
  if (options.agent !== undefined) {
    const tool = environment.tools.find((t) => t.name === options.agent);
    if (tool && !tool.found) {
      environment.problems.push(`${options.agent} is not on PATH`);
      environment.ok = false;
    }
  }
  const checks = await contractChecks(deps);
  const contracts = { ok: checks.every((c) => c.ok), checks };
  const ok = environment.ok && contracts.ok;
  const report: PreflightReport = {
    ok,
    errorCode: ok ? null : "preflight_failed",
    projectRoot: project.root,
    environment,
    contracts,
  };
  if (options.model !== undefined) {
    report.model = { name: options.model, source: "flag", probed: false };
  } else if (options.autoModel) {
    const candidates = [...(options.autoModelCandidates ?? DEFAULT_MODEL_CANDIDATES)];
    report.model = { name: candidates[0] ?? "", source: "auto", probed: false, candidates };
  }
  return report;
}
