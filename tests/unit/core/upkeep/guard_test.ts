import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { fakeDeps } from "../../../helpers/fake_deps.ts";
import type { MemoryIo } from "../../../../src/cli/io.ts";
import { ProgramNotFoundError } from "../../../../src/base/errors.ts";
import {
  assessCommand,
  type DefaultServerInfo,
  runGuard,
  splitCommandLine,
} from "../../../../src/core/upkeep/guard.ts";
import type { Runner, RunOptions, RunResult } from "../../../../src/base/runner.ts";

const SEP = "\x1f";

/** A runner that answers only `tmux list-sessions -F …` (no -S) and rejects anything else. */
class FakeRunner implements Runner {
  calls: { argv: string[]; options?: RunOptions }[] = [];
  constructor(private readonly answer: RunResult | Error) {}
  run(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
    this.calls.push({ argv: [...argv], options });
    // `-u`: the fields' separator survives any locale (tmux.ts TMUX_UTF8).
    if (
      argv[0] !== "tmux" || argv[1] !== "-u" || argv[2] !== "list-sessions" || argv.includes("-S")
    ) {
      return Promise.reject(new Error(`unexpected call: ${argv.join(" ")}`));
    }
    if (this.answer instanceof Error) return Promise.reject(this.answer);
    return Promise.resolve(this.answer);
  }
}

function ok(stdout: string): RunResult {
  return { code: 0, success: true, stdout, stderr: "" };
}

function depsWith(runner: Runner, env: Record<string, string> = {}) {
  return fakeDeps({ env: { PATH: "/usr/bin", ...env }, uid: 1000, runner });
}

const BUSY: DefaultServerInfo = {
  running: true,
  sessions: [{ name: "work", attached: 1, windows: 3 }],
  attachedSessions: 1,
  lisaSessions: [],
  error: null,
};
const EMPTY: DefaultServerInfo = { ...BUSY, running: false, sessions: [], attachedSessions: 0 };

Deno.test("guard reads the default server with one list-sessions and no -S", async () => {
  const runner = new FakeRunner(
    ok(`work${SEP}1${SEP}3\nlisa-old-260101-000000-1-claude-exec${SEP}0${SEP}1\n`),
  );
  const report = await runGuard(depsWith(runner), { sharedTmux: true });
  strictEqual(runner.calls.length, 1);
  strictEqual(runner.calls[0].argv.includes("-S"), false);
  strictEqual(report.defaultServer?.running, true);
  strictEqual(report.defaultServer?.sessions.length, 2);
  strictEqual(report.defaultServer?.attachedSessions, 1);
  deepStrictEqual(report.defaultServer?.lisaSessions, ["lisa-old-260101-000000-1-claude-exec"]);
  strictEqual(report.warnings.length, 2);
  // The default planned command is lisa cleanup, which never touches the default server.
  strictEqual(report.commandRisk.command, "lisa cleanup");
  strictEqual(report.commandRisk.level, "low");
  strictEqual(report.safe, true);
});

Deno.test("guard says kill-server without -S is high risk when the default server is busy", async () => {
  const runner = new FakeRunner(ok(`work${SEP}1${SEP}3\n`));
  const report = await runGuard(depsWith(runner), {
    sharedTmux: true,
    command: "tmux kill-server",
  });
  strictEqual(report.commandRisk.level, "high");
  strictEqual(report.safe, false);
  strictEqual(report.commandRisk.reasons[0].includes("1 session(s), 1 attached"), true);
});

Deno.test("guard treats no server running as an empty default server", async () => {
  const runner = new FakeRunner({
    code: 1,
    success: false,
    stdout: "",
    stderr: "no server running on /tmp/tmux-1000/default\n",
  });
  const report = await runGuard(depsWith(runner), { sharedTmux: true });
  strictEqual(report.defaultServer?.running, false);
  strictEqual(report.defaultServer?.error, null);
  deepStrictEqual(report.warnings, []);
  strictEqual(report.safe, true);
});

Deno.test("guard reports a missing tmux binary as a warning, not a failure", async () => {
  const runner = new FakeRunner(new ProgramNotFoundError("tmux"));
  const report = await runGuard(depsWith(runner), { sharedTmux: true });
  strictEqual(report.defaultServer?.running, false);
  strictEqual(report.warnings.some((w) => w.includes("tmux is not installed")), true);
});

