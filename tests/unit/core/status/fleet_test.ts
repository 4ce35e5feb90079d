/** The batch probe of `list`: one tmux invocation per server, parsed into panes and captures. */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { batchCommands, parseBatch } from "../../../../src/core/status/fleet.ts";
import { STATUS_PANE_FIELDS } from "../../../../src/core/status/gather.ts";

function row(fields: Record<string, string>): string {
  const all = ["window_active", "pane_active", ...STATUS_PANE_FIELDS];
  return all.map((f) => fields[f] ?? "").join("\x1f");
}

Deno.test("one batch lists every pane and captures each wanted session after a mark", () => {
  const cmds = batchCommands(["lisa-a", "lisa-b"]);
  strictEqual(cmds[0][0], "list-panes");
  ok(cmds[0].includes("-a"));
  deepStrictEqual(cmds.filter((c) => c[0] === "capture-pane").map((c) => c[4]), [
    "=lisa-a:",
    "=lisa-b:",
  ]);
});

Deno.test("parseBatch keeps each session's active pane and splits the captures", () => {
  const base = { window_active: "1", pane_active: "1", pane_pid: "10", pane_height: "2" };
  const stdout = [
    row({ ...base, session_name: "lisa-a", pane_title: "✳ Claude Code" }),
    row({ ...base, window_active: "0", session_name: "lisa-a", pane_pid: "99" }),
    row({ ...base, session_name: "lisa-b", pane_dead: "1", pane_dead_status: "3" }),
    "\x1e__LISA_CAPTURE__:lisa-a",
    "hello",
    "> ",
    "\x1e__LISA_CAPTURE__:lisa-b",
    "bye",
    "",
  ].join("\n");
  const { sessions, captures } = parseBatch(stdout);
  deepStrictEqual([...sessions.keys()], ["lisa-a", "lisa-b"]);
  strictEqual(sessions.get("lisa-a")!.panePid, 10);
  strictEqual(sessions.get("lisa-a")!.title, "✳ Claude Code");
  strictEqual(sessions.get("lisa-b")!.dead, true);
  strictEqual(sessions.get("lisa-b")!.deadStatus, 3);
  strictEqual(captures.get("lisa-a"), "hello\n> \n");
  strictEqual(captures.get("lisa-b"), "bye\n");
});
