/**
 * `session status` against real tmux with the fake agents: every state the classifier emits.
 * Sessions that must outlive the grace window share one world, so the suite waits for it once.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { rulesFor } from "../../src/agents/rules/index.ts";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn, waitDone, waitPane } from "./lifecycle_helpers.ts";
import { status, statusUntil } from "./status_helpers.ts";

const pastGrace = (r: { signals: Record<string, unknown> }) => r.signals.inGrace === false;

Deno.test("a session polled right after spawn is just_started", async () => {
  // The product's 8 s window: a first look right after spawn is inside it even on a busy machine.
  const world = await makeWorld({ windows: "product" });
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    // Once it has started (its SessionStart hook run, its prompt drawn) the agent is quiet.
    await waitPane(world, s, "> ");
    const r = await status(world, s.session);
    strictEqual(r.sessionState, "just_started", JSON.stringify(r.signals));
    strictEqual(r.status, "active");
    strictEqual(r.classificationReason, "grace_period");
    strictEqual(r.exitCode, null);
    strictEqual(r.paneStatus, "alive");
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("live sessions past the grace window", async (t) => {
  const world = await makeWorld();
  try {
    const busy = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "busy" });
    const child = await spawn(world, ["--agent", "codex"], { FAKE_BEHAVIOR: "sleep-child:30" });
    const grep = await spawn(
      world,
      ["--agent", "claude", "--prompt", "grep for TODO; run grep -r"],
      {
        FAKE_BEHAVIOR: "idle",
      },
    );
    // Blocked opening a FIFO nobody writes: no process, no terminal read, nothing to type.
    const stuck = await spawn(world, ["--command", "mkfifo hold.fifo && read line < hold.fifo"]);
    const prompt = await spawn(world, [
      "--command",
      `read -p "Continue? [y/N] " answer; echo "answered:$answer"; exit 0`,
    ]);
    const cat = await spawn(world, ["--command", "cat"]);
    const running = await spawn(world, ["--command", "sleep 60"]);
    // A script of many short commands: a poll often lands between two of them.
    const steps = await spawn(world, [
      "--command",
      "while :; do /bin/true; /bin/sleep 0.01; done",
    ]);
    // Let the grace window pass for all of them (counted from each spawn).
    await new Promise((r) => setTimeout(r, world.graceSeconds * 1000 + 500));

    await t.step("a CPU-busy agent is in_progress", async () => {
      const r = await statusUntil(world, busy.session, pastGrace);
      strictEqual(r.sessionState, "in_progress", JSON.stringify(r.signals));
      strictEqual(r.classificationReason, "agent_cpu_busy");
      // A rate over the sampling window (not ps's lifetime average): at or past the agent's busy
      // threshold. A spin loop's share varies with the machine's load (19 % on a loaded 2-core
      // CI box), so the threshold the classifier uses is the bound, not a guess at the share.
      const busyMin = rulesFor("claude").cpu.busyMinPercent;
      ok((r.agentCpu as number) >= busyMin, `agentCpu ${r.agentCpu} < ${busyMin}`);
    });

    await t.step("an agent waiting on a 30 s sleep child is in_progress", async () => {
      const r = await statusUntil(world, child.session, pastGrace);
      strictEqual(r.sessionState, "in_progress");
      strictEqual(r.classificationReason, "agent_child_busy:sleep");
      deepStrictEqual(r.signals.busyChildren, ["sleep"]);
    });

    await t.step(
      "a prompt containing grep still finds the agent, which waits for input",
      async () => {
        const r = await statusUntil(world, grep.session, (x) => x.sessionState === "waiting_input");
        strictEqual(r.status, "idle");
        strictEqual(r.waitingFor, "input");
        strictEqual(typeof r.agentPid, "number");
        strictEqual(r.agent, "claude");
      },
    );

    await t.step(
      "a command at a read prompt waits for input, and a line sent ends it",
      async () => {
        const r = await statusUntil(world, prompt.session, pastGrace);
        strictEqual(r.sessionState, "waiting_input", JSON.stringify(r.signals));
        strictEqual(r.waitingFor, "input");
        strictEqual(r.classificationReason, "command_reading_terminal");
        strictEqual(r.signals.readingTerminal, true);
        const sent = await world.lisaInProcess([
          "session",
          "send",
          "--session",
          prompt.session,
          "--text",
          "y",
          "--enter",
          "--json",
        ]);
        strictEqual(sent.code, 0, sent.stdout + sent.stderr);
        await waitDone(world, prompt);
        const end = await status(world, prompt.session);
        strictEqual(end.sessionState, "completed", JSON.stringify(end));
        await waitPane(world, prompt, "answered:y");
      },
    );

    await t.step("cat reading its terminal waits for input rather than working", async () => {
      const r = await statusUntil(world, cat.session, pastGrace);
      strictEqual(r.sessionState, "waiting_input", JSON.stringify(r.signals));
      strictEqual(r.classificationReason, "command_reading_terminal");
    });

    await t.step("a pane with neither an agent nor any process after grace is stuck", async () => {
      const r = await statusUntil(world, stuck.session, pastGrace);
      strictEqual(r.sessionState, "stuck");
      strictEqual(r.status, "failed");
      strictEqual(r.classificationReason, "no_active_process");
      strictEqual(r.exitCode, null);
    });

    await t.step("a script between two of its commands is never stuck", async () => {
      await statusUntil(world, steps.session, pastGrace);
      // 2 in 25 polls landed between two commands and read stuck/no_active_process.
      const seen = new Map<string, number>();
      for (let i = 0; i < 50; i++) {
        const r = await status(world, steps.session);
        const key = `${r.sessionState}/${r.classificationReason}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      const states = JSON.stringify([...seen]);
      ok([...seen.keys()].every((k) => k.startsWith("in_progress/")), states);
    });

    await t.step("a command running a process is in_progress", async () => {
      const r = await statusUntil(world, running.session, pastGrace);
      strictEqual(r.sessionState, "in_progress");
      strictEqual(r.classificationReason, "command_running:sleep");
    });
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("finished sessions are completed or crashed with their exit code", async () => {
  const world = await makeWorld();
  try {
    const ok0 = await spawn(world, ["--mode", "exec", "--prompt", "hi"], { FAKE_EXIT: "0" });
    const bad = await spawn(world, ["--agent", "codex", "--mode", "exec", "--prompt", "x"], {
      FAKE_EXIT: "4",
    });
    const exit3 = await spawn(world, ["--command", "echo working; exit 3; echo never"]);
    for (const s of [ok0, bad, exit3]) await waitDone(world, s);

    const done = await statusUntil(world, ok0.session, (r) => r.sessionState === "completed");
    strictEqual(done.status, "done");
    strictEqual(done.exitCode, 0);
    const crashed = await statusUntil(world, bad.session, (r) => r.sessionState === "crashed");
    strictEqual(crashed.status, "failed");
    strictEqual(crashed.exitCode, 4);
    const three = await statusUntil(world, exit3.session, (r) => r.sessionState === "crashed");
    strictEqual(three.exitCode, 3);
    ok(/^(pane_exited|done_file):3$/.test(three.classificationReason), three.classificationReason);

    // The output file is written once, at the first terminal status.
    const out = three.outputFile as string;
    ok(Deno.readTextFileSync(out).includes("working"));
    const mtime = Deno.statSync(out).mtime;
    await status(world, exit3.session);
    deepStrictEqual(Deno.statSync(out).mtime, mtime);
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("a missing session is not_found: exit 0, or 1 with --fail-not-found", async () => {
  const world = await makeWorld();
  try {
    const r = await status(world, "lisa-never-spawned");
    strictEqual(r.sessionState, "not_found");
    strictEqual(r.status, "not_found");
    const strict = await world.lisaInProcess([
      "session",
      "status",
      "--session",
      "lisa-never-spawned",
      "--json-min",
      "--fail-not-found",
    ]);
    strictEqual(strict.code, 1);
    strictEqual(strict.json?.sessionState, "not_found");
    // Nothing is created for a session that does not exist.
    strictEqual(
      [...Deno.readDirSync(world.runtimeDir)].some((e) => e.name.includes("never")),
      false,
    );
  } finally {
    await world.dispose();
  }
});

Deno.test("a state lock held by another process makes status degraded (exit 0)", async () => {
  const world = await makeWorld();
  let holder: Deno.ChildProcess | undefined;
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    const lock = `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-state.json.lock`;
    const code = `const f = Deno.openSync(${
      JSON.stringify(lock)
    }, {read: true, write: true, create: true});
      f.lockSync(true); console.log("locked"); await new Promise((r) => setTimeout(r, 60000));`;
    holder = new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = holder.stdout.getReader();
    const first = await reader.read();
    ok(new TextDecoder().decode(first.value).includes("locked"));
    reader.releaseLock();

    const r = await status(world, s.session, { env: { LISA_STATE_LOCK_TIMEOUT_MS: "100" } });
    strictEqual(r.sessionState, "degraded");
    strictEqual(r.status, "degraded");
    strictEqual(r.classificationReason, "state_lock_busy");
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

Deno.test("sessions of a tmux server that died are not_found with server_gone", async () => {
  const world = await makeWorld();
  try {
    const a = await spawn(world, ["--command", "sleep 60"]);
    const b = await spawn(world, ["--command", "sleep 60"]);
    const c = await spawn(world, ["--command", "sleep 60"]);
    // One session gone from a live server: only that session is missing.
    await world.tmux(c.socketPath, ["kill-session", "-t", `=${c.session}`]);
    const one = await status(world, c.session);
    strictEqual(one.sessionState, "not_found");
    strictEqual(one.classificationReason, "session_missing");

    await world.tmux(a.socketPath, ["kill-server"]);
    for (const s of [a, b]) {
      const r = await status(world, s.session);
      strictEqual(r.sessionState, "not_found", JSON.stringify(r));
      strictEqual(r.status, "not_found");
      strictEqual(r.classificationReason, "server_gone");
    }
    // A name lisa never spawned says nothing about a server.
    strictEqual(
      (await status(world, "lisa-never-spawned")).classificationReason,
      "session_missing",
    );
    const m = await world.lisaInProcess(["session", "monitor", "--session", a.session, "--json"]);
    strictEqual(m.code, 2);
    strictEqual(m.json?.exitReason, "not_found");
    strictEqual(
      (m.json?.finalReport as Record<string, unknown>).classificationReason,
      "server_gone",
    );
  } finally {
    endStray();
    await world.dispose();
  }
});
