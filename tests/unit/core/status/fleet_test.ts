/** The batch probe of `list`: one tmux invocation per server, parsed into panes and captures. */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  batchCommands,
  paneOf,
  parseBatch,
  type SocketReading,
} from "../../../../src/core/status/fleet.ts";
import { STATUS_PANE_FIELDS } from "../../../../src/core/status/gather.ts";

function row(fields: Record<string, string>): string {
  const all = [
    "window_index",
    "window_id",
    "pane_id",
    "pane_at_top",
    "pane_at_left",
    ...STATUS_PANE_FIELDS,
  ];
  return all.map((f) => fields[f] ?? "").join("\x1f");
}

Deno.test("one batch lists every pane and captures each wanted session's own pane after a mark", () => {
  const cmds = batchCommands([
    { session: "lisa-a", ids: { windowId: "@0", paneId: "%0" } },
    { session: "lisa-b" },
  ]);
  strictEqual(cmds[0][0], "list-panes");
  ok(cmds[0].includes("-a"));
  deepStrictEqual(cmds.filter((c) => c[0] === "capture-pane").map((c) => c[4]), [
    "=lisa-a:.%0",
    "=lisa-b:^.{top-left}",
  ]);
});

const AGENT = { window_index: "0", window_id: "@0", pane_id: "%0", pane_at_top: "1" };
const base = { ...AGENT, pane_at_left: "1", pane_pid: "10", pane_height: "2" };

Deno.test("parseBatch keeps every pane, each session's first pane, and splits the captures", () => {
  const stdout = [
    // A window opened later in lisa-a (a person's attach, the agent's own tmux call), which
    // tmux now calls the active one: it must never stand for the session's pane.
    row({ ...base, window_index: "1", window_id: "@5", pane_id: "%5", session_name: "lisa-a" }),
    row({ ...base, session_name: "lisa-a", pane_title: "✳ Claude Code" }),
    row({ ...base, window_id: "@1", pane_id: "%1", session_name: "lisa-b", pane_dead: "1" }),
    "\x1e__LISA_CAPTURE__:lisa-a",
    "hello",
    "> ",
    "\x1e__LISA_CAPTURE__:lisa-b",
    "bye",
    "",
  ].join("\n");
  const { sessions, panes, captures } = parseBatch(stdout, [
    { session: "lisa-a", ids: { windowId: "@0", paneId: "%0" } },
    { session: "lisa-b" },
  ]);
  deepStrictEqual([...sessions.keys()], ["lisa-a", "lisa-b"]);
  strictEqual(sessions.get("lisa-a")!.title, "✳ Claude Code");
  strictEqual(sessions.get("lisa-b")!.dead, true);
  deepStrictEqual([...panes.keys()], ["%5", "%0", "%1"]);
  deepStrictEqual(captures.get("lisa-a"), { paneId: "%0", text: "hello\n> \n" });
  // No ids: the capture read the session's first pane.
  deepStrictEqual(captures.get("lisa-b"), { paneId: "%1", text: "bye\n" });
});

Deno.test("paneOf reads a session at its own pane, with a capture of that pane only", () => {
  const stdout = [
    row({ ...base, session_name: "lisa-a", pane_pid: "10" }),
    row({ ...base, window_index: "1", window_id: "@5", pane_id: "%5", session_name: "lisa-a" }),
    "\x1e__LISA_CAPTURE__:lisa-a",
    "first pane",
    "",
  ].join("\n");
  const parsed = parseBatch(stdout, [{ session: "lisa-a" }]);
  const reading: SocketReading = {
    socketPath: "/s",
    reachable: true,
    serverGone: false,
    ...parsed,
  };
  const own = paneOf(reading, "lisa-a", { windowId: "@0", paneId: "%0" });
  strictEqual(own.probe.exists, true);
  strictEqual(own.captured, true);
  strictEqual(own.probe.rawCapture, "first pane\n");
  // The agent in the second window: its pane, and no capture (the batch read another pane).
  const second = paneOf(reading, "lisa-a", { windowId: "@5", paneId: "%5" });
  strictEqual(second.probe.exists, true);
  strictEqual(second.captured, false);
  // Ids of a pane that is gone, or of another session's pane, are no pane at all.
  strictEqual(paneOf(reading, "lisa-a", { windowId: "@9", paneId: "%9" }).probe.exists, false);
  strictEqual(paneOf(reading, "lisa-b", { windowId: "@0", paneId: "%0" }).probe.exists, false);
  // The agent's pane moved to another window of its session (break-pane) is still its pane.
  strictEqual(paneOf(reading, "lisa-a", { windowId: "@5", paneId: "%0" }).probe.exists, true);
});
