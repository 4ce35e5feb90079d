/**
 * `session monitor` against real tmux with the fake agents: stops, gates and the exit codes of
 * seed 003 (0 success, 2 non-success, 1 errors).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, type World } from "../helpers/world.ts";
import { endStray, spawn, waitDone } from "./lifecycle_helpers.ts";

interface Final {
  session: string;
  finalState: string;
  exitReason: string;
  polls: number;
  exitCode: number | null;
  nextOffset: string | null;
  finalStatus: string;
  finalReport: Record<string, unknown>;
  [key: string]: unknown;
}

async function monitor(
  world: World,
  session: string,
  args: string[],
  env?: Record<string, string>,
): Promise<{ code: number; final: Final; lines: Record<string, unknown>[] }> {
  const r = await world.lisaInProcess(
    ["session", "monitor", "--session", session, "--stream-json", ...args],
    { env },
  );
  const lines = r.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const final = lines[lines.length - 1] as Final;
  strictEqual(final.type, "final", r.stdout + r.stderr);
  return { code: r.code, final, lines: lines.slice(0, -1) };
}

Deno.test("monitor ends on terminal states with exit 0 for completed and 2 otherwise", async () => {
  const world = await makeWorld();
  try {
    const ok0 = await spawn(world, ["--mode", "exec", "--prompt", "hi"]);
    const exit3 = await spawn(world, ["--command", "exit 3"]);
    const [a, b, c] = await Promise.all([
      monitor(world, ok0.session, ["--poll-interval", "0.2"]),
      monitor(world, exit3.session, ["--poll-interval", "0.2"]),
      monitor(world, "lisa-never-there", ["--poll-interval", "0.2"]),
    ]);
    strictEqual(a.code, 0, JSON.stringify(a.final));
    strictEqual(a.final.exitReason, "completed", JSON.stringify(a.final));
    strictEqual(a.final.exitCode, 0);
    strictEqual(b.code, 2, JSON.stringify(b.final));
    strictEqual(b.final.exitReason, "crashed");
    strictEqual(b.final.exitCode, 3);
    ok(typeof b.final.outputFile === "string");
    strictEqual(c.code, 2, JSON.stringify(c.final));
    strictEqual(c.final.exitReason, "not_found");
    strictEqual(c.final.polls, 1);
    // One stream line per poll, each a poll record.
    strictEqual(a.lines.length, a.final.polls);
    ok(a.lines.every((l, i) => l.type === "poll" && l.poll === i + 1));
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("an agent quiet after a 3 s CPU burst is waiting_input within ~10 s at 1 s polls", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "codex"], { FAKE_BEHAVIOR: "burst:3" });
    const first = await monitor(world, s.session, ["--poll-interval", "1", "--max-polls", "15"]);
    strictEqual(first.code, 0, JSON.stringify(first.final.finalReport));
    strictEqual(first.final.exitReason, "waiting_input");
    strictEqual(first.final.finalState, "waiting_input");
    // Busy or in grace before that, never waiting too early.
    ok(first.lines.slice(0, -1).every((l) => l.sessionState !== "waiting_input"));

    // The grace window is the session's: a new monitor does not restart it.
    const again = await monitor(world, s.session, ["--poll-interval", "1"]);
    strictEqual(again.code, 0, JSON.stringify(again.final));
    strictEqual(again.final.polls, 1);
    strictEqual(again.final.exitReason, "waiting_input");

    const terminal = await monitor(world, s.session, ["--expect", "terminal"]);
    strictEqual(terminal.code, 2, JSON.stringify(terminal.final));
    strictEqual(terminal.final.exitReason, "expected_terminal_got_waiting_input");
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("monitor gates: until-state, max-polls, timeout, stop-on-waiting false", async () => {
  const world = await makeWorld();
  try {
    const busy = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "sleep-child:60" });
    const idle = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    const [state, polls, timeout] = await Promise.all([
      monitor(world, busy.session, ["--poll-interval", "0.5", "--until-state", "in_progress"]),
      monitor(world, idle.session, ["--poll-interval", "0.1", "--max-polls", "2"]),
      monitor(world, busy.session, [
        "--poll-interval",
        "0.3",
        "--timeout-seconds",
        "1",
        "--stop-on-waiting",
        "false",
      ]),
    ]);
    strictEqual(state.code, 0, JSON.stringify(state.final));
    strictEqual(state.final.exitReason, "in_progress");
    strictEqual(state.final.finalState, "in_progress");
    strictEqual(polls.code, 2, JSON.stringify(polls.final));
    strictEqual(polls.final.exitReason, "max_polls_exceeded");
    strictEqual(polls.final.polls, 2);
    // The older Go lisa's timeout contract; the last poll's state stays in finalReport.
    strictEqual(polls.final.finalState, "timeout");
    strictEqual(polls.final.finalStatus, "timeout");
    strictEqual(timeout.code, 2, JSON.stringify(timeout.final));
    strictEqual(timeout.final.exitReason, "timeout");
    strictEqual(timeout.final.finalState, "timeout");
    strictEqual(timeout.final.finalReport.sessionState, "in_progress");

    // Past grace the idle agent waits; with --stop-on-waiting false monitor keeps polling.
    const waiting = await monitor(world, idle.session, ["--poll-interval", "1"]);
    strictEqual(waiting.final.exitReason, "waiting_input");
    const goOn = await monitor(world, idle.session, [
      "--poll-interval",
      "0.1",
      "--max-polls",
      "3",
      "--stop-on-waiting=false",
    ]);
    strictEqual(goOn.code, 2, JSON.stringify(goOn.final));
    strictEqual(goOn.final.exitReason, "max_polls_exceeded");
    strictEqual(goOn.final.finalState, "timeout");
    strictEqual(goOn.final.finalReport.sessionState, "waiting_input");
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("a marker only in the echoed prompt does not count; printed by the agent it does", async () => {
  const world = await makeWorld();
  try {
    const prompt = "reply with MARK_4711 when done";
    const s = await spawn(world, [
      "--prompt",
      prompt,
      "--command",
      `printf '> %s\\n' '${prompt}'; sleep 3; echo MARK_4711; sleep 60`,
    ]);
    const r = await monitor(world, s.session, [
      "--poll-interval",
      "0.25",
      "--until-marker",
      "MARK_4711",
      "--stop-on-waiting",
      "false",
      "--max-polls",
      "200",
    ]);
    strictEqual(r.code, 0, JSON.stringify(r.final));
    strictEqual(r.final.exitReason, "marker_found");
    strictEqual(r.lines[0].markerFound, false);
    ok(r.lines.length >= 2);
    deepStrictEqual(r.final.foundMarkers, ["MARK_4711"]);
    ok(typeof r.final.nextOffset === "string");

    const done = await spawn(world, ["--command", "echo nothing to see"]);
    await waitDone(world, done);
    const expectMarker = await monitor(world, done.session, [
      "--poll-interval",
      "0.2",
      "--until-marker",
      "MARK_4711",
      "--expect",
      "marker",
    ]);
    strictEqual(expectMarker.code, 2, JSON.stringify(expectMarker.final));
    strictEqual(expectMarker.final.exitReason, "expected_marker_got_completed");
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("a marker followed by 1000 lines before the next poll is still found; poll lines carry stderrPolicy", async () => {
  const world = await makeWorld();
  try {
    // The marker is computed by the shell so the command line itself never contains it.
    const s = await spawn(world, [
      "--command",
      "sleep 1; echo MARK_$((4700 + 12)); seq 1 1000; sleep 60",
    ]);
    const r = await monitor(world, s.session, [
      "--poll-interval",
      "2",
      "--until-marker",
      "MARK_4712",
      "--stop-on-waiting",
      "false",
      "--max-polls",
      "5",
    ]);
    strictEqual(r.code, 0, JSON.stringify(r.final));
    strictEqual(r.final.exitReason, "marker_found");
    deepStrictEqual(r.final.markerCounts, { MARK_4712: 1 });
    ok(r.lines.every((l) => l.stderrPolicy === "diagnostic"), JSON.stringify(r.lines));
    strictEqual(r.final.stderrPolicy, "diagnostic");
    const delta = await world.lisaInProcess([
      "session",
      "capture",
      "--session",
      s.session,
      "--delta-from",
      String(r.final.nextOffset),
      "--json",
    ]);
    strictEqual((delta.json?.delta as { reset: boolean }).reset, false);
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("monitor errors exit 1; degraded polls end as degraded_max_polls_exceeded", async () => {
  const world = await makeWorld();
  let holder: Deno.ChildProcess | undefined;
  try {
    const bad = await world.lisaInProcess([
      "session",
      "monitor",
      "--session",
      "lisa-x",
      "--expect",
      "marker",
      "--json",
    ]);
    strictEqual(bad.code, 1, JSON.stringify(bad.json));
    strictEqual(bad.json?.errorCode, "invalid_argument");
    const badName = await world.lisaInProcess(["session", "monitor", "--session", "x", "--json"]);
    strictEqual(badName.code, 1, JSON.stringify(badName.json));

    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    const lock = `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-state.json.lock`;
    const code = `const f = Deno.openSync(${
      JSON.stringify(lock)
    }, {read: true, write: true, create: true});
      f.lockSync(true); console.log("locked"); await new Promise((r) => setTimeout(r, 60000));`;
    holder = new Deno.Command(Deno.execPath(), { args: ["eval", code], stdout: "piped" }).spawn();
    const reader = holder.stdout.getReader();
    await reader.read();
    reader.releaseLock();
    const r = await monitor(world, s.session, ["--poll-interval", "0.1", "--max-polls", "2"], {
      LISA_STATE_LOCK_TIMEOUT_MS: "50",
    });
    strictEqual(r.code, 2, JSON.stringify(r.final));
    strictEqual(r.final.exitReason, "degraded_max_polls_exceeded");
    strictEqual(r.final.finalState, "timeout");
    strictEqual(r.final.finalReport.sessionState, "degraded");
  } finally {
    if (holder) {
      try {
        holder.kill("SIGKILL");
      } catch { /* gone */ }
      await holder.stdout.cancel().catch(() => {});
      await holder.status;
    }
    endStray();
    await world.dispose();
  }
});

Deno.test("a poll interval past the 24.8-day timer limit waits, never polls in a tight loop", async () => {
  const world = await makeWorld();
  let child: Deno.ChildProcess | undefined;
  try {
    const s = await spawn(world, ["--command", "sleep 120"]);
    // 3,000,000 s does not fit a 32-bit timer: setTimeout alone would fire at once.
    child = new Deno.Command(LISA_ARGV[0], {
      args: [
        ...LISA_ARGV.slice(1),
        "session",
        "monitor",
        "--session",
        s.session,
        "--poll-interval",
        "3000000",
        "--max-polls",
        "3",
        "--stream-json",
      ],
      cwd: world.projectRoot,
      env: world.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const ended = await Promise.race([
      child.status.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 4000)),
    ]);
    strictEqual(ended, false, "monitor ended instead of waiting for its next poll");
  } finally {
    if (child) {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.output().catch(() => {});
    }
    endStray();
    await world.dispose();
  }
});
