import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { LisaError } from "../../../src/base/errors.ts";
import type { Runner, RunOptions, RunResult } from "../../../src/base/runner.ts";
import {
  hasSession,
  killSession,
  listSessions,
  newSessionCommands,
  paneRowOf,
  parseNewPane,
  pasteText,
  sendKeys,
  sessionPanePids,
} from "../../../src/tmux/sessions.ts";
import { paneTarget, sessionTarget, Tmux } from "../../../src/tmux/tmux.ts";
import { sessionRunId } from "../../../src/core/kill/kill.ts";
import { capturePaneArgs, paneInfoArgs } from "../../../src/core/capture/capture.ts";
import { statusTmuxCommands } from "../../../src/core/status/gather.ts";

const SEP = "\x1f";

/** Answers each expected call in order and rejects anything else. */
class ScriptedRunner implements Runner {
  calls: { argv: string[]; options?: RunOptions }[] = [];
  constructor(private readonly answers: RunResult[]) {}
  run(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
    this.calls.push({ argv: [...argv], options });
    const next = this.answers.shift();
    if (next === undefined) return Promise.reject(new Error(`unexpected call: ${argv.join(" ")}`));
    return Promise.resolve(next);
  }
}

const ok0 = (stdout = ""): RunResult => ({ code: 0, success: true, stdout, stderr: "" });
const fail = (stderr: string): RunResult => ({ code: 1, success: false, stdout: "", stderr });

Deno.test("new-session is chained after the server options, with -e env and -- before argv", () => {
  const cmds = newSessionCommands({
    session: "lisa-a",
    width: 200,
    height: 50,
    cwd: "/p",
    env: { LISA_SESSION: "true", LISA_RUN_ID: "r 1" },
    argv: ["bash", "/r/script.sh"],
  });
  deepStrictEqual(cmds, [
    ["set-option", "-g", "remain-on-exit", "on"],
    ["set-option", "-g", "history-limit", "50000"],
    ["set-hook", "-g", "pane-died[47]", "select-pane -d -t #{hook_pane}"],
    [
      "new-session",
      "-d",
      "-P",
      "-F",
      "#{window_id} #{pane_id}",
      "-s",
      "lisa-a",
      "-x",
      "200",
      "-y",
      "50",
      "-c",
      "/p",
      "-e",
      "LISA_SESSION=true",
      "-e",
      "LISA_RUN_ID=r 1",
      "--",
      "bash",
      "/r/script.sh",
    ],
  ]);
  const argv = new Tmux(new ScriptedRunner([]), "/s.sock").argv(cmds);
  deepStrictEqual(argv.slice(0, 4), ["tmux", "-u", "-S", "/s.sock"]);
  strictEqual(argv.filter((a) => a === ";").length, 3);
});

Deno.test("new-session's printed ids are read back; anything else gives none", () => {
  deepStrictEqual(parseNewPane("@12 %34\n"), { windowId: "@12", paneId: "%34" });
  deepStrictEqual(parseNewPane(""), {});
  deepStrictEqual(parseNewPane("error creating /s.sock (Permission denied)\n"), {});
});

Deno.test("text is pasted in one call: has-session, load-buffer, then tmux checks the pane before the paste", async () => {
  const runner = new ScriptedRunner([ok0()]);
  const target = "=lisa-a:@1.%2";
  strictEqual(await pasteText(new Tmux(runner, "/s.sock"), target, "a\nb 'c'"), "sent");
  strictEqual(runner.calls.length, 1);
  const { argv, options } = runner.calls[0];
  strictEqual(options?.stdin, "a\nb 'c'");
  const buffer = argv[argv.indexOf("load-buffer") + 2];
  ok(/^lisa-[0-9a-f]{12}$/.test(buffer));
  deepStrictEqual(argv.slice(4), [
    "has-session",
    "-t",
    target,
    ";",
    "load-buffer",
    "-b",
    buffer,
    "-",
    ";",
    // The pane's liveness and its input are decided by tmux, in this invocation, right before
    // the paste; the refusal says which it was.
    "if-shell",
    "-F",
    "-t",
    target,
    "#{||:#{pane_dead},#{pane_input_off}}",
    `'delete-buffer' '-b' '${buffer}' ; 'display-message' '-p' '-t' '${target}' ` +
    "'#{?pane_dead,__LISA_PANE_DEAD__,__LISA_PANE_INPUT_OFF__}'",
    // Any mode (copy mode: a person scrolled back) ends first, so the paste reaches the agent.
    `'copy-mode' '-q' '-t' '${target}' ; 'paste-buffer' '-p' '-d' '-b' '${buffer}' '-t' '${target}'`,
  ]);
});

