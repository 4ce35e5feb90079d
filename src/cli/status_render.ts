/**
 * Rendering of a status report, shared by the full CLI verb and the lean fast path (so it must
 * not import commander or `node:*`).
 */
import type { StatusReport } from "../core/status/mod.ts";
import type { Io } from "../base/io.ts";
import { printJson } from "./output.ts";

/** How a status report is printed. */
export interface StatusPrintOptions {
  json?: boolean;
  jsonMin?: boolean;
}

/** The `--json-min` payload: what an orchestrator branches on. */
export function statusMin(report: StatusReport): Record<string, unknown> {
  return {
    session: report.session,
    status: report.status,
    sessionState: report.sessionState,
    classificationReason: report.classificationReason,
    exitCode: report.exitCode,
    waitingFor: report.waitingFor,
    ...(report.resetsAt !== undefined ? { resetsAt: report.resetsAt } : {}),
    ...(report.stall ? { stall: report.stall } : {}),
  };
}

/** Human-readable lines of a report (aligned `key  value`). */
export function statusText(report: StatusReport): string {
  const rows: [string, string][] = [
    ["session", report.session],
    ...(report.alias ? [["alias", report.alias] as [string, string]] : []),
    ["state", `${report.sessionState} (${report.classificationReason})`],
    ["status", report.status],
  ];
  if (report.waitingFor) rows.push(["waiting for", report.waitingFor]);
  if (report.resetsAt) rows.push(["resets at", report.resetsAt]);
  if (report.stall) {
    rows.push(["stalled", `no progress for ${report.stall.quietSeconds}s`]);
    for (const e of report.stall.evidence) rows.push(["", e]);
  }
  if (report.exitCode !== null) rows.push(["exit code", String(report.exitCode)]);
  if (report.agent) rows.push(["agent", `${report.agent}${report.mode ? ` ${report.mode}` : ""}`]);
  if (report.agentPid !== null) {
    const cpu = report.agentCpu === null ? "" : `, cpu ${report.agentCpu}%`;
    rows.push(["agent pid", `${report.agentPid}${cpu}`]);
  }
  rows.push(["pane", report.paneStatus]);
  if (report.paneCommand) rows.push(["pane command", report.paneCommand]);
  if (report.paneTitle) rows.push(["pane title", report.paneTitle]);
  if (report.heartbeatAgeSeconds !== null) {
    rows.push(["heartbeat", `${report.heartbeatAgeSeconds}s ago`]);
  }
  if (report.outputFile) rows.push(["output file", report.outputFile]);
  if (report.worktree) {
    rows.push(["worktree", `${report.worktree.path} (branch ${report.worktree.branch})`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join("\n") + "\n";
}

/** Prints `report` as JSON, compact JSON or text. */
export function printStatus(io: Io, report: StatusReport, options: StatusPrintOptions): void {
  if (options.jsonMin) printJson(io, statusMin(report));
  else if (options.json) printJson(io, { ...report });
  else io.out(statusText(report));
}

/** The exit code of a status call: 1 for not_found with `--fail-not-found`, else 0. */
export function statusExitCode(report: StatusReport, failNotFound: boolean): number {
  return failNotFound && report.sessionState === "not_found" ? 1 : 0;
}
