import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { buildStartupScript, HEARTBEAT_ARGV0 } from "../../../../src/core/spawn/startup_script.ts";
import {
  HEARTBEAT_PROCESS_NAME,
  inspectProcesses,
  isStepping,
  movedBetween,
  parseDoneFile,
  parseProbe,
  screenHash,
  statusTmuxCommands,
  visibleScreen,
  withoutAdopted,
  withoutHeartbeat,
} from "../../../../src/core/status/gather.ts";
import type { ProcInfo } from "../../../../src/proc/table.ts";

const SEP = "\x1f";
const NONE = { any: [], claude: [], codex: [] };

function proc(pid: number, ppid: number, name: string, argv: string[], state = "S"): ProcInfo {
  return { pid, ppid, pgid: pid, sid: 1, state, name, argv, ticks: 0, startTime: pid };
}

/** A lisa pane: wrapper 100, heartbeat 101 with its sleep 102, then `rest`. */
function pane(...rest: ProcInfo[]): ProcInfo[] {
  return [
    proc(100, 1, "bash", ["bash", "/run/lisa-cmd-x.sh"]),
    proc(101, 100, "bash", ["lisa-heartbeat", "-c", "loop", "lisa-heartbeat", "100"]),
    proc(102, 101, "sleep", ["sleep", "2"]),
    ...rest,
  ];
}

function inspect(procs: ProcInfo[]) {
  return inspectProcesses(procs, 100, NONE, "claude", (a) => a === "claude" ? ["caffeinate"] : []);
}

Deno.test("status chains the capture and the pane facts in one tmux invocation", () => {
  const cmds = statusTmuxCommands("lisa-a", 260, { windowId: "@1", paneId: "%2" });
  deepStrictEqual(cmds[0], ["capture-pane", "-p", "-J", "-t", "=lisa-a:.%2", "-S", "-260"]);
  strictEqual(cmds[1][0], "display-message");
  strictEqual(cmds[1][3], "=lisa-a:.%2");
  strictEqual(cmds.length, 2);
});

Deno.test("the probe splits the capture from the facts line, title last", () => {
  const facts = [
    ...["0", "", "", "4242", "4000", "1700000000", "1700000042", "3", "2", "120", "50000", "1"],
    ...["claude", "lisa-a", "⠐ Claude Code"],
  ].join(SEP);
  const p = parseProbe({
    success: true,
    code: 0,
    stdout: `line one\nline two\n\n${facts}\n`,
    stderr: "",
  }, "lisa-a");
  strictEqual(p.exists, true);
  strictEqual(p.dead, false);
  strictEqual(p.deadStatus, null);
  strictEqual(p.panePid, 4242);
  strictEqual(p.serverPid, 4000);
  strictEqual(p.createdAtSeconds, 1700000000);
  strictEqual(p.lastOutputSeconds, 1700000042);
  strictEqual(p.height, 3);
  deepStrictEqual([p.cursorY, p.historySize, p.historyLimit], [2, 120, 50000]);
  strictEqual(p.alternateOn, true);
  strictEqual(p.title, "⠐ Claude Code");
  strictEqual(p.rawCapture, "line one\nline two\n\n");
});

Deno.test("a dead pane's status and signal are parsed, empty ones are null", () => {
  const line = (st: string, sig: string) =>
    ["1", st, sig, "1", "2", "3", "3", "24", "0", "0", "2000", "0", "bash", "lisa-a", "t"].join(
      SEP,
    ) +
    "\n";
  const p = parseProbe({ success: true, code: 0, stdout: line("3", ""), stderr: "" }, "lisa-a");
  strictEqual(p.dead, true);
  strictEqual(p.deadStatus, 3);
  strictEqual(p.deadSignal, null);
  const lost = parseProbe({ success: true, code: 0, stdout: line("", ""), stderr: "" }, "lisa-a");
  strictEqual(lost.deadStatus, null);
  strictEqual(
    parseProbe({ success: true, code: 0, stdout: line("", "9"), stderr: "" }, "lisa-a").deadSignal,
    9,
  );
});

