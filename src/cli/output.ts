/**
 * Rendering helpers: one for `--json`, one for tables, one for relative ages.
 */
import type { Io } from "../base/io.ts";

/** Writes `payload` as one JSON line with `stderrPolicy: "diagnostic"`. */
export function printJson(io: Io, payload: Record<string, unknown>): void {
  io.out(JSON.stringify({ ...payload, stderrPolicy: "diagnostic" }) + "\n");
}

/** Renders rows as an aligned table with a header row. */
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
  return [line(headers), ...rows.map(line)].join("\n") + "\n";
}

/** "just now", "42s ago", "5m ago", "2h ago", "3d ago"; "-" for a time that is not one. */
export function relativeAge(from: Date, now: Date): string {
  if (Number.isNaN(from.getTime())) return "-";
  const s = Math.max(0, Math.floor((now.getTime() - from.getTime()) / 1000));
  if (s < 5) return "just now";
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

/** Writes an error: a JSON payload on stdout with `json`, else one line (and a hint) on stderr. */
export function writeError(
  io: Io,
  json: boolean,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
  usageHint?: string,
): void {
  if (json) printJson(io, { ok: false, errorCode: code, error: message, ...extra });
  else io.err(`lisa: ${message}\n${usageHint ? `${usageHint}\n` : ""}`);
}
