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
import { type LisaResult, makeWorld, waitFor } from "../helpers/world.ts";
import { endStray, readIf, spawn } from "./lifecycle_helpers.ts";

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
  } finally {
    await endStray();
    await world.dispose();
  }
});
