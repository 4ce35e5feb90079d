/** The list table for people: columns, order, colour, width. */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { listTable, renderList } from "../../../src/cli/list_render.ts";
import type { ListedSession, ListResult } from "../../../src/core/inventory/list.ts";

function row(p: Partial<ListedSession>): ListedSession {
  return {
    session: "lisa-x",
    alias: null,
    agent: "claude",
    mode: "interactive",
    projectRoot: "/p",
    projectHash: "00000000",
    createdAt: "2026-11-25T10:00:00.000Z",
    alive: true,
    state: "in_progress",
    status: "active",
    waitingFor: null,
    classificationReason: "agent_cpu_busy",
    exitCode: null,
    lastOutputAgeSeconds: 2,
    parentSession: null,
    socketPath: "/s",
    lost: false,
    ...p,
  };
}

const result = (sessions: ListedSession[], allSockets = false): ListResult => ({
  sessions,
  count: sessions.length,
  projectRoot: "/p",
  projectOnly: false,
  allSockets,
  lostCount: sessions.filter((s) => s.lost).length,
});

const NOW = new Date("2026-11-25T10:05:00.000Z");

Deno.test("sessions that need a person come first: permission, then input, then the rest", () => {
  const t = listTable(
    result([
      row({ session: "lisa-busy", alias: "p-busy" }),
      row({ session: "lisa-in", alias: "p-in", state: "waiting_input", waitingFor: "input" }),
      row({ session: "lisa-done", state: "completed", exitCode: 0, alive: false }),
      row({ session: "lisa-perm", state: "waiting_input", waitingFor: "permission" }),
    ]),
    NOW,
  );
  deepStrictEqual(t.headers, ["ALIAS", "STATE", "NEEDS", "AGENT/MODE", "AGE", "LAST OUTPUT"]);
  deepStrictEqual(t.rows.map((r) => r[0]), ["lisa-perm", "p-in", "p-busy", "lisa-done"]);
  deepStrictEqual(t.rows[0].slice(1, 4), ["waiting_input", "permission", "claude/interactive"]);
  strictEqual(t.rows[3][1], "completed 0");
  strictEqual(t.rows[2][2], "");
  strictEqual(t.rows[2][4], "5m ago");
});

Deno.test("--all-sockets adds PROJECT and --wide the tokens and the full name", () => {
  const usage = {
    inputTokens: 1200,
    outputTokens: 300,
    cacheReadTokens: 10_000,
    cacheWriteTokens: 0,
  };
  const t = listTable(
    result([row({ alias: "p-a", usage }), row({ alias: "p-b", usage: null })], true),
    NOW,
    { wide: true },
  );
  deepStrictEqual(t.headers.slice(-3), ["PROJECT", "TOKENS", "SESSION"]);
  deepStrictEqual(t.rows[0].slice(-3), ["/p", "11.5k", "lisa-x"]);
  strictEqual(t.rows[1].at(-2), "-");
});

Deno.test("colour only when asked; rows are cut to the terminal's width", () => {
  const r = result([row({ state: "waiting_input", waitingFor: "input" })]);
  ok(!renderList(r, NOW).includes("\x1b["));
  ok(renderList(r, NOW, { colour: true }).includes("\x1b[33m"));
  for (const line of renderList(r, NOW, { columns: 30 }).trimEnd().split("\n")) {
    ok(line.length <= 30, line);
  }
});

Deno.test("sessions tmux lost come last, and the table says how many were lost", () => {
  const lost = row({
    session: "lisa-gone",
    alias: "p-gone",
    state: "not_found",
    status: "not_found",
    classificationReason: "server_gone",
    alive: false,
    lost: true,
  });
  const r = result([lost, row({ alias: "p-busy" }), { ...lost, alias: "p-gone2" }]);
  deepStrictEqual(listTable(r, NOW).rows.map((x) => x[0]), ["p-busy", "p-gone", "p-gone2"]);
  const text = renderList(r, NOW);
  ok(
    text.endsWith(
      "2 sessions lost: tmux no longer has them (their server died, or they were closed outside lisa); lisa session prune --older-than 0s removes their files now (a plain prune, once a week has passed)\n",
    ),
    text,
  );
  ok(!renderList(result([row({})]), NOW).includes("lost"));
});
