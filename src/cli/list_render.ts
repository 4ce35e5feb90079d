/**
 * Rendering of `lisa session list`: one JSON document, or the table for people — ALIAS, STATE,
 * NEEDS, AGENT/MODE, AGE, LAST OUTPUT (and HOST first with `--all-hosts`, PROJECT with
 * `--all-sockets`, TOKENS and SESSION with `--wide`), the sessions that need a person first,
 * colour only on a terminal without
 * `NO_COLOR`, cut to the terminal's width.
 */
import type { Io } from "../base/io.ts";
import { printJson, relativeAge, renderTable } from "./output.ts";
import type { ListedSession, ListResult } from "../core/inventory/mod.ts";
import { formatTokens } from "./commands/history/format.ts";

/** How the table is drawn. */
export interface ListView {
  wide?: boolean;
  /** A HOST column first (`list --all-hosts`): each row's host, `(local)` for this machine. */
  hosts?: boolean;
  /** Terminal width (null: no limit). */
  columns?: number | null;
  colour?: boolean;
}

function stateCell(s: ListedSession): string {
  if (s.state !== null) {
    return s.exitCode !== null && (s.state === "completed" || s.state === "crashed")
      ? `${s.state} ${s.exitCode}`
      : s.state;
  }
  if (!s.alive) return s.exitCode === null ? "exited" : `exited ${s.exitCode}`;
  return "-";
}

/** Sort rank: permission first, then input, then the rest; sessions tmux lost last. */
function urgency(s: ListedSession): number {
  if (s.state === "waiting_input") return s.waitingFor === "permission" ? 0 : 1;
  if (s.state === "crashed" || s.state === "stuck") return 2;
  return s.state === "not_found" ? 4 : 3;
}

function seconds(s: number | null): string {
  if (s === null) return "-";
  return relativeAge(new Date(0), new Date(s * 1000));
}

const COLOURS: Record<string, string> = {
  waiting_input: "\x1b[33m",
  in_progress: "\x1b[32m",
  just_started: "\x1b[36m",
  crashed: "\x1b[31m",
  stuck: "\x1b[31m",
  degraded: "\x1b[35m",
};

/** The table rows (headers first), sorted for people. Pure. */
export function listTable(
  result: ListResult,
  now: Date,
  view: ListView = {},
): { headers: string[]; rows: string[][]; states: string[] } {
  const withProject = result.allSockets;
  const headers = [
    ...(view.hosts ? ["HOST"] : []),
    "ALIAS",
    "STATE",
    "NEEDS",
    "AGENT/MODE",
    "AGE",
    "LAST OUTPUT",
    ...(withProject ? ["PROJECT"] : []),
    ...(view.wide ? ["TOKENS", "SESSION"] : []),
  ];
  const sorted = [...result.sessions].sort((a, b) => urgency(a) - urgency(b));
  const rows = sorted.map((s) => [
    ...(view.hosts ? [(s as { host?: string | null }).host ?? "(local)"] : []),
    s.alias ?? s.session,
    stateCell(s),
    s.state === "waiting_input" ? s.waitingFor ?? "input" : "",
    `${s.agent ?? "-"}/${s.mode ?? "-"}`,
    relativeAge(new Date(s.createdAt), now),
    seconds(s.lastOutputAgeSeconds),
    ...(withProject ? [s.projectRoot ?? "-"] : []),
    ...(view.wide ? [formatTokens(s.usage ?? null), s.session] : []),
  ]);
  return { headers, rows, states: sorted.map((s) => s.state ?? "") };
}

/** The table as text (see the module doc). Pure. */
export function renderList(result: ListResult, now: Date, view: ListView = {}): string {
  if (result.sessions.length === 0) return "no lisa sessions\n";
  const { headers, rows, states } = listTable(result, now, view);
  const lines = renderTable(headers, rows).split("\n");
  const out = lines.map((line, i) => {
    let text = line;
    if (view.columns && text.length > view.columns) {
      text = text.slice(0, Math.max(1, view.columns - 1)) + "…";
    }
    const colour = i > 0 ? COLOURS[states[i - 1]] : undefined;
    if (view.colour && i === 0 && text !== "") return `\x1b[1m${text}\x1b[0m`;
    return view.colour && colour && text !== "" ? `${colour}${text}\x1b[0m` : text;
  });
  const text = out.join("\n");
  const lost = result.lostCount;
  if (lost === 0) return text;
  // Said, not only shown: a row per lost session is easy to miss among live ones.
  const [them, their, they] = lost === 1 ? ["it", "its", "it was"] : ["them", "their", "they were"];
  return `${text}${lost} session${lost === 1 ? "" : "s"} lost: tmux no longer has ${them} ` +
    `(${their} server died, or ${they} closed outside lisa); lisa session prune --older-than 0s ` +
    `removes ${their} files now (a plain prune, once a week has passed)\n`;
}

/** Prints `result` as JSON (`json`) or as a table. */
export function printList(
  io: Io,
  result: ListResult,
  json: boolean,
  now: Date,
  view: ListView = {},
): void {
  if (json) {
    printJson(io, { ...result });
    return;
  }
  io.out(renderList(result, now, view));
}
