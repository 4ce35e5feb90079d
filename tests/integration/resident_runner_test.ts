/**
 * The resident runner (`src/tmux/resident.ts`) against real tmux on private sockets: its answers
 * are those of one-shot tmux, its calls start no process once a client is open, it never opens
 * a client to a server that is not running, and a server killed and started again under it is
 * read afresh (no reply of the dead client is used).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { commandsOfArgv, ResidentRunner } from "../../src/tmux/resident.ts";
import { ControlChannel } from "../../src/tmux/control.ts";
import { Tmux } from "../../src/tmux/tmux.ts";
import type { Runner, RunOptions, RunResult } from "../../src/base/runner.ts";

/** Counts the processes the resident runner starts through its fallback. */
class Counting implements Runner {
  readonly calls: string[][] = [];
  private readonly inner = new DenoRunner(10_000);
  run(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
    this.calls.push([...argv]);
    return this.inner.run(argv, options);
  }
}

async function setup() {
  const world = await makeWorld();
  const socket = `${world.socketDir}/r.sock`;
  const bufferDir = await Deno.makeTempDir({ dir: world.base, prefix: "buf-" });
  const counting = new Counting();
  const resident = new ResidentRunner(counting, { bufferDir, timeoutMs: 10_000 });
  const oneShot = new Tmux(new DenoRunner(10_000), socket);
  const viaResident = new Tmux(resident, socket);
  return { world, socket, bufferDir, counting, resident, oneShot, viaResident };
}

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

Deno.test("one-shot argv words split back into tmux's commands", () => {
  deepStrictEqual(commandsOfArgv(["a", "x\\;", ";", "b", "y;", "c"]), [["a", "x;"], ["b", "y"], [
    "c",
  ]]);
});

Deno.test("a resident client answers chains exactly as one-shot tmux does", async () => {
  const t = await setup();
  try {
    await t.oneShot.run([["new-session", "-d", "-s", "alpha", "sh", "-c", "echo hello; sleep 60"]]);
    await waitFor(
      async () =>
        (await t.oneShot.run([["capture-pane", "-p", "-t", "=alpha:"]])).stdout
          .includes("hello"),
      5000,
      20,
    );
    const chains: string[][][] = [
      [["display-message", "-p", "-t", "=alpha:", "#{session_name} #{pane_dead}"]],
      [["display-message", "-p", "one"], ["display-message", "-p", "two;"]],
      // tmux stops at the failing command: "after" is never printed, by either.
      [["display-message", "-p", "x"], ["has-session", "-t", "=missing"], [
        "display-message",
        "-p",
        "after",
      ]],
      [[
        "if-shell",
        "-F",
        "-t",
        "=alpha:",
        "#{pane_dead}",
        "display-message -p dead",
        "display-message -p live ; display-message -p more",
      ]],
      [["capture-pane", "-p", "-J", "-t", "=alpha:"]],
      [["list-panes", "-a", "-F", "#{session_name}\x1f#{pane_dead}"]],
      [["display-message", "-p", 'it\'s "$HOME" #{session_name}']],
    ];
    for (const chain of chains) {
      const want = await t.oneShot.run(chain);
      const got = await t.viaResident.run(chain);
      deepStrictEqual(got, want, JSON.stringify(chain));
    }
    strictEqual(t.resident.stats.resident, chains.length);
    // One process for the whole series: the control client itself (the first chain names alpha).
    deepStrictEqual(t.counting.calls, []);
    strictEqual(t.resident.stats.opened, 1);
  } finally {
    await t.resident.close();
    await t.world.dispose();
  }
});

Deno.test("creating and destroying commands run one-shot, and nothing opens a client to no server", async () => {
  const t = await setup();
  try {
    const none = await t.viaResident.run([["list-sessions"]]);
    strictEqual(none.success, false);
    ok(/no server running|error connecting/.test(none.stderr), none.stderr);
    strictEqual(t.resident.stats.opened, 0);
    await t.viaResident.run([["new-session", "-d", "-s", "beta", "sleep", "60"]]);
    await t.viaResident.run([["has-session", "-t", "=beta"]]);
    strictEqual(t.resident.stats.opened, 1);
    const before = t.counting.calls.length;
    const k = await t.viaResident.run([["kill-session", "-t", "=beta"]]);
    strictEqual(k.success, true);
    strictEqual(t.counting.calls.length, before + 1, "kill-session ran as its own process");
    deepStrictEqual(t.counting.calls.at(-1), [
      "tmux",
      "-u",
      "-S",
      t.socket,
      "kill-session",
      "-t",
      "=beta",
    ]);
  } finally {
    await t.resident.close();
    await t.world.dispose();
  }
});

