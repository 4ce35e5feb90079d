/**
 * Parallel spawns of one session name (issue 20 §7): exactly one creates the session, the
 * others answer session_already_exists and touch nothing of it — not its startup script (the
 * session would die with exit 127 before its command ran), not its meta (it would run without
 * agent, alias or pane ids).
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn } from "./lifecycle_helpers.ts";

Deno.test("parallel spawns of one name, after an earlier run of it lost its tmux session: one wins, and its session runs with its meta", async () => {
  const world = await makeWorld();
  try {
    for (let round = 0; round < 3; round++) {
      const name = `lisa-race-${round}`;
      // An earlier run whose tmux session is gone while its files stay: each spawn of the name
      // then has stale files to clear first (history records them), which is where the
      // losers used to remove the winner's fresh files.
      const old = await spawn(world, ["--command", "sleep 60", "--session", name]);
      const closed = await world.tmux(old.socketPath, ["kill-session", "-t", `=${name}`]);
      strictEqual(closed.code, 0, closed.stderr);
      const results = await Promise.all(
        [0, 1, 2, 3].map(() =>
          world.lisa(["session", "spawn", "--command", "sleep 60", "--session", name, "--json"])
        ),
      );
      const winners = results.filter((r) => r.code === 0);
      strictEqual(winners.length, 1, results.map((r) => r.stdout).join("\n"));
      for (const r of results.filter((r) => r.code !== 0)) {
        strictEqual(r.json?.errorCode, "session_already_exists", r.stdout + r.stderr);
      }
      const runId = String(winners[0].json?.runId);
      const meta = JSON.parse(
        Deno.readTextFileSync(
          `${world.runtimeDir}/.lisa-${old.projectHash}-session-${name}-meta.json`,
        ),
      );
      strictEqual(meta.runId, runId, `round ${round}: the meta is the winner's`);
      // The winner's command runs (its startup script was not removed before tmux ran it).
      const status = await world.lisaInProcess(["session", "status", "--session", name, "--json"]);
      ok(
        ["just_started", "in_progress"].includes(String(status.json?.sessionState)),
        `round ${round}: ${status.stdout}`,
      );
      const env = await world.tmux(old.socketPath, [
        "show-environment",
        "-t",
        `=${name}`,
        "LISA_RUN_ID",
      ]);
      strictEqual(env.stdout.trim(), `LISA_RUN_ID=${runId}`);
    }
  } finally {
    await endStray();
    await world.dispose();
  }
});
