import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { LisaError } from "../../../src/base/errors.ts";
import type { Runner, RunOptions, RunResult } from "../../../src/base/runner.ts";
import {
  hasSession,
  killSession,
  listSessions,
  newSessionCommands,
  pasteText,
  sendKeys,
  sessionPanePids,
} from "../../../src/tmux/sessions.ts";
import { paneTarget, sessionTarget, Tmux } from "../../../src/tmux/tmux.ts";
import { sessionRunId } from "../../../src/core/kill/kill.ts";
import { capturePaneArgs, paneInfoArgs } from "../../../src/core/drive/capture.ts";
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
    [
      "new-session",
      "-d",
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
  deepStrictEqual(argv.slice(0, 3), ["tmux", "-S", "/s.sock"]);
  strictEqual(argv.filter((a) => a === ";").length, 2);
});

Deno.test("text is pasted in one call: has-session, load-buffer from stdin, paste-buffer -p -d", async () => {
  const runner = new ScriptedRunner([ok0()]);
  strictEqual(await pasteText(new Tmux(runner, "/s.sock"), "lisa-a", "a\nb 'c'"), true);
  strictEqual(runner.calls.length, 1);
  const { argv, options } = runner.calls[0];
  strictEqual(options?.stdin, "a\nb 'c'");
  const buffer = argv[argv.indexOf("load-buffer") + 2];
  ok(/^lisa-[0-9a-f]{12}$/.test(buffer));
  deepStrictEqual(argv.slice(3), [
    "has-session",
    "-t",
    "=lisa-a:",
    ";",
    "load-buffer",
    "-b",
    buffer,
    "-",
    ";",
    "paste-buffer",
    "-p",
    "-d",
    "-b",
    buffer,
    "-t",
    "=lisa-a:",
  ]);
});

Deno.test("a missing session or server is false, any other tmux failure is command_failed", async () => {
  const tmux = (r: RunResult) => new Tmux(new ScriptedRunner([r]), "/s.sock");
  strictEqual(await pasteText(tmux(fail("can't find session: lisa-a")), "lisa-a", "x"), false);
  strictEqual(await sendKeys(tmux(fail("no server running on /s.sock")), "lisa-a", ["C-c"]), false);
  strictEqual(await hasSession(tmux(fail("error connecting to /s.sock")), "lisa-a"), false);
  await rejects(
    () => hasSession(tmux(fail("protocol version mismatch")), "lisa-a"),
    (e) => e instanceof LisaError && e.code === "command_failed",
  );
});

Deno.test("list-sessions rows are parsed with the active pane's facts", async () => {
  const out = [
    ["1700000000", "123", "0", "", "lisa-a"].join(SEP),
    ["1700000001", "124", "1", "3", "lisa-b"].join(SEP),
  ].join("\n") + "\n";
  const rows = await listSessions(new Tmux(new ScriptedRunner([ok0(out)]), "/s.sock"));
  deepStrictEqual(rows, [
    {
      session: "lisa-a",
      createdAt: 1700000000,
      panePid: 123,
      paneDead: false,
      paneDeadStatus: null,
    },
    { session: "lisa-b", createdAt: 1700000001, panePid: 124, paneDead: true, paneDeadStatus: 3 },
  ]);
  deepStrictEqual(
    await listSessions(new Tmux(new ScriptedRunner([fail("no server running")]), "/s.sock")),
    [],
  );
});

Deno.test("every session target lisa passes is =NAME: (exact for session, window and pane targets)", async () => {
  strictEqual(sessionTarget("lisa-w-1"), "=lisa-w-1:");
  strictEqual(paneTarget("lisa-w-1"), "=lisa-w-1:");
  const runner = new ScriptedRunner(Array.from({ length: 6 }, () => ok0()));
  const tmux = new Tmux(runner, "/s.sock");
  await hasSession(tmux, "lisa-w-1");
  await sessionPanePids(tmux, "lisa-w-1");
  await killSession(tmux, "lisa-w-1");
  await sendKeys(tmux, "lisa-w-1", ["Enter"]);
  await pasteText(tmux, "lisa-w-1", "x");
  await sessionRunId(tmux, "lisa-w-1");
  const argvs = [
    ...runner.calls.map((c) => c.argv),
    [...statusTmuxCommands("lisa-w-1", 10).flat()],
    capturePaneArgs("lisa-w-1", "all"),
    paneInfoArgs("lisa-w-1"),
  ];
  let targets = 0;
  for (const argv of argvs) {
    argv.forEach((word, i) => {
      if (word !== "-t") return;
      targets++;
      strictEqual(argv[i + 1], "=lisa-w-1:", argv.join(" "));
    });
  }
  strictEqual(targets, 11);
  deepStrictEqual(runner.calls[1].argv.slice(3, 7), ["list-panes", "-s", "-t", "=lisa-w-1:"]);
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
