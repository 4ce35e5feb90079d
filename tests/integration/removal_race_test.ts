/**
 * prune and cleanup against a spawn of the same name (issue 20 §7). Each judges a session gone
 * or finished, has history record its files (waiting up to 5 s for a busy database), then removes
 * them. A spawn of the name in that window used to lose its meta to the removal: the new session
 * ran on without agent, alias or pane ids. Both now look again under the project's spawn lock and
 * leave another run's files alone.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { Runner, RunOptions, RunResult } from "../../src/base/runner.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { type LisaResult, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { endStray, readIf, spawn } from "./lifecycle_helpers.ts";

/**
 * History has the new run of `name` (`runId`) open: its removal recorded only the old run
 * (it used to record before the spawn lock, and a spawn landing first had its new run closed
 * with the old one's reason).
 */
async function newRunOpenInHistory(world: World, name: string, runId: string): Promise<void> {
  const shown = await world.lisaInProcess(["history", "show", name, "--json"]);
  strictEqual(shown.code, 0, shown.stdout + shown.stderr);
  const run = shown.json as { runId: string; endedAt: string | null; endReason: string | null };
  strictEqual(run.runId, runId, shown.stdout);
  strictEqual(run.endedAt, null, shown.stdout);
  strictEqual(run.endReason, null, shown.stdout);
}

Deno.test("a spawn of the name while prune removes a finished session keeps its files: prune leaves the new run alone", async () => {
  const world = await makeWorld();
  try {
    const name = "lisa-job";
    const old = await spawn(world, ["--command", "true", "--session", name]);
    const meta = `${world.runtimeDir}/.lisa-${old.projectHash}-session-${name}-meta.json`;
    ok(
      await waitFor(async () => {
        const r = await world.lisaInProcess(["session", "status", "--session", name, "--json"]);
        return r.json?.sessionState === "completed";
      }, 20_000),
      "the first run never finished",
    );
    // The done file comes just before the wrapper exits: prune takes the pane once it is dead
    // (a running pane is live to it), so the test waits for that too.
    const dead = ["display-message", "-p", "-t", `=${name}:`, "#{pane_dead}"];
    ok(
      await waitFor(
        async () => (await world.tmux(old.socketPath, dead)).stdout.trim() === "1",
        20_000,
      ),
      "the first run's pane never ended",
    );
    // The spawn comes right after prune closed the finished tmux session (the name is free)
    // and before it removes the files: deterministically, where history's wait used to be.
    const real = new DenoRunner(20_000);
    let again: LisaResult | undefined;
    const runner: Runner = {
      async run(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
        const result = await real.run(argv, options);
        if (again === undefined && argv.includes("kill-session") && argv.includes(`=${name}:`)) {
          again = await world.lisa([
            "session",
            "spawn",
            "--command",
            "sleep 60",
            "--session",
            name,
            "--json",
          ]);
        }
        return result;
      },
    };
    const pruned = await world.lisaInProcess(
      ["session", "prune", "--older-than", "0s", "--json"],
      { runner },
    );
    strictEqual(pruned.code, 0, pruned.stdout + pruned.stderr);
    strictEqual(again?.code, 0, again?.stdout);
    const runId = String(again?.json?.runId);
    deepStrictEqual(
      (pruned.json?.kept as { session: string; reason: string }[]).map((
        k,
      ) => [k.session, k.reason]),
      [[name, "live"]],
    );
    deepStrictEqual(pruned.json?.pruned, []);
    strictEqual(JSON.parse(readIf(meta) ?? "{}").runId, runId, "the new run's meta is gone");
    const status = await world.lisaInProcess(["session", "status", "--session", name, "--json"]);
    ok(["just_started", "in_progress"].includes(String(status.json?.sessionState)), status.stdout);
    await newRunOpenInHistory(world, name, runId);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a spawn of the name while cleanup removes a gone session's files keeps its own: cleanup leaves the new run alone", async () => {
  const world = await makeWorld();
  try {
    const name = "lisa-job";
    const old = await spawn(world, ["--command", "sleep 60", "--session", name]);
    const meta = `${world.runtimeDir}/.lisa-${old.projectHash}-session-${name}-meta.json`;
    // Its server dies (its files stay, an hour old; tmux leaves its socket file), so cleanup
    // asks tmux about it, and that question is where the spawn comes in.
    strictEqual((await world.tmux(old.socketPath, ["kill-server"])).code, 0);
    ok(
      await waitFor(async () =>
        /no server|error connecting/i.test(
          (await world.tmux(old.socketPath, ["list-sessions"])).stderr,
        ), 10_000),
      "the server did not end",
    );
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const e of Deno.readDirSync(world.runtimeDir)) {
      if (e.name.includes(name)) Deno.utimeSync(`${world.runtimeDir}/${e.name}`, hourAgo, hourAgo);
    }
    const real = new DenoRunner(20_000);
    let again: LisaResult | undefined;
    const runner: Runner = {
      async run(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
        const result = await real.run(argv, options);
        if (again === undefined && argv.includes("list-sessions")) {
          again = await world.lisa([
            "session",
            "spawn",
            "--command",
            "sleep 60",
            "--session",
            name,
            "--json",
          ]);
        }
        return result;
      },
    };
    const cleaned = await world.lisaInProcess(["cleanup", "--json"], { runner });
    strictEqual(cleaned.code, 0, cleaned.stdout + cleaned.stderr);
    strictEqual(again?.code, 0, again?.stdout);
    strictEqual(
      JSON.parse(readIf(meta) ?? "{}").runId,
      again?.json?.runId,
      "the new run's meta is gone",
    );
    const status = await world.lisaInProcess(["session", "status", "--session", name, "--json"]);
    ok(["just_started", "in_progress"].includes(String(status.json?.sessionState)), status.stdout);
    await newRunOpenInHistory(world, name, String(again?.json?.runId));
  } finally {
    await endStray();
    await world.dispose();
  }
});