Deno.test("text for load-buffer reaches the pane verbatim through a private file, removed after", async () => {
  const t = await setup();
  try {
    await t.oneShot.run([["new-session", "-d", "-s", "gamma", "cat"]]);
    const text = "line one $(touch nope) ';' \\\nline two\ttab";
    const r = await t.viaResident.run([
      ["has-session", "-t", "=gamma:"],
      ["load-buffer", "-b", "lisa-test", "-"],
      ["paste-buffer", "-p", "-d", "-b", "lisa-test", "-t", "=gamma:"],
    ], { stdin: text });
    strictEqual(r.success, true, r.stderr);
    strictEqual(t.resident.stats.resident, 1);
    const shown = await waitFor(
      async () => {
        const c = await t.oneShot.run([["capture-pane", "-p", "-t", "=gamma:"]]);
        return c.stdout.includes("line two") ? c.stdout : null;
      },
      5000,
      20,
    );
    ok(shown!.includes("line one $(touch nope) ';' \\"), shown!);
    deepStrictEqual([...Deno.readDirSync(t.bufferDir)], []);
    strictEqual((await t.oneShot.run([["list-buffers"]])).stdout, "");
  } finally {
    await t.resident.close();
    await t.world.dispose();
  }
});

Deno.test("a server killed and started again under a resident client is read afresh", async () => {
  const t = await setup();
  try {
    await t.oneShot.run([["new-session", "-d", "-s", "first", "sleep", "60"]]);
    const a = await t.viaResident.run([["list-sessions", "-F", "#{session_name}"]]);
    strictEqual(a.stdout, "first\n");
    const oldPid = Number((await t.viaResident.run([["display-message", "-p", "#{pid}"]])).stdout);
    await t.oneShot.run([["kill-server"]]);
    // A server told to exit waits for its clients to leave: the restart comes once it is gone
    // (a new-session reaching the dying server is refused).
    await waitFor(() => !alive(oldPid), 5000, 10);
    const started = await t.oneShot.run([["new-session", "-d", "-s", "second", "sleep", "60"]]);
    strictEqual(started.success, true, started.stderr);
    const b = await t.viaResident.run([["list-sessions", "-F", "#{session_name}"]]);
    strictEqual(b.stdout, "second\n");
    const newPid = Number((await t.viaResident.run([["display-message", "-p", "#{pid}"]])).stdout);
    ok(newPid !== oldPid, `${newPid} ${oldPid}`);
    strictEqual(t.resident.stats.opened, 2);
    // A server gone for good: the answer is tmux's own, from a one-shot call.
    await t.oneShot.run([["kill-server"]]);
    const c = await t.viaResident.run([["list-sessions", "-F", "#{session_name}"]]);
    strictEqual(c.success, false);
    deepStrictEqual(t.resident.openSockets(), []);
  } finally {
    await t.resident.close();
    await t.world.dispose();
  }
});

Deno.test("a pane that prints tmux's framing lines (%end, %begin) is captured whole over a control client", async () => {
  const t = await setup();
  let channel: ControlChannel | null = null;
  try {
    // Lines shaped like the end of a reply block, for every tag a capture in the next seconds
    // may get (tmux's tag: the time in seconds and its command number), then a block that never
    // ends. Over the control stream they cut the capture short, or left it waiting forever.
    const script = "awk -v t=$(date +%s) 'BEGIN { for (s = t - 1; s <= t + 15; s++) " +
      'for (n = 1; n <= 3000; n++) print "%end " s " " n " 1"; ' +
      'print "%begin 1 1 1"; print "LASTLINE" }\'; sleep 60';
    await t.oneShot.run([
      ["new-session", "-d", "-s", "keep", "sleep", "60"],
      ["set-option", "-g", "history-limit", "60000"],
      ["new-session", "-d", "-s", "forger", "sh", "-c", script],
    ]);
    const capture = ["capture-pane", "-p", "-J", "-t", "=forger:", "-S", "-"];
    const want = await waitFor(async () => {
      const r = await t.oneShot.run([capture]);
      return r.stdout.includes("LASTLINE") ? r : null;
    }, 10_000);
    ok(want !== null && want.stdout.split("\n").length > 50_000, "the pane never printed it all");
    // The MCP server's path: the resident runner.
    deepStrictEqual(await t.viaResident.run([capture]), want);
    strictEqual(t.resident.stats.resident, 1);
    // watch's path: a read-only channel, one command per line.
    channel = ControlChannel.open(t.socket, "keep", { captureDir: t.bufferDir });
    ok(channel !== null);
    const replies = await channel.run([capture, ["display-message", "-p", "after"]]);
    deepStrictEqual(replies, [{ ok: true, output: want!.stdout }, { ok: true, output: "after\n" }]);
    // Nothing left behind: no capture file, no buffer.
    deepStrictEqual([...Deno.readDirSync(t.bufferDir)], []);
    strictEqual((await t.oneShot.run([["list-buffers"]])).stdout, "");
  } finally {
    await channel?.close();
    await t.resident.close();
    await t.world.dispose();
  }
});
