/**
 * The incremental and inventory flows an orchestrator built on the older Go lisa's skill relies
 * on, beyond field names (`tests/compat/` checks those): handoff and list deltas through cursor
 * files, stale metadata, monitor's handoff stream.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { processesOf, spawn, waitPane } from "./lifecycle_helpers.ts";

Deno.test("handoff --cursor-file returns only the output since the previous handoff", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, [
      "--command",
      'echo first-line; read -r x; echo "got $x"; exec sleep 300',
    ]);
    await waitPane(world, s, "first-line");
    const cursor = `${world.base}/handoff.cursor`;
    const handoff = async () => {
      const r = await world.lisaInProcess([
        "session",
        "handoff",
        "--session",
        s.session,
        "--cursor-file",
        cursor,
        "--json",
      ]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      return r.json!;
    };
    const first = await handoff();
    ok(String(first.summary).includes("first-line"), String(first.summary));
    strictEqual(first.deltaFrom, undefined, "no cursor yet: the last lines, no delta");
    strictEqual(Deno.readTextFileSync(cursor).trim(), first.nextOffset);

    const quiet = await handoff();
    strictEqual(quiet.deltaCount, 0, JSON.stringify(quiet));
    strictEqual(quiet.summary, "");

    await world.tmux(s.socketPath, ["send-keys", "-t", `=${s.session}:`, "hello", "Enter"]);
    await waitPane(world, s, "got hello");
    const next = await handoff();
    ok(String(next.summary).includes("got hello"), String(next.summary));
    ok(!String(next.summary).includes("first-line"), String(next.summary));
    strictEqual(next.nextAction, "wait");
  } finally {
    await world.lisaInProcess(["session", "kill-all"]);
    await world.dispose();
  }
});

Deno.test("list --delta-json --cursor-file reports sessions added, removed and changed", async () => {
  const world = await makeWorld();
  try {
    const cursor = `${world.base}/list.cursor`;
    const delta = async () => {
      const r = await world.lisaInProcess([
        "session",
        "list",
        "--delta-json",
        "--cursor-file",
        cursor,
        "--json-min",
      ]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      return r.json!.delta as { added: string[]; removed: string[]; reset: boolean };
    };
    const a = await spawn(world, ["--command", "sleep 300"]);
    const b = await spawn(world, ["--command", "sleep 300"]);
    const first = await delta();
    strictEqual(first.reset, true);
    deepStrictEqual(first.added.sort(), [a.session, b.session].sort());
    const again = await delta();
    deepStrictEqual([again.reset, again.added, again.removed], [false, [], []]);
    await world.lisaInProcess(["session", "kill", "--session", a.session]);
    const after = await delta();
    deepStrictEqual([after.added, after.removed], [[], [a.session]]);
  } finally {
    await world.lisaInProcess(["session", "kill-all"]);
    await world.dispose();
  }
});

Deno.test("list --stale reports metadata whose tmux session is gone; prune preview is read-only", async () => {
  const world = await makeWorld();
  try {
    const live = await spawn(world, ["--command", "sleep 300"]);
    const gone = await spawn(world, ["--command", "sleep 300"]);
    // Ended behind lisa's back: its metadata stays. Aged past cleanup's grace period.
    await world.tmux(gone.socketPath, ["kill-session", "-t", `=${gone.session}`]);
    // Its heartbeat loop may be between its liveness check and its write: let it end first, or
    // it rewrites the heartbeat after the files were aged (a race seen under a parallel suite).
    ok(
      await waitFor(async () => (await processesOf(gone.runId)).length === 0, 10_000),
      "the gone session's processes never ended",
    );
    const old = new Date(Date.now() - 2 * 3_600_000);
    for (const e of Deno.readDirSync(world.runtimeDir)) {
      if (e.name.includes(`-${gone.session}-`)) {
        Deno.utimeSync(`${world.runtimeDir}/${e.name}`, old, old);
      }
    }
    const r = await world.lisaInProcess([
      "session",
      "list",
      "--stale",
      "--prune-preview",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    const j = r.json!;
    // Listed as lost (until pruned), and reported stale.
    deepStrictEqual(j.sessions, [live.session, gone.session]);
    deepStrictEqual(
      (j.items as { session: string; lost: boolean }[]).map((i) => [i.session, i.lost]),
      [[live.session, false], [gone.session, true]],
    );
    strictEqual(j.historicalCount, 2);
    strictEqual(j.staleCount, 1);
    deepStrictEqual((j.stale as { session: string }[]).map((s) => s.session), [gone.session]);
    const preview = j.prunePreview as { files: string[]; count: number; sessions: string[] };
    strictEqual(preview.count, preview.files.length);
    deepStrictEqual(preview.sessions, [gone.session]);
    ok(preview.files.some((f) => f.endsWith(`-${gone.session}-meta.json`)), preview.files.join());
    ok(preview.files.every((f) => !f.includes(live.session)), preview.files.join());
    // A preview removes nothing.
    const metas = [...Deno.readDirSync(world.runtimeDir)].filter((e) =>
      e.name.includes(gone.session) && e.name.endsWith("-meta.json")
    );
    strictEqual(metas.length, 1);
  } finally {
    await world.lisaInProcess(["session", "kill-all"]);
    await world.dispose();
  }
});

Deno.test("monitor --emit-handoff streams a handoff per poll and keeps the last offset in a file", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "echo done-here"]);
    const cursor = `${world.base}/monitor.cursor`;
    const r = await world.lisaInProcess([
      "session",
      "monitor",
      "--session",
      s.session,
      "--poll-interval",
      "0.2",
      "--json-min",
      "--stream-json",
      "--emit-handoff",
      "--handoff-cursor-file",
      cursor,
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const handoffs = lines.filter((l) => l.type === "handoff");
    strictEqual(handoffs.length, lines.filter((l) => l.type === "poll").length);
    const last = handoffs[handoffs.length - 1];
    strictEqual(last.sessionState, "completed");
    strictEqual(last.nextAction, "capture_and_kill");
    strictEqual(Deno.readTextFileSync(cursor).trim(), last.nextOffset);
    strictEqual(lines[lines.length - 1].type, "final");
  } finally {
    await world.lisaInProcess(["session", "kill-all"]);
    await world.dispose();
  }
});

Deno.test("spawn --cleanup-all-hashes removes what the same name left under other project hashes", async () => {
  const world = await makeWorld();
  try {
    const plant = (name: string) => {
      const path = `${world.runtimeDir}/.lisa-deadbeef-session-${name}-state.json`;
      Deno.writeTextFileSync(path, "{}", { mode: 0o600 });
      return path;
    };
    const kept = plant("lisa-hash-a");
    const gone = plant("lisa-hash-b");
    await spawn(world, ["--command", "sleep 300", "--session", "lisa-hash-a"]);
    await spawn(world, [
      "--command",
      "sleep 300",
      "--session",
      "lisa-hash-b",
      "--cleanup-all-hashes",
    ]);
    strictEqual(Deno.statSync(kept).isFile, true);
    strictEqual(
      (() => {
        try {
          Deno.statSync(gone);
          return true;
        } catch {
          return false;
        }
      })(),
      false,
    );
    // The new session's own artifacts stay.
    const own = [...Deno.readDirSync(world.runtimeDir)].filter((e) =>
      e.name.includes("-session-lisa-hash-b-meta.json")
    );
    strictEqual(own.length, 1);
  } finally {
    await world.lisaInProcess(["session", "kill-all"]);
    await world.dispose();
  }
});
