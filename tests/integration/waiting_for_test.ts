/**
 * What a waiting agent waits for (issue 13) with real tmux and the fake agents: hooks that never
 * fire read `silent` and status falls back on the other signals, a turn that ends without its
 * Stop hook is `waiting_input` naming the disagreement, and a rate limit or a bad key on screen
 * is a wait for quota or auth.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn, waitPane } from "./lifecycle_helpers.ts";
import { status, statusUntil } from "./status_helpers.ts";

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
