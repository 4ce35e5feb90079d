import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  childPids,
  hasProcFs,
  parseInputWait,
  subtree,
  waitsForTerminalInput,
  wchanWaitsForInput,
} from "../../../src/proc/table.ts";

const linux = hasProcFs();

/** Runs `sh -c script` until `body` is done, then kills it. */
async function withShell(
  script: string,
  body: (pid: number) => void | Promise<void>,
): Promise<void> {
  const child = new Deno.Command("sh", { args: ["-c", script], stdout: "null", stderr: "null" })
    .spawn();
  try {
    await body(child.pid);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  }
}

/** Waits until `pid` has a child that runs `sleep` (the shell forks, then the child execs). */
async function childrenOf(pid: number): Promise<number[]> {
  for (let i = 0; i < 300; i++) {
    const kids = childPids(pid);
    if (kids.length > 0 && subtree(pid).at(-1)?.argv[0] === "sleep") return kids;
    await new Promise((r) => setTimeout(r, 10));
  }
  return [];
}

Deno.test({
  name: "subtree finds the child of a single-threaded process (its task dir is not listed)",
  ignore: !linux,
  fn: () =>
    withShell("sleep 30 & wait", async (pid) => {
      const kids = await childrenOf(pid);
      ok(kids.length === 1, `children of the shell: ${kids}`);
      deepStrictEqual(childPids(pid, 1), kids);
      const tree = subtree(pid);
      deepStrictEqual(tree.map((p) => p.pid), [pid, ...kids]);
      deepStrictEqual(tree[1].argv, ["sleep", "30"]);
    }),
});

Deno.test({
  name: "subtree finds children of a multi-threaded process (this Deno) across its tasks",
  ignore: !linux,
  fn: () =>
    withShell("sleep 30", (pid) => {
      ok(Deno.readDirSync(`/proc/${Deno.pid}/task`).next().value !== undefined);
      const tree = subtree(Deno.pid);
      ok(tree.some((p) => p.pid === pid), `the spawned shell ${pid} is in this process's tree`);
      ok(childPids(Deno.pid).includes(pid));
    }),
});

Deno.test("a wait for keyboard input is read from /proc/<pid>/syscall (read on a tty, select on fd 0)", () => {
  const tty = (fd: number) => fd === 0;
  // read(0, …) on the terminal: `cat`, a shell's `read`.
  strictEqual(
    parseInputWait("0 0x0 0x55695e322f40 0x1000 0x0 0x0 0x0 0x7ffe 0x7f44", "x86_64", tty),
    true,
  );
  // read on a pipe or file is no wait for a person.
  strictEqual(
    parseInputWait("0 0x3 0x5569 0x1000 0x0 0x0 0x0 0x7ffe 0x7f44", "x86_64", tty),
    false,
  );
  // pselect6(1, …): readline watching fd 0 alone (interactive bash, the Python REPL).
  strictEqual(
    parseInputWait("270 0x1 0x7ffe 0x0 0x0 0x0 0x7ffe 0x7ffe 0x7f44", "x86_64", tty),
    true,
  );
  // select over more descriptors says nothing about which one it waits for.
  strictEqual(
    parseInputWait("270 0x5 0x7ffe 0x0 0x0 0x0 0x7ffe 0x7ffe 0x7f44", "x86_64", tty),
    false,
  );
  // nanosleep, epoll (node), a running process, an arch not listed: no.
  strictEqual(parseInputWait("230 0x0 0x0 0x7ffe 0x0 0x0 0x0 0x7ffe 0x7f44", "x86_64", tty), false);
  strictEqual(
    parseInputWait("281 0xd 0x7ffe 0x400 0xffffffff 0x0 0x8 0x7ffe 0x7f44", "x86_64", tty),
    false,
  );
  strictEqual(parseInputWait("running", "x86_64", tty), false);
  strictEqual(
    parseInputWait("0 0x0 0x5569 0x1000 0x0 0x0 0x0 0x7ffe 0x7f44", "riscv64", tty),
    false,
  );
  // aarch64 numbers: read is 63.
  strictEqual(
    parseInputWait("63 0x0 0x5569 0x1000 0x0 0x0 0x0 0x7ffe 0x7f44", "aarch64", tty),
    true,
  );
  strictEqual(
    parseInputWait("0 0x0 0x5569 0x1000 0x0 0x0 0x0 0x7ffe 0x7f44", "aarch64", tty),
    false,
  );
});

Deno.test("waitsForTerminalInput: false for this process, and for a pid that does not exist", () => {
  strictEqual(waitsForTerminalInput(Deno.pid), false);
  strictEqual(waitsForTerminalInput(2 ** 22 + 7), false);
});

Deno.test("without /proc/<pid>/syscall (Yama), the terminal read is told by wchan and fd 0", () => {
  strictEqual(wchanWaitsForInput("wait_woken", () => true), true);
  strictEqual(wchanWaitsForInput("n_tty_read\n", () => true), true);
  // fd 0 not a terminal (a pipe, a file): no.
  strictEqual(wchanWaitsForInput("wait_woken", () => false), false);
  // Sleeping, polling, unreadable: no.
  strictEqual(wchanWaitsForInput("hrtimer_nanosleep", () => true), false);
  strictEqual(wchanWaitsForInput("poll_schedule_timeout.constprop.0", () => true), false);
  strictEqual(wchanWaitsForInput(null, () => true), false);
});