Deno.test("guard without --shared-tmux does not run tmux at all", async () => {
  const runner = new FakeRunner(new Error("must not be called"));
  const report = await runGuard(depsWith(runner), {
    sharedTmux: false,
    command: "lisa session kill-all",
  });
  strictEqual(runner.calls.length, 0);
  strictEqual(report.defaultServer, null);
  strictEqual(report.commandRisk.level, "medium");
  strictEqual(report.safe, false);
});

Deno.test("guard warns when the caller is inside tmux", async () => {
  const runner = new FakeRunner(ok(""));
  const report = await runGuard(depsWith(runner, { TMUX: "/tmp/tmux-1000/default,1,0" }), {
    sharedTmux: true,
  });
  strictEqual(report.insideTmux, true);
  strictEqual(report.warnings.some((w) => w.includes("TMUX is set")), true);
});

const RISKS: [string, DefaultServerInfo | null, string][] = [
  ["lisa cleanup", BUSY, "low"],
  ["lisa cleanup --dry-run", BUSY, "none"],
  ["./lisa session kill-all --project-only", BUSY, "low"],
  ["lisa session kill-all", BUSY, "medium"],
  ["lisa session kill --session lisa-x", BUSY, "low"],
  ["lisa session list", BUSY, "none"],
  ["deno run -A --config deno.json /repo/main.ts session kill-all", BUSY, "medium"],
  ["deno run -A main.ts cleanup --dry-run", BUSY, "none"],
  ["tmux kill-server", BUSY, "high"],
  ["tmux kill-server", null, "high"],
  ["tmux kill-server", EMPTY, "high"],
  ["tmux kill-session -a", BUSY, "high"],
  ["tmux kill-session -t work", BUSY, "medium"],
  ["tmux list-sessions", BUSY, "none"],
  ["tmux -S /tmp/lisa-0/lisa-tmux-proj-0123abcd.sock kill-server", BUSY, "low"],
  ["tmux -S /tmp/other.sock kill-server", BUSY, "medium"],
  ["tmux -L work kill-server", BUSY, "medium"],
  ["pkill -f tmux", BUSY, "high"],
  ["killall tmux", EMPTY, "high"],
  ["rm -rf /tmp/tmux-1000", BUSY, "high"],
  ["lisa cleanup && tmux kill-server", BUSY, "high"],
  ["sudo tmux kill-server", BUSY, "high"],
  ["echo hello", BUSY, "none"],
];

for (const [command, server, level] of RISKS) {
  const label = server === null ? "uninspected" : server.running ? "busy" : "empty";
  Deno.test(`guard rates ${JSON.stringify(command)} on a ${label} server as ${level}`, () => {
    strictEqual(assessCommand(command, server, false).level, level);
  });
}

Deno.test("guard splits compound commands and strips quotes", () => {
  deepStrictEqual(splitCommandLine(`tmux -S "/a b.sock" kill-server; lisa cleanup | cat`), [
    ["tmux", "-S", "/a b.sock", "kill-server"],
    ["lisa", "cleanup"],
    ["cat"],
  ]);
});

Deno.test("session guard --shared-tmux --json prints the report and exits 1 when risky", async () => {
  const { main } = await import("../../../../src/cli/run.ts");
  const runner = new FakeRunner(ok(`work${SEP}1${SEP}3\n`));
  const deps = depsWith(runner);
  const code = await main(
    ["session", "guard", "--shared-tmux", "--command", "tmux kill-server", "--json"],
    deps,
  );
  strictEqual(code, 1);
  const out = JSON.parse((deps.io as MemoryIo).stdout);
  strictEqual(out.safe, false);
  strictEqual(out.commandRisk.level, "high");
  strictEqual(out.defaultServer.sessions.length, 1);
  strictEqual(Array.isArray(out.warnings), true);
  strictEqual(out.stderrPolicy, "diagnostic");
  const safe = depsWith(new FakeRunner(ok("")));
  strictEqual(await main(["session", "guard", "--shared-tmux", "--json"], safe), 0);
});