Deno.test("a missing session or server is exists=false; other tmux failures throw", () => {
  const fail = (stderr: string) => ({ success: false, code: 1, stdout: "", stderr });
  strictEqual(parseProbe(fail("can't find session: lisa-x"), "lisa-x").exists, false);
  strictEqual(parseProbe(fail("no server running on /tmp/s.sock"), "lisa-x").exists, false);
  strictEqual(
    parseProbe(fail("error connecting to /tmp/s.sock (No such file or directory)"), "lisa-x")
      .exists,
    false,
  );
  throws(() => parseProbe(fail("server version is too old"), "lisa-x"), /tmux failed/);
});

Deno.test("a facts row that names no session or another one is no pane", () => {
  const row = (name: string) =>
    ["0", "", "", "7", "2", "3", "3", "24", "0", "0", "2000", "0", "bash", name, "t"].join(SEP);
  const probe = (stdout: string, session: string) =>
    parseProbe({ success: true, code: 0, stdout, stderr: "" }, session);
  // What tmux 3.3a's display-message prints for a target it cannot find: empty fields, exit 0.
  strictEqual(probe(`${Array(14).fill("").join(SEP)}\n`, "lisa-w-1").exists, false);
  strictEqual(probe(`${row("lisa-w-10")}\n`, "lisa-w-1").exists, false);
  strictEqual(probe(`${row("lisa-w-1")}\n`, "lisa-w-1").exists, true);
});

Deno.test("a missing server is told apart from a missing session", () => {
  const fail = (stderr: string) => ({ success: false, code: 1, stdout: "", stderr });
  strictEqual(parseProbe(fail("can't find session: lisa-x"), "lisa-x").serverGone, false);
  strictEqual(parseProbe(fail("no server running on /tmp/s.sock"), "lisa-x").serverGone, true);
  strictEqual(
    parseProbe(fail("error connecting to /tmp/s.sock (Connection refused)"), "lisa-x").serverGone,
    true,
  );
});

Deno.test("the visible screen is the last pane-height rows of the capture", () => {
  strictEqual(visibleScreen("old\na\nb  \nc\n", 3), "a\nb\nc");
  strictEqual(visibleScreen("a\nb\n", 0), "a\nb");
  strictEqual(visibleScreen("a\n\n\n", 3), "a");
});

Deno.test("the screen hash changes with the text", () => {
  strictEqual(screenHash("abc"), screenHash("abc"));
  strictEqual(screenHash("abc") === screenHash("abd"), false);
  strictEqual(screenHash("").length, 8);
});

Deno.test("status knows the heartbeat by the name the startup script gives it", () => {
  strictEqual(HEARTBEAT_PROCESS_NAME, HEARTBEAT_ARGV0);
});

Deno.test("the heartbeat process and its sleep are never work", () => {
  deepStrictEqual(withoutHeartbeat(pane()).map((p) => p.pid), [100]);
  const v = inspect(pane());
  strictEqual(v.found, null);
  deepStrictEqual(v.commandProcesses, []);
});

Deno.test("the startup script deleting itself is not the session's work; a user's rm is", () => {
  const own = inspect(pane(proc(110, 100, "rm", ["rm", "-f", "--", "/run/lisa-cmd-x.sh"])));
  deepStrictEqual(own.commandProcesses, []);
  const exiting = inspect(pane(proc(110, 100, "rm", [])));
  deepStrictEqual(exiting.commandProcesses, []);
  const user = inspect(pane(proc(110, 100, "rm", ["rm", "-rf", "--", "/big/tree"])));
  deepStrictEqual(user.commandProcesses, ["rm"]);
});

Deno.test("the startup script deletes itself exactly as status expects", () => {
  const script = buildStartupScript({
    session: "lisa-t",
    runId: "r",
    projectRoot: "/p",
    callerEnv: {},
    lisaEnv: {},
    heartbeatFile: "/h",
    doneFile: "/d",
    command: { argv: ["true"] },
  });
  ok(script.includes('\nrm -f -- "$0"\n'), script);
  // bash ≥ 5 dates the start marker itself: no `date` child in the pane's first milliseconds.
  ok(script.includes('"${EPOCHSECONDS:-$(date +%s)}"'), script);
});

