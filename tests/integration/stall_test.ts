/**
 * Issue 13 with real tmux and the fake agents: a stalled agent is `stuck` with evidence and ends
 * `monitor` with exit 2; slow-but-healthy agents are never stuck. (The send guard:
 * send_guard_test.ts; what a waiting agent waits for: waiting_for_test.ts.)
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn } from "./lifecycle_helpers.ts";
import { status, statusUntil } from "./status_helpers.ts";

/** A threshold short enough for a test (the default is 300 s). */
const STALL = { LISA_STALL_SECONDS: "3" };

Deno.test("an exec agent that hangs with no CPU, output or child is stuck, and monitor exits 2", async () => {
  const world = await makeWorld({ env: STALL });
  try {
    const s = await spawn(world, ["--agent", "claude", "--mode", "exec", "--prompt", "go"], {
      FAKE_BEHAVIOR: "hang",
    });
    // Before the threshold passes it is working (exec agents wait on their API quietly).
    const early = await status(world, s.session);
    ok(["just_started", "in_progress"].includes(early.sessionState), early.sessionState);
    const r = await statusUntil(
      world,
      s.session,
      (x) => x.sessionState === "stuck",
      40_000,
    );
    const stuck = await status(world, s.session);
    strictEqual(stuck.sessionState, "stuck", JSON.stringify(r));
    strictEqual(stuck.status, "failed");
    // What it claimed before the stall: a running turn (its hook) or a quiet exec agent.
    ok(
      ["stalled:agent_alive_quiet", "stalled:hook:turn_running"].includes(
        stuck.classificationReason,
      ),
      stuck.classificationReason,
    );
    ok(
      (stuck.signals.sessionAgeSeconds as number) >= world.graceSeconds,
      "never inside the grace window",
    );
    const stall = stuck.stall as { quietSeconds: number; evidence: string[] };
    ok(stall.quietSeconds >= 3, JSON.stringify(stall));
    const evidence = stall.evidence.join(" | ");
    for (const word of ["cpu:", "children: none", "output: unchanged", "hook: UserPromptSubmit"]) {
      ok(evidence.includes(word), `${word} in ${evidence}`);
    }
    // explain says which signal decided: the stall.
    const ex = await world.lisaInProcess(["session", "explain", "--session", s.session, "--json"]);
    strictEqual(ex.code, 0, ex.stdout + ex.stderr);
    const decision = ex.json?.decision as { signal: string; said: string; role: string }[];
    strictEqual(decision.find((d) => d.signal === "stall")?.role, "decided");
    ok(decision.some((d) => d.signal === "cpu" && d.role === "considered"));
    const text = await world.lisaInProcess(["session", "explain", "--session", s.session]);
    ok(/→ stall\s+no progress for \d+s \(decided\)/.test(text.stdout), text.stdout);
    const m = await world.lisaInProcess([
      "session",
      "monitor",
      "--session",
      s.session,
      "--poll-interval",
      "1",
      "--max-polls",
      "5",
      "--json",
    ]);
    strictEqual(m.code, 2, m.stdout + m.stderr);
    strictEqual(m.json?.exitReason, "stuck");
    strictEqual(m.json?.finalState, "stuck");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("never stuck: a reply dripping a token every 2 s, a long sleep child, an idle prompt", async () => {
  // A 5 s threshold: a drip every 2 s stays under it even when a busy machine delays a drip by
  // a second or two (with 3 s, one drip late by a second could read as a stall).
  const world = await makeWorld({ env: { LISA_STALL_SECONDS: "5" } });
  try {
    const drip = await spawn(world, ["--agent", "claude", "--mode", "exec", "--prompt", "go"], {
      FAKE_BEHAVIOR: "drip:2",
    });
    const child = await spawn(world, ["--agent", "codex", "--mode", "exec", "--prompt", "go"], {
      FAKE_BEHAVIOR: "sleep-child:400",
    });
    const idle = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    // Well past the grace window and twice the stall threshold.
    await new Promise((r) => setTimeout(r, 12_000));
    for (let poll = 0; poll < 3; poll++) {
      const d = await status(world, drip.session);
      strictEqual(d.sessionState, "in_progress", `drip: ${JSON.stringify(d)}`);
      const c = await status(world, child.session);
      strictEqual(c.sessionState, "in_progress", `child: ${JSON.stringify(c)}`);
      strictEqual(c.classificationReason, "agent_child_busy:sleep");
      const i = await status(world, idle.session);
      strictEqual(i.sessionState, "waiting_input", `idle: ${JSON.stringify(i)}`);
      await new Promise((r) => setTimeout(r, 2_000));
    }
  } finally {
    await endStray();
    await world.dispose();
  }
});