Deno.test("keys go through the same check; a dead pane's mark is `dead`, input off `input_off`", async () => {
  const runner = new ScriptedRunner([
    ok0(),
    ok0("__LISA_PANE_DEAD__\n"),
    ok0("__LISA_PANE_INPUT_OFF__\n"),
  ]);
  const tmux = new Tmux(runner, "/s.sock");
  strictEqual(await sendKeys(tmux, "=lisa-a:@1.%2", ["C-c", "'", "-t"]), "sent");
  deepStrictEqual(runner.calls[0].argv.slice(4), [
    "if-shell",
    "-F",
    "-t",
    "=lisa-a:@1.%2",
    "#{||:#{pane_dead},#{pane_input_off}}",
    "'display-message' '-p' '-t' '=lisa-a:@1.%2' " +
    "'#{?pane_dead,__LISA_PANE_DEAD__,__LISA_PANE_INPUT_OFF__}'",
    `'copy-mode' '-q' '-t' '=lisa-a:@1.%2' ; 'send-keys' '-t' '=lisa-a:@1.%2' '--' 'C-c' "'" '-t'`,
  ]);
  strictEqual(await sendKeys(tmux, "=lisa-a:@1.%2", ["Enter"]), "dead");
  strictEqual(await sendKeys(tmux, "=lisa-a:@1.%2", ["Enter"]), "input_off");
});

Deno.test("a missing session or server is absent, any other tmux failure is command_failed", async () => {
  const tmux = (...r: RunResult[]) => new Tmux(new ScriptedRunner(r), "/s.sock");
  // The buffer of a pane gone while it loaded is deleted (a failure there changes nothing).
  strictEqual(
    await pasteText(tmux(fail("can't find session: lisa-a"), fail("no buffer")), "=lisa-a:", "x"),
    "absent",
  );
  strictEqual(await sendKeys(tmux(fail("no server running on /s.sock")), "=a:", ["C-c"]), "absent");
  await rejects(
    () => sendKeys(tmux(fail("protocol version mismatch")), "=lisa-a:", ["C-c"]),
    (e) => e instanceof LisaError && e.code === "command_failed",
  );
  strictEqual(await hasSession(tmux(fail("error connecting to /s.sock")), "lisa-a"), false);
  await rejects(
    () => hasSession(tmux(fail("protocol version mismatch")), "lisa-a"),
    (e) => e instanceof LisaError && e.code === "command_failed",
  );
});

Deno.test("list-panes rows give each session's first pane, and its own pane by id", async () => {
  // created, window index, window id, pane id, at top, at left, pid, dead, status, name
  const out = [
    ["1700000000", "1", "@4", "%9", "1", "1", "200", "0", "", "lisa-a"].join(SEP),
    ["1700000000", "0", "@0", "%0", "1", "1", "123", "1", "0", "lisa-a"].join(SEP),
    ["1700000000", "0", "@0", "%5", "1", "0", "201", "0", "", "lisa-a"].join(SEP),
    ["1700000001", "0", "@1", "%1", "1", "1", "124", "1", "3", "lisa-b"].join(SEP),
  ].join("\n") + "\n";
  const rows = await listSessions(new Tmux(new ScriptedRunner([ok0(out)]), "/s.sock"));
  deepStrictEqual(rows.map((r) => [r.session, r.panePid, r.paneDead, r.panes.length]), [
    ["lisa-a", 123, true, 3],
    ["lisa-b", 124, true, 1],
  ]);
  strictEqual(rows[1].paneDeadStatus, 3);
  // The agent's pane (%0) is dead although a window opened later (%9) runs.
  deepStrictEqual(paneRowOf(rows[0], { windowId: "@0", paneId: "%0" }), {
    windowId: "@0",
    paneId: "%0",
    panePid: 123,
    paneDead: true,
    paneDeadStatus: 0,
  });
  strictEqual(paneRowOf(rows[0], { windowId: "@4", paneId: "%9" }).paneDead, false);
  // A pane moved to another window of the session is still its pane (tmux never reuses an id).
  strictEqual(paneRowOf(rows[0], { windowId: "@0", paneId: "%9" }).panePid, 200);
  // A pane that is gone reads as dead.
  strictEqual(paneRowOf(rows[0], { windowId: "@0", paneId: "%7" }).paneDead, true);
  strictEqual(paneRowOf(rows[0], undefined).panePid, 123);
  deepStrictEqual(
    await listSessions(new Tmux(new ScriptedRunner([fail("no server running")]), "/s.sock")),
    [],
  );
});

