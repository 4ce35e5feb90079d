/**
 * The runner's deadline bounds the whole call: a child whose stdout stays open elsewhere (a
 * tmux client whose stdio a stopped server holds; here a background process) ends in
 * command_timeout, never a wait for the pipe's end.
 */
import { ok, rejects, strictEqual } from "node:assert/strict";
import { DenoRunner } from "../../../src/proc/runner.ts";
import { CommandTimeoutError } from "../../../src/base/errors.ts";

Deno.test("run: a pipe held open past the child's exit ends in command_timeout at the deadline", async () => {
  const pidFile = await Deno.makeTempFile();
  try {
    const runner = new DenoRunner(500);
    await rejects(
      runner.run(["bash", "-c", `sleep 20 & echo $! > ${pidFile}; echo started; exit 0`]),
      (e) => e instanceof CommandTimeoutError,
    );
    // The answer came while the pipe's holder still runs: the runner did not wait for it.
    const pid = Number(Deno.readTextFileSync(pidFile).trim());
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    ok(!/\) [ZX] /.test(stat), stat);
  } finally {
    const pid = Number(Deno.readTextFileSync(pidFile).trim());
    try {
      if (pid > 0) Deno.kill(pid, "SIGTERM");
    } catch { /* already ended */ }
    await Deno.remove(pidFile);
  }
});

Deno.test("run: a child that ends in time gives its exit code, stdout and stderr", async () => {
  const r = await new DenoRunner(5000).run(
    ["bash", "-c", "echo out; echo err >&2; exit 3"],
    { allowFailure: true },
  );
  strictEqual(r.code, 3);
  ok(!r.success);
  strictEqual(r.stdout, "out\n");
  strictEqual(r.stderr, "err\n");
});

Deno.test("run: onStdout/onStderr get the output as it comes, before the child ends", async () => {
  const seen: string[] = [];
  let resolveFirst: () => void = () => {};
  const first = new Promise<void>((r) => resolveFirst = r);
  const runner = new DenoRunner(20_000);
  const gate = await Deno.makeTempFile();
  Deno.writeTextFileSync(gate, "hold");
  try {
    const done = runner.run(
      [
        "bash",
        "-c",
        `echo one; echo warn >&2; while [ -s ${gate} ]; do sleep 0.05; done; echo two`,
      ],
      {
        onStdout: (t) => {
          seen.push(`out:${t}`);
          resolveFirst();
        },
        onStderr: (t) => seen.push(`err:${t}`),
      },
    );
    await first;
    // "one" arrived while the child still waits on the gate.
    ok(seen.includes("out:one\n"), seen.join("|"));
    Deno.writeTextFileSync(gate, "");
    const r = await done;
    strictEqual(r.stdout, "");
    strictEqual(seen.filter((s) => s.startsWith("out:")).join(""), "out:one\nout:two\n");
    ok(seen.includes("err:warn\n"), seen.join("|"));
  } finally {
    await Deno.remove(gate);
  }
});

Deno.test("run: holdStdin keeps the child's stdin open until it ends; without it stdin is closed", async () => {
  const runner = new DenoRunner(20_000);
  // `read -t` times out (exit >128) while stdin stays open with nothing in it.
  const held = await runner.run(["bash", "-c", "read -t 0.3 line; echo $?"], { holdStdin: true });
  ok(Number(held.stdout.trim()) > 128, held.stdout);
  const closed = await runner.run(["bash", "-c", "read -t 5 line; echo $?"], { stdin: "" });
  strictEqual(closed.stdout.trim(), "1");
  const both = await runner.run([
    "bash",
    "-c",
    'read line; echo "[$line]"; read -t 0.3 more; echo $?',
  ], {
    stdin: "given\n",
    holdStdin: true,
  });
  ok(both.stdout.startsWith("[given]\n") && Number(both.stdout.split("\n")[1]) > 128, both.stdout);
});

Deno.test("run: an aborted signal ends the child and gives its status; Infinity means no deadline", async () => {
  const runner = new DenoRunner(100);
  const stop = new AbortController();
  const running = runner.run(["sleep", "30"], {
    signal: stop.signal,
    timeoutMs: Infinity,
    allowFailure: true,
  });
  stop.abort();
  const r = await running;
  ok(!r.success);
  // Past the runner's default deadline (100 ms) without a timeout: Infinity held.
  const slow = await runner.run(["sleep", "0.3"], { timeoutMs: Infinity });
  strictEqual(slow.code, 0);
});

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

Deno.test("run with group: at the timeout the child and everything it started are ended before the call returns", async () => {
  const pidFile = await Deno.makeTempFile();
  const pids = () => Deno.readTextFileSync(pidFile).trim().split(/\s+/).map(Number);
  try {
    let started = 0;
    const runner = new DenoRunner(20_000);
    await rejects(
      runner.run(
        ["bash", "-c", `sleep 30 & echo $$ $! > ${pidFile}; trap '' TERM; sleep 30 & wait`],
        { group: true, timeoutMs: 500, onStart: (pid) => (started = pid) },
      ),
      (e) => e instanceof CommandTimeoutError,
    );
    const [shell, sleeper] = pids();
    strictEqual(started, shell);
    // The shell ignores SIGTERM (SIGKILL after the grace); its sleeps are ended with it.
    ok(!alive(shell), "the child is gone");
    ok(!alive(sleeper), "what it started is gone");
  } finally {
    for (const pid of pids()) {
      try {
        if (pid > 0) Deno.kill(pid, "SIGKILL");
      } catch { /* already ended */ }
    }
    await Deno.remove(pidFile);
  }
});

Deno.test("run with group: a child that ends in time gives its output, and progress is reported while it runs long", async () => {
  const reports: number[] = [];
  const r = await new DenoRunner(5000).run(["bash", "-c", "sleep 0.4; echo out; exit 2"], {
    group: true,
    allowFailure: true,
    progress: { afterMs: 100, everyMs: 100, report: (ms) => reports.push(ms) },
  });
  strictEqual(r.code, 2);
  strictEqual(r.stdout, "out\n");
  ok(reports.length >= 2, String(reports));
  ok(reports[0] >= 100, String(reports));
});
