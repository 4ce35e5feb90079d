/**
 * How fresh the evidence is: the first status after a quiet gap measures when the pane last
 * printed (tmux's window_activity) instead of assuming the change it sees is new (issue 9,
 * defect 7), and a session busy during its first seconds is in_progress, not just_started
 * (defect 8). Hooks are off, so only the screen and the processes decide.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn, waitPane } from "./lifecycle_helpers.ts";
import { status } from "./status_helpers.ts";

const NO_HOOKS = { LISA_HOOKS: "off" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("the first status after a quiet gap says waiting_input, and monitor says so at its first poll", async () => {
  const world = await makeWorld({ env: NO_HOOKS });
  try {
    const a = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    const b = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    await waitPane(world, a, "fake claude");
    await waitPane(world, b, "fake claude");
    // One look each while young: the state file now holds a screen hash from this moment.
    await status(world, a.session);
    await status(world, b.session);
    // The screen changes after that look (typed straight into tmux, so lisa records no input).
    for (const s of [a, b]) {
      await world.tmux(s.socketPath, ["send-keys", "-t", `=${s.session}:`, "hello", "Enter"]);
      await waitPane(world, s, "got: hello");
    }
    // Then a gap longer than the grace and quiet windows with no poll at all.
    await sleep(world.graceSeconds * 1000 + (world.quietSeconds + 1) * 1000);

    const r = await status(world, a.session);
    strictEqual(r.sessionState, "waiting_input", JSON.stringify(r.signals));
    strictEqual(r.classificationReason, "agent_quiet");
    ok((r.signals.outputQuietSeconds as number) >= world.quietSeconds, JSON.stringify(r.signals));

    const m = await world.lisaInProcess([
      "session",
      "monitor",
      "--session",
      b.session,
      "--poll-interval",
      "30",
      "--max-polls",
      "1",
      "--json",
    ]);
    strictEqual(m.code, 0, m.stdout);
    strictEqual(m.json?.exitReason, "waiting_input", m.stdout);
    strictEqual(m.json?.polls, 1);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("an agent burning CPU right after spawn is in_progress within the grace window", async () => {
  // The product's 8 s window: the look right after spawn is inside it even on a busy machine.
  const world = await makeWorld({ env: NO_HOOKS, windows: "product" });
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "busy" });
    await waitPane(world, s, "fake claude");
    const r = await status(world, s.session);
    ok((r.signals.sessionAgeSeconds as number) < world.graceSeconds, JSON.stringify(r));
    strictEqual(r.sessionState, "in_progress", JSON.stringify(r.signals));
    strictEqual(r.classificationReason, "agent_cpu_busy");
    strictEqual(r.signals.inGrace, false);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a quiet agent within the grace window is still just_started", async () => {
  const world = await makeWorld({ env: NO_HOOKS, windows: "product" });
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    await waitPane(world, s, "> ");
    const r = await status(world, s.session);
    ok((r.signals.sessionAgeSeconds as number) < world.graceSeconds, JSON.stringify(r));
    strictEqual(r.sessionState, "just_started", JSON.stringify(r.signals));
    strictEqual(r.classificationReason, "grace_period");
    strictEqual(r.signals.inGrace, true);
  } finally {
    await endStray();
    await world.dispose();
  }
});
