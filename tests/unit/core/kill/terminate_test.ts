import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  callerChain,
  collectVictims,
  processTable,
  terminate,
} from "../../../../src/core/kill/terminate.ts";
import type { Runner, RunOptions, RunResult } from "../../../../src/base/runner.ts";

/** Answers `ps -axo …` with a fixed table and `grep -l …` with fixed environ matches. */
class FakeRunner implements Runner {
  calls: string[][] = [];
  constructor(private readonly ps: string, private readonly grepped: number[] = []) {}
  run(argv: readonly string[], _options?: RunOptions): Promise<RunResult> {
    this.calls.push([...argv]);
    const ok = (stdout: string) => Promise.resolve({ code: 0, success: true, stdout, stderr: "" });
    if (argv[0] === "ps" && argv[1] === "-axo") return ok(this.ps);
    if (argv[0] === "grep") return ok(this.grepped.map((p) => `/proc/${p}/environ\n`).join(""));
    return Promise.reject(new Error(`unexpected call: ${argv.join(" ")}`));
  }
}

const T = "Sun Nov  2 05:23:00 2026";
const row = (pid: number, ppid: number, stat: string, comm: string) =>
  `${String(pid).padStart(7)} ${String(ppid).padStart(7)} ${stat.padEnd(4)} ${T} ${comm}`;

const TABLE = [
  row(1, 0, "Ss", "init"),
  row(100, 1, "Ss", "tmux: server"),
  row(200, 100, "Ss+", "bash"), // pane root
  row(201, 200, "S+", "bash"), // heartbeat
  row(202, 201, "S+", "sleep"),
  row(203, 200, "S+", "claude"),
  row(204, 203, "Ss", "sleep"), // setsid child: still a child
  row(205, 203, "Z", "true"), // zombie
  row(300, 1, "Ss", "sleep"), // daemon reparented to init, found by its environment
  row(301, 300, "S", "node"), // its child
  row(400, 1, "Ss", "tmux: server"), // another server started from the session
  row(401, 400, "Ss", "bash"), // a pane of another session on that server: never collected
  row(500, 1, "S", "unrelated"),
].join("\n") + "\n";

Deno.test("ps rows parse names with spaces and space-padded start days", async () => {
  const rows = await processTable(new FakeRunner(TABLE));
  deepStrictEqual(rows[1], {
    pid: 100,
    ppid: 1,
    state: "S",
    start: "Sun Nov 2 05:23:00 2026",
    name: "tmux: server",
  });
  deepStrictEqual(rows.length, 13);
});

Deno.test("victims: the pane subtree breadth first, then env matches, never zombies or tmux servers", async () => {
  const runner = new FakeRunner(TABLE, [203, 300, 400]);
  const victims = await collectVictims({
    panePids: [200],
    runId: "run-1",
    exclude: [100],
    runner,
    procfs: false,
  });
  deepStrictEqual(victims.map((v) => v.pid), [200, 201, 203, 202, 204, 300, 301]);
  deepStrictEqual(victims.map((v) => v.name).slice(0, 3), ["bash", "bash", "claude"]);
  const grep = runner.calls.find((c) => c[0] === "grep")!;
  deepStrictEqual(grep.slice(0, 9), [
    "grep",
    "-l",
    "-s",
    "-z",
    "-x",
    "-F",
    "-e",
    "LISA_RUN_ID=run-1",
    "--",
  ]);
});

Deno.test("without a run id there is no environment scan", async () => {
  const runner = new FakeRunner(TABLE);
  const victims = await collectVictims({ panePids: [203], runner, procfs: false });
  deepStrictEqual(victims.map((v) => v.pid), [203, 204]);
  deepStrictEqual(runner.calls.map((c) => c[0]), ["ps"]);
});

/** A runner that fails on any call: the /proc path must not start subprocesses. */
const noSubprocess: Runner = {
  run: (argv) => Promise.reject(new Error(`unexpected call: ${argv.join(" ")}`)),
};

Deno.test("on Linux the subtree is read from /proc and ended without any subprocess", async () => {
  const child = new Deno.Command("bash", {
    args: ["-c", "sleep 300 & setsid sleep 300 & wait"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    let victims: Awaited<ReturnType<typeof collectVictims>> = [];
    // Until both children have exec'd: `setsid` shows under its own name for a moment.
    const names = () => victims.map((v) => v.name).sort().join(",");
    for (let i = 0; i < 100 && names() !== "bash,sleep,sleep"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      victims = await collectVictims({ panePids: [child.pid], runner: noSubprocess, procfs: true });
    }
    deepStrictEqual(victims.map((v) => v.name).sort(), ["bash", "sleep", "sleep"]);
    ok(victims.every((v) => v.start.startsWith("ticks:")));
    const result = await terminate(victims, {
      runner: noSubprocess,
      graceMs: 2000,
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      procfs: true,
    });
    deepStrictEqual(result.remaining, []);
    strictEqual(result.signalled, 3);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already ended */ }
    await child.status;
  }
});

Deno.test("callerChain holds this process and its ancestors, without init", async () => {
  const table = [
    row(1, 0, "Ss", "init"),
    row(4242, 1, "Ss", "bash"),
    row(Deno.pid, 4242, "S", "deno"),
    row(4343, Deno.pid, "S", "tmux"),
  ].join("\n") + "\n";
  deepStrictEqual([...await callerChain(new FakeRunner(table), false)], [Deno.pid, 4242]);
  if (Deno.build.os === "linux") {
    const rejecting: Runner = { run: () => Promise.reject(new Error("no subprocess")) };
    const chain = await callerChain(rejecting, true);
    ok(chain.has(Deno.pid) && chain.has(Deno.ppid), [...chain].join(","));
    ok(!chain.has(1));
  }
});