Deno.test("a command's processes count; shells do not unless running", () => {
  const v = inspect(pane(
    proc(110, 100, "bash", ["bash", "-c", "make test"]),
    proc(111, 110, "make", ["make", "test"]),
    proc(112, 111, "sh", ["sh", "-c", "x"], "Z"),
  ));
  deepStrictEqual(v.commandProcesses, ["make"]);
  // The root (lisa's wrapper) is never sampled: the command always runs below it.
  deepStrictEqual(v.sampled.map((p) => p.pid), [110, 111]);
  const loop = inspect(pane(proc(110, 100, "bash", ["bash", "-c", "while :; do :; done"], "R")));
  deepStrictEqual(loop.commandProcesses, []);
  deepStrictEqual(loop.sampled.map((p) => p.pid), [110]);
});

Deno.test("a script between two commands is stepping; a shell blocked for good is not", () => {
  const script = ["bash", "-c", "for i in $(seq 400); do /bin/true; /bin/sleep 0.01; done"];
  // Seen between `true` and `sleep`: the shell runs (it forks), its child has not exec'd yet,
  // or `true` has ended and waits to be reaped. No other process shows at such a moment.
  for (
    const moment of [
      [proc(110, 100, "bash", script, "R")],
      [proc(110, 100, "bash", script), proc(111, 110, "bash", script, "R")],
      [proc(110, 100, "bash", script), proc(111, 110, "true", ["/bin/true"], "Z")],
    ]
  ) {
    const v = inspect(pane(...moment));
    deepStrictEqual(v.commandProcesses, []);
    strictEqual(v.commandStepping, true, JSON.stringify(moment));
  }
  // Blocked opening a FIFO (`read line < hold.fifo`), or a forked child blocked there
  // (`cat < hold.fifo` before its exec): sleeping shells only.
  const fifo = inspect(pane(proc(110, 100, "bash", ["bash", "-c", "read line < hold.fifo"])));
  strictEqual(fifo.commandStepping, false);
  const forked = inspect(pane(
    proc(110, 100, "bash", ["bash", "-c", "cat < hold.fifo; echo"]),
    proc(111, 110, "bash", ["bash", "-c", "cat < hold.fifo; echo"]),
  ));
  strictEqual(forked.commandStepping, false);
  // The wrapper's own running and the heartbeat's moments are not the command's.
  const wrapper = inspect([
    proc(100, 1, "bash", ["bash", "/run/lisa-cmd-x.sh"], "R"),
    proc(101, 100, "bash", ["lisa-heartbeat", "-c", "loop", "lisa-heartbeat", "100"], "R"),
    proc(102, 101, "sleep", ["sleep", "2"], "Z"),
    proc(110, 100, "bash", ["bash", "-c", "read line < hold.fifo"]),
  ]);
  strictEqual(wrapper.commandStepping, false);
  strictEqual(inspect(pane(proc(110, 100, "claude", ["claude"], "R"))).commandStepping, false);
  strictEqual(isStepping([proc(110, 100, "make", ["make"], "R")]), false);
});

Deno.test("the second look: processes that came, went or were switched in have moved", () => {
  const mark = (pid: number, switches: number | null, startTime = pid) => ({
    pid,
    startTime,
    switches,
  });
  strictEqual(movedBetween([mark(110, 7)], [mark(110, 7)]), false);
  strictEqual(movedBetween([mark(110, 7)], [mark(110, 9)]), true);
  strictEqual(movedBetween([mark(110, 7)], [mark(110, 7), mark(111, 1)]), true);
  strictEqual(movedBetween([mark(110, 7), mark(111, 1)], [mark(110, 7)]), true);
  // The same pid with another start time is another process.
  strictEqual(movedBetween([mark(110, 7)], [mark(110, 7, 999)]), true);
  // An unreadable count is no evidence either way.
  strictEqual(movedBetween([mark(110, null)], [mark(110, 9)]), false);
  strictEqual(movedBetween([], []), false);
});

