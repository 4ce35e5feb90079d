/**
 * Rendering of `lisa session list` (shared by the verb and its lean path): one JSON document,
 * or a table for people with relative ages.
 */
import type { Io } from "../base/io.ts";
import { printJson, relativeAge, renderTable } from "./output.ts";
import type { ListedSession, ListResult } from "../core/inventory/list.ts";

function stateCell(s: ListedSession): string {
  if (s.state !== null) return s.state;
  if (!s.alive) return s.exitCode === null ? "exited" : `exited ${s.exitCode}`;
  return "-";
}

/** Prints `result` as JSON (`json`) or as a table. */
export function printList(io: Io, result: ListResult, json: boolean, now: Date): void {
  if (json) {
    printJson(io, { ...result });
    return;
  }
  if (result.sessions.length === 0) {
    io.out("no lisa sessions\n");
    return;
  }
  const withProject = result.allSockets;
  const headers = ["SESSION", "AGENT", "MODE", "STATE", "AGE", ...(withProject ? ["PROJECT"] : [])];
  const rows = result.sessions.map((s) => [
    s.session,
    s.agent ?? "-",
    s.mode ?? "-",
    stateCell(s),
    relativeAge(new Date(s.createdAt), now),
    ...(withProject ? [s.projectRoot ?? "-"] : []),
  ]);
  io.out(renderTable(headers, rows));
}
