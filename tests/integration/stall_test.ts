/**
 * Issue 13 with real tmux and the fake agents: a stalled agent is `stuck` with evidence and ends
 * `monitor` with exit 2; slow-but-healthy agents are never stuck; `send --text` never types
 * into a permission dialog and waits for an agent that is still starting.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn, waitPane } from "./lifecycle_helpers.ts";
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

Deno.test("send --text is refused at a permission dialog unless --force; the send result says the state", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude", "--no-dangerously-skip-permissions"], {
      FAKE_BEHAVIOR: "idle",
      FAKE_PERMISSION: "1",
    });
    // The first send waits until the agent is ready (its prompt drawn), then types.
    const first = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "make a file",
      "--enter",
      "--json",
    ]);
    strictEqual(first.code, 0, first.stdout + first.stderr);
    const state = first.json?.agentState as Record<string, unknown>;
    // The fake draws no idle title: it is ready once its start-up grace window has passed.
    ok((state.waitedMs as number) > 0, JSON.stringify(state));
    ok(typeof state.classificationReason === "string");
    await waitPane(world, s, "Do you want to proceed?");
    await statusUntil(world, s.session, (r) => r.waitingFor === "permission");
    const refused = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "y",
      "--enter",
      "--json",
    ]);
    strictEqual(refused.code, 1);
    strictEqual(refused.json?.ok, false);
    strictEqual(refused.json?.errorCode, "agent_waiting_permission");
    // --force types anyway (the fake takes any line as the answer).
    const forced = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "1",
      "--enter",
      "--force",
      "--json",
    ]);
    strictEqual(forced.code, 0, forced.stdout + forced.stderr);
    strictEqual(forced.json?.agentState, null);
    const after = await statusUntil(world, s.session, (r) => r.waitingFor === "input");
    strictEqual(after.sessionState, "waiting_input");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("send --text waits for a starting agent, and gives up with agent_not_ready after --ready-timeout", async () => {
  const world = await makeWorld();
  try {
    // Busy for 4 s at start-up (past the world's grace window), like an agent loading: not
    // ready for input yet.
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "burst:4" });
    const early = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "too soon",
      "--enter",
      "--ready-timeout",
      "0",
      "--json",
    ]);
    strictEqual(early.code, 1, early.stdout);
    strictEqual(early.json?.errorCode, "agent_not_ready");
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hello",
      "--enter",
      "--ready-timeout",
      "30",
      "--json",
    ]);
    strictEqual(sent.code, 0, sent.stdout + sent.stderr);
    const state = sent.json?.agentState as Record<string, unknown>;
    ok((state.waitedMs as number) > 0, JSON.stringify(state));
    ok(state.sessionState !== "just_started", JSON.stringify(state));
    await waitPane(world, s, "got: hello");
    const pane = await world.lisaInProcess(["session", "capture", "--session", s.session]);
    ok(!pane.stdout.includes("too soon"), "nothing was typed by the refused send");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("hooks that never fire (an agent ignoring --settings) read hooksHealth silent, and status falls back", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_BEHAVIOR: "idle",
      FAKE_IGNORE_SETTINGS: "1",
    });
    const inGrace = await status(world, s.session);
    strictEqual(inGrace.signals.hooksHealth, "pending");
    const r = await statusUntil(world, s.session, (x) =>
      x.signals.inGrace === false &&
      x.sessionState === "waiting_input");
    strictEqual(r.signals.hooksActive, false);
    strictEqual(r.signals.hooksHealth, "silent");
    strictEqual(r.classificationReason, "agent_quiet");
    // Its other signals still work: a prompt makes it reply and wait again.
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hi",
      "--enter",
      "--json",
    ]);
    strictEqual(sent.code, 0, sent.stdout + sent.stderr);
    await waitPane(world, s, "got: hi");
    const after = await statusUntil(world, s.session, (x) => x.sessionState === "waiting_input");
    strictEqual(after.signals.hooksHealth, "silent");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a silent turn end (no Stop hook) reads waiting_input naming the disagreement", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_BEHAVIOR: "idle",
      FAKE_SILENT_END: "1",
      FAKE_CLAUDE_TITLE: "1",
    });
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hi",
      "--enter",
    ]);
    strictEqual(sent.code, 0, sent.stdout + sent.stderr);
    await waitPane(world, s, "got: hi");
    const r = await statusUntil(world, s.session, (x) => x.sessionState === "waiting_input");
    strictEqual(r.classificationReason, "hook_running_but_idle:claude_title_idle");
    strictEqual(r.waitingFor, "input");
    const hooks = r.signals.hooks as { pending: string; lastEventAgeSeconds: number };
    strictEqual(hooks.pending, "turn_running");
    // The screen won well before a stale hook would stop counting on its own (10 s).
    ok(hooks.lastEventAgeSeconds < 10, JSON.stringify(hooks));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a fake claude showing a rate-limit error waits for quota; an invalid key for auth", async () => {
  const world = await makeWorld();
  try {
    const quota = await spawn(world, ["--agent", "claude"], {
      FAKE_BEHAVIOR: "idle",
      FAKE_REPLY: "● API Error: Request rejected (429) · Rate limited",
    });
    // Real claude draws a credential error as a `  ⎿  ` row right under the echoed prompt
    // (tests/fixtures/screens/real_claude_auth.txt); the rule takes that shape only.
    const auth = await spawn(world, ["--agent", "claude"], {
      FAKE_BEHAVIOR: "idle",
      FAKE_REPLY: "❯ hi\n  ⎿  Invalid API key · Fix external API key",
    });
    for (const s of [quota, auth]) {
      const r = await world.lisaInProcess([
        "session",
        "send",
        "--session",
        s.session,
        "--text",
        "hi",
        "--enter",
      ]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
    }
    const q = await statusUntil(world, quota.session, (x) => x.waitingFor === "quota");
    strictEqual(q.classificationReason, "screen:claude_quota_rate_limited");
    strictEqual(q.resetsAt, null);
    const a = await statusUntil(world, auth.session, (x) => x.waitingFor === "auth");
    strictEqual(a.classificationReason, "screen:claude_auth_failed");
    // The dialog guard is for permission only: text to a blocked agent goes through.
    const again = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      auth.session,
      "--text",
      "/login",
      "--enter",
      "--json",
    ]);
    strictEqual(again.code, 0, again.stdout + again.stderr);
    strictEqual((again.json?.agentState as Record<string, unknown>).waitingFor, "auth");
  } finally {
    await endStray();
    await world.dispose();
  }
});