Deno.test("busy children: sleep and cat count, zombies, idle shells and idle helpers do not", () => {
  const v = inspect(pane(
    proc(110, 100, "claude", ["claude"]),
    proc(111, 110, "bash", ["/bin/bash", "-c", "sleep 30"]),
    proc(112, 111, "sleep", ["sleep", "30"]),
    proc(113, 110, "cat", ["cat"]),
    proc(114, 110, "git", ["git", "status"], "Z"),
    proc(115, 110, "caffeinate", ["caffeinate"]),
    proc(116, 110, "bash", ["/bin/bash"]),
  ));
  strictEqual(v.found?.proc.pid, 110);
  deepStrictEqual(v.busyChildren, ["cat", "sleep"]);
  deepStrictEqual(v.sampled.map((p) => p.pid), [110]);
});

Deno.test("codex's native child is part of the agent, not a busy child", () => {
  const v = inspectProcesses(
    pane(
      proc(110, 100, "node", ["node", "/x/bin/codex.js"]),
      proc(111, 110, "codex", ["/x/vendor/codex"]),
    ),
    100,
    NONE,
    "codex",
    () => [],
  );
  deepStrictEqual(v.busyChildren, []);
  deepStrictEqual(v.sampled.map((p) => p.pid), [110, 111]);
});

Deno.test("what the wrapper adopted is left out: only the heartbeat and the command are its own", () => {
  const procs = pane(
    proc(110, 100, "npm", ["npm", "exec", "@openai/codex"]),
    proc(120, 110, "node", ["node", "/x/bin/codex.js"]),
    proc(130, 120, "codex", ["/x/vendor/codex"]),
    // Adopted by the subreaper wrapper: a codex app-server that double-forked, a daemon, and a
    // tmux server a nested spawn started (with a pane of another session below it).
    proc(140, 100, "codex", ["codex", "app-server"]),
    proc(150, 100, "sleep", ["sleep", "1235"]),
    proc(160, 100, "tmux: server", ["tmux", "-S", "/s"]),
    proc(161, 160, "claude", ["claude"]),
  );
  deepStrictEqual(withoutAdopted(procs, 100).map((p) => p.pid), [100, 101, 102, 110, 120, 130]);
  const v = inspectProcesses(procs, 100, NONE, "codex", () => []);
  strictEqual(v.found?.proc.pid, 120);
  deepStrictEqual(v.busyChildren, []);
  const cmd = inspect(pane(
    proc(110, 100, "bash", ["bash", "-c", "setsid -f sleep 1235; read x"]),
    proc(111, 110, "bash", ["bash"]),
    proc(150, 100, "sleep", ["sleep", "1235"]),
  ));
  deepStrictEqual(cmd.commandProcesses, []);
  // The pane's root (lisa's wrapper) is not sampled: its CPU is lisa's, not the command's.
  deepStrictEqual(cmd.sampled.map((p) => p.pid), [110, 111]);
});

Deno.test("the command is the wrapper's oldest child; a list without the wrapper is kept whole", () => {
  const late = { ...proc(110, 100, "sleep", ["sleep", "9"]), startTime: 500 };
  const early = { ...proc(150, 100, "make", ["make"]), startTime: 400 };
  deepStrictEqual(withoutAdopted(pane(late, early), 100).map((p) => p.pid), [100, 101, 102, 150]);
  const agentOnly = [proc(110, 100, "claude", ["claude"]), proc(111, 110, "cat", ["cat"])];
  deepStrictEqual(withoutAdopted(agentOnly, 100), agentOnly);
});

Deno.test("the done file is {runId}:{exitCode}", () => {
  deepStrictEqual(parseDoneFile("abc-12:3\n"), { runId: "abc-12", exitCode: 3 });
  strictEqual(parseDoneFile("garbage"), null);
  strictEqual(parseDoneFile(undefined), null);
});