Deno.test("every target lisa passes is =NAME: or its pane =NAME:.%P (exact for every kind)", async () => {
  const ids = { windowId: "@3", paneId: "%8" };
  strictEqual(sessionTarget("lisa-w-1"), "=lisa-w-1:");
  strictEqual(paneTarget("lisa-w-1", ids), "=lisa-w-1:.%8");
  strictEqual(paneTarget("lisa-w-1", undefined), "=lisa-w-1:^.{top-left}");
  // Damaged ids are no ids: they would target no pane (or, unanchored, another one).
  strictEqual(paneTarget("lisa-w-1", { windowId: "3", paneId: "%8" }), "=lisa-w-1:^.{top-left}");
  strictEqual(paneTarget("lisa-w-1", { windowId: "@3", paneId: "%8;x" }), "=lisa-w-1:^.{top-left}");
  const pane = paneTarget("lisa-w-1", ids);
  const runner = new ScriptedRunner(Array.from({ length: 6 }, () => ok0()));
  const tmux = new Tmux(runner, "/s.sock");
  await hasSession(tmux, "lisa-w-1");
  await sessionPanePids(tmux, "lisa-w-1");
  await killSession(tmux, "lisa-w-1");
  await sendKeys(tmux, pane, ["Enter"]);
  await pasteText(tmux, pane, "x");
  await sessionRunId(tmux, "lisa-w-1");
  const calls = runner.calls.map((c) => c.argv);
  // Session-wide commands take the session; every command on the pane takes the pane.
  const sessionWide = [calls[0], calls[1], calls[2], calls[5]];
  const onPane = [
    calls[3],
    calls[4],
    [...statusTmuxCommands("lisa-w-1", 10, ids).flat()],
    capturePaneArgs("lisa-w-1", "all", ids),
    paneInfoArgs("lisa-w-1", ids),
  ];
  let targets = 0;
  for (const [argvs, want] of [[sessionWide, "=lisa-w-1:"], [onPane, pane]] as const) {
    for (const argv of argvs) {
      argv.forEach((word, i) => {
        if (word !== "-t") return;
        targets++;
        strictEqual(argv[i + 1], want, argv.join(" "));
      });
    }
  }
  strictEqual(targets, 11);
  deepStrictEqual(runner.calls[1].argv.slice(4, 8), ["list-panes", "-s", "-t", "=lisa-w-1:"]);
});

Deno.test("a dead pane's pid is never offered as a live process: it may belong to anyone now", async () => {
  const out = [
    ["900", "123", "0", ""].join(SEP),
    ["900", "124", "1", ""].join(SEP),
    ["900", "125", "1", "9"].join(SEP),
  ].join("\n") + "\n";
  const pids = await sessionPanePids(new Tmux(new ScriptedRunner([ok0(out)]), "/s.sock"), "lisa-a");
  deepStrictEqual(pids, {
    panePids: [123],
    panes: [
      { pid: 123, dead: false, deadSignal: null },
      { pid: 124, dead: true, deadSignal: null },
      { pid: 125, dead: true, deadSignal: 9 },
    ],
    serverPid: 900,
  });
});
