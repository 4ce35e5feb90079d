import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { fakeDeps } from "../../../helpers/fake_deps.ts";
import type { Deps } from "../../../../src/base/deps.ts";
import { projectHash } from "../../../../src/core/session/identity.ts";
import {
  outputChangedAt,
  sessionStatus,
  SIGCHLD_SETTLE_MS,
} from "../../../../src/core/status/status.ts";
import type { SessionMeta } from "../../../../src/base/types.ts";
import type { Runner, RunOptions, RunResult } from "../../../../src/base/runner.ts";
import { sessionPaths } from "../../../../src/store/runtime_dir.ts";
import { writeMeta } from "../../../../src/store/session_store.ts";

const SEP = "\x1f";

/** Answers tmux calls from a script; any other call fails the test. */
class ScriptedTmux implements Runner {
  readonly calls: string[][] = [];
  constructor(private readonly answers: RunResult[]) {}
  run(argv: readonly string[], _options?: RunOptions): Promise<RunResult> {
    this.calls.push([...argv]);
    if (argv[0] !== "tmux") throw new Error(`unexpected call: ${argv.join(" ")}`);
    const next = this.answers.shift();
    if (next === undefined) throw new Error(`unexpected tmux call: ${argv.join(" ")}`);
    return Promise.resolve(next);
  }
}

function deadPane(status: string, serverPid: number): RunResult {
  const facts = [
    ...["1", status, "", "999999", String(serverPid), "1700000000", "1700000000", "24"],
    ...["0", "0", "2000", "0", "bash", "lisa-unit", "vm"],
  ];
  return { code: 0, success: true, stdout: `last words\n${facts.join(SEP)}\n`, stderr: "" };
}

interface Fixture {
  deps: Deps;
  slept: number[];
  paths: ReturnType<typeof sessionPaths>;
  meta: SessionMeta;
  base: string;
}

function fixture(runner: Runner): Fixture {
  const base = Deno.makeTempDirSync({ prefix: "lisa-status-unit-" });
  const runtimeDir = `${base}/run`;
  Deno.mkdirSync(runtimeDir, { mode: 0o700 });
  Deno.chmodSync(runtimeDir, 0o700);
  Deno.mkdirSync(`${base}/project`);
  const root = Deno.realPathSync(`${base}/project`);
  const env = { LISA_RUNTIME_DIR: runtimeDir, LISA_TMUX_SOCKET_DIR: runtimeDir };
  const slept: number[] = [];
  const deps = fakeDeps({ env, cwd: root, now: () => new Date(), runner, slept });
  const hash = projectHash(root);
  const paths = sessionPaths(runtimeDir, hash, "lisa-unit");
  const meta: SessionMeta = {
    session: "lisa-unit",
    parentSession: null,
    agent: "claude",
    mode: "exec",
    projectRoot: root,
    projectHash: hash,
    socketPath: `${runtimeDir}/lisa-tmux-project-${hash}.sock`,
    startCmd: "claude -p hi",
    prompt: "hi",
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    runId: "run-1",
    agentSessionId: null,
    hooks: false,
  };
  writeMeta(paths, meta);
  return { deps, slept, paths, meta, base };
}

/** A child whose pid stands in for the tmux server (SIGCHLD is ignored by `sleep`). */
function fakeServer(): Deno.ChildProcess {
  return new Deno.Command("sleep", { args: ["30"], stdout: "null", stderr: "null" }).spawn();
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  await child.status;
}

Deno.test("a dead pane whose status tmux lost is re-read once after SIGCHLD to the server", async () => {
  const server = fakeServer();
  const runner = new ScriptedTmux([deadPane("", server.pid), deadPane("3", server.pid)]);
  const f = fixture(runner);
  try {
    const { report } = await sessionStatus(f.deps, { session: "lisa-unit" });
    strictEqual(report.sessionState, "crashed");
    strictEqual(report.exitCode, 3);
    strictEqual(report.classificationReason, "pane_exited:3");
    strictEqual(runner.calls.length, 2);
    deepStrictEqual(f.slept, [SIGCHLD_SETTLE_MS]);
    ok(
      report.outputFile !== null && Deno.readTextFileSync(report.outputFile).includes("last words"),
    );
  } finally {
    await stop(server);
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("a lost dead status is taken from the done file of this run without a second call", async () => {
  const runner = new ScriptedTmux([deadPane("", 1)]);
  const f = fixture(runner);
  try {
    Deno.writeTextFileSync(f.paths.done, "run-1:3\n");
    const { report } = await sessionStatus(f.deps, { session: "lisa-unit" });
    strictEqual(report.sessionState, "crashed");
    strictEqual(report.exitCode, 3);
    strictEqual(report.classificationReason, "done_file:3");
    strictEqual(runner.calls.length, 1);
    deepStrictEqual(f.slept, []);
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("a done file of an earlier run does not decide the exit", async () => {
  const server = fakeServer();
  const runner = new ScriptedTmux([deadPane("", server.pid), deadPane("", server.pid)]);
  const f = fixture(runner);
  try {
    Deno.writeTextFileSync(f.paths.done, "run-0:0\n");
    const { report } = await sessionStatus(f.deps, { session: "lisa-unit" });
    strictEqual(report.sessionState, "crashed");
    strictEqual(report.exitCode, null);
    strictEqual(report.classificationReason, "pane_dead_status_unknown");
  } finally {
    await stop(server);
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("a failing tmux makes status degraded, not not_found", async () => {
  const runner = new ScriptedTmux([
    { code: 1, success: false, stdout: "", stderr: "lost server: protocol version mismatch" },
  ]);
  const f = fixture(runner);
  try {
    const { report } = await sessionStatus(f.deps, { session: "lisa-unit" });
    strictEqual(report.sessionState, "degraded");
    strictEqual(report.classificationReason, "read_failed:tmux");
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("a missing session with a matching done file reports its exit", async () => {
  const runner = new ScriptedTmux([
    { code: 1, success: false, stdout: "", stderr: "can't find session: lisa-unit" },
  ]);
  const f = fixture(runner);
  try {
    Deno.writeTextFileSync(f.paths.done, "run-1:0\n");
    const { report, pane } = await sessionStatus(f.deps, { session: "lisa-unit" });
    strictEqual(report.sessionState, "completed");
    strictEqual(report.exitCode, 0);
    strictEqual(pane, null);
  } finally {
    Deno.removeSync(f.base, { recursive: true });
  }
});

Deno.test("a screen unchanged since the stored look keeps the stored change time", () => {
  const prev = { outputHash: "h1", outputChangedAtMs: 5000 };
  strictEqual(outputChangedAt(prev, "h1", 90_000, 89), 5000);
});

Deno.test("a stale differing sample is dated by tmux's last output, not by the poll (defect 7)", () => {
  const prev = { outputHash: "h1", outputChangedAtMs: 5000 };
  // Last output at second 75, looked at 100 s: quiet for 24 s at least (the second's end).
  strictEqual(outputChangedAt(prev, "h2", 100_000, 75), 76_000);
  // Output within the current second: never later than now.
  strictEqual(outputChangedAt(prev, "h2", 100_500, 100), 100_500);
  // Without tmux's figure, a differing screen can only be dated now (the old estimate).
  strictEqual(outputChangedAt(prev, "h2", 100_000, null), 100_000);
});

Deno.test("lisa's first look is measured too", () => {
  const first = { outputHash: null, outputChangedAtMs: null };
  strictEqual(outputChangedAt(first, "h1", 100_000, 75), 76_000);
  strictEqual(outputChangedAt(first, "h1", 100_000, null), null);
});
