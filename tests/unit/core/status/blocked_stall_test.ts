/**
 * Issue 13 in the classifier: blocked agents (quota/auth/error) from the real recorded screens
 * and hook messages, stalls with their evidence (and the slow-but-healthy cases that are never
 * stuck), silent turn ends, and hook health.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { classify, hooksHealth, type Signals } from "../../../../src/core/status/classify.ts";

const SCREENS = new URL("../../../fixtures/screens/", import.meta.url);

/** A recorded screen without its `#!` header rows. */
function screen(name: string): string {
  return Deno.readTextFileSync(new URL(name, SCREENS)).split("\n")
    .filter((r) => !r.startsWith("#!")).join("\n");
}
function title(name: string): string {
  return Deno.readTextFileSync(new URL(name, SCREENS)).replace(/\n$/, "");
}

/** An interactive claude past its grace window, quiet, at an idle title, hooks off. */
function base(over: Partial<Signals> = {}): Signals {
  return {
    sessionExists: true,
    pane: {
      dead: false,
      deadStatus: null,
      deadSignal: null,
      currentCommand: "claude",
      title: "✳ Claude Code",
      pid: 100,
    },
    done: null,
    expectedAgent: "claude",
    mode: "interactive",
    sessionAgeSeconds: 600,
    agent: {
      agent: "claude",
      pid: 110,
      name: "claude",
      cpu: { percent: 0.4, deltaTicks: 2, windowMs: 5000 },
      busyChildren: [],
    },
    command: { processes: [], cpu: null },
    screen: { title: "✳ Claude Code", text: "", folder: "project", quietSeconds: 30 },
    heartbeatAgeSeconds: 1,
    hooks: null,
    hooksInjected: false,
    lastInputAgeSeconds: null,
    lastBusyAgeSeconds: null,
    stallSeconds: 300,
    failures: [],
    ...over,
  };
}

function real(agent: "claude" | "codex", name: string, over: Partial<Signals> = {}): Signals {
  const s = base(over);
  s.screen.text = screen(`real_${agent}_${name}.txt`);
  s.screen.title = title(`real_${agent}_${name}.title`);
  if (agent === "codex") {
    s.expectedAgent = "codex";
    s.agent = { ...s.agent!, agent: "codex", name: "codex" };
  }
  return s;
}

const turnDone = (failure?: string) => ({
  active: true,
  pending: "turn_done" as const,
  lastEvent: failure === undefined ? "Stop" : "StopFailure",
  lastEventAgeSeconds: 5,
  ...(failure === undefined ? {} : { failure }),
});

Deno.test("real claude screens of a failed turn read waiting_input for quota, auth, error", () => {
  const cases: [string, string, string][] = [
    ["auth", "auth", "screen:claude_auth_failed"],
    ["rate_limit", "quota", "screen:claude_quota_rate_limited"],
    ["usage_limit", "quota", "screen:claude_quota_rate_limited"],
    ["overloaded", "error", "screen:claude_api_error"],
  ];
  for (const [name, waitingFor, reason] of cases) {
    // The StopFailure hook says the turn is over: the screen says why.
    const c = classify(real("claude", name, { hooks: turnDone("API Error: x") }));
    strictEqual(c.sessionState, "waiting_input", name);
    strictEqual(c.waitingFor, waitingFor, name);
    strictEqual(c.classificationReason, reason, name);
  }
});

Deno.test("real codex screens of a failed turn read waiting_input for quota, auth, error", () => {
  const cases: [string, string, string][] = [
    ["auth", "auth", "screen:codex_auth_failed"],
    ["rate_limit", "quota", "screen:codex_quota_rate_limited"],
    ["usage_limit", "quota", "screen:codex_quota_usage_limit"],
    ["overloaded", "error", "screen:codex_api_error"],
  ];
  for (const [name, waitingFor, reason] of cases) {
    const c = classify(real("codex", name));
    strictEqual(c.sessionState, "waiting_input", name);
    strictEqual(c.waitingFor, waitingFor, name);
    strictEqual(c.classificationReason, reason, name);
  }
  // codex's usage-limit message says when the limit resets.
  strictEqual(classify(real("codex", "usage_limit")).resetsText, "Nov 26th, 2026 12:22 AM");
});

Deno.test("claude's StopFailure message alone tells the blocked kind when the screen is not captured", () => {
  const msgs: [string, string][] = [
    ["API Error: Request rejected (429) · Rate limited", "quota"],
    ["Invalid API key · Fix external API key", "auth"],
    ["API Error: 529 Overloaded. This is a server-side issue", "error"],
    ["You're out of usage credits. /model to switch models.", "quota"],
  ];
  for (const [failure, kind] of msgs) {
    const c = classify(base({ hooks: turnDone(failure) }));
    strictEqual(c.waitingFor, kind, failure);
    ok(c.classificationReason.startsWith("hook:claude_hook_"), c.classificationReason);
  }
  // A normal Stop is a plain wait for input.
  strictEqual(classify(base({ hooks: turnDone() })).waitingFor, "input");
});

Deno.test("a subscription limit's reset time is read from claude's screen", () => {
  const s = real("claude", "idle");
  s.screen.text = s.screen.text.replace(
    /\n(─+\n❯)/,
    "\n❯ fix the bug\n  ⎿  You've hit your session limit · resets 8:50pm (UTC)\n\n$1",
  );
  const c = classify(s);
  strictEqual(c.waitingFor, "quota");
  strictEqual(c.resetsText, "8:50pm (UTC)");
});

Deno.test("a blocked message followed by a later turn is stale, and working wins over it", () => {
  const s = real("claude", "rate_limit");
  s.screen.text = s.screen.text.replace(
    /\n(─+\n❯)/,
    "\n❯ try again\n\n● MOCK_REPLY_OK\n\n$1",
  );
  const c = classify(s);
  strictEqual(c.waitingFor, "input");
  strictEqual(c.classificationReason, "screen:claude_title_idle");
  // The agent retrying (spinner on screen) is not waiting for anyone.
  const w = real("claude", "rate_limit");
  w.screen.title = "⠐ Claude Code";
  strictEqual(classify(w).sessionState, "in_progress");
  // codex: a new prompt and answer after the error.
  const x = real("codex", "rate_limit");
  x.screen.text = x.screen.text.replace("› Ask Codex", "› again\n\n• MOCK_REPLY_OK\n\n› Ask Codex");
  strictEqual(classify(x).waitingFor, "input");
});

Deno.test("an exec agent quiet for LISA_STALL_SECONDS is stuck, with the evidence looked at", () => {
  const s = base({
    mode: "exec",
    screen: { title: "", text: "", folder: "project", quietSeconds: 400 },
    hooks: {
      active: true,
      pending: "turn_running",
      lastEvent: "UserPromptSubmit",
      lastEventAgeSeconds: 400,
    },
    lastInputAgeSeconds: null,
    lastBusyAgeSeconds: 390,
  });
  const c = classify(s);
  strictEqual(c.sessionState, "stuck");
  strictEqual(c.status, "failed");
  strictEqual(c.classificationReason, "stalled:agent_alive_quiet");
  strictEqual(c.stall?.quietSeconds, 390);
  const evidence = c.stall?.evidence.join(" | ") ?? "";
  for (const word of ["cpu: 0.4%", "children: none", "last busy: 390s", "output: unchanged 400s"]) {
    ok(evidence.includes(word), `${word} in ${evidence}`);
  }
  ok(evidence.includes("hook: UserPromptSubmit 400s ago"), evidence);
  strictEqual(c.signals.progressQuietSeconds, 390);
  // Below the threshold it still works.
  strictEqual(classify({ ...s, stallSeconds: 391 }).sessionState, "in_progress");
});

Deno.test("codex retry rows are not progress: an exec codex retrying an unreachable API is stuck", () => {
  const s = base({
    mode: "exec",
    expectedAgent: "codex",
    agent: {
      agent: "codex",
      pid: 110,
      name: "codex",
      cpu: { percent: 0, deltaTicks: 0, windowMs: 5000 },
      busyChildren: [],
    },
    screen: {
      title: "",
      text: "[2026-11-25T21:00:00] OpenAI Codex\nuser\nsay hi\n" +
        "ERROR: Reconnecting... 3/5 (stream disconnected before completion: error sending request)",
      folder: "project",
      quietSeconds: 20,
    },
  });
  const c = classify(s);
  strictEqual(c.sessionState, "stuck");
  ok(c.stall?.evidence.some((e) => e.includes("only retries (codex_retrying)")));
});

Deno.test("the real codex exec screen against an unreachable API: its rows are retries, not progress", () => {
  const s = real("codex", "exec_unreachable", {
    mode: "exec",
    lastBusyAgeSeconds: 400,
  });
  s.agent = { ...s.agent!, cpu: { percent: 0, deltaTicks: 0, windowMs: 5000 } };
  s.screen.quietSeconds = 10; // a new "Reconnecting..." row 10 s ago
  const c = classify(s);
  strictEqual(c.sessionState, "stuck");
  ok(c.signals.screenRules.includes("codex_retrying"));
  // Nor is the CPU of its retry loop (5–6 % bursts, measured).
  s.agent = { ...s.agent!, cpu: { percent: 6, deltaTicks: 30, windowMs: 5000 } };
  const burst = classify(s);
  strictEqual(burst.sessionState, "stuck");
  strictEqual(burst.classificationReason, "stalled:agent_cpu_busy");
  ok(burst.stall?.evidence.some((e) => e.includes("retry loop")));
  // Without the retry rows the fresh output would have been progress.
  s.screen.text = s.screen.text.replaceAll("Reconnecting... waiting for network", "tok");
  strictEqual(classify(s).sessionState, "in_progress");
});

Deno.test("never stuck: a slow streaming reply, a long tool child, busy CPU, an agent idle at its prompt", () => {
  const exec = { mode: "exec" as const, lastBusyAgeSeconds: 900 };
  // A token every 20 s changes the screen: quiet is at most 20 s.
  const slow = base({
    ...exec,
    screen: { title: "", text: "…", folder: "project", quietSeconds: 20 },
  });
  strictEqual(classify(slow).sessionState, "in_progress");
  // `sleep 400` in a tool call.
  const sleeping = base({
    ...exec,
    screen: { title: "", text: "", folder: "project", quietSeconds: 900 },
  });
  sleeping.agent = { ...sleeping.agent!, busyChildren: ["sleep"] };
  const c = classify(sleeping);
  strictEqual(c.sessionState, "in_progress");
  strictEqual(c.classificationReason, "agent_child_busy:sleep");
  // CPU busy right now.
  const cpu = base({
    ...exec,
    screen: { title: "", text: "", folder: "project", quietSeconds: 900 },
  });
  cpu.agent = { ...cpu.agent!, cpu: { percent: 9, deltaTicks: 45, windowMs: 5000 } };
  strictEqual(classify(cpu).sessionState, "in_progress");
  // Interactive and quiet at its prompt for an hour: waiting for input, not stuck.
  const idle = real("claude", "idle", {
    lastBusyAgeSeconds: 3600,
    sessionAgeSeconds: 3600,
  });
  idle.screen.quietSeconds = 3600;
  strictEqual(classify(idle).sessionState, "waiting_input");
});

Deno.test("a silent turn end: the hook says running, the screen shows the idle prompt, nothing moves", () => {
  const running = {
    active: true,
    pending: "turn_running" as const,
    lastEvent: "UserPromptSubmit",
    lastEventAgeSeconds: 6,
  };
  const s = real("claude", "turn_done", { hooks: running });
  s.screen.quietSeconds = 5;
  const c = classify(s);
  strictEqual(c.sessionState, "waiting_input");
  strictEqual(c.waitingFor, "input");
  strictEqual(c.classificationReason, "hook_running_but_idle:claude_title_idle");
  // While the screen still changes (or CPU works, or a child runs) the hook stands.
  s.screen.quietSeconds = 1;
  strictEqual(classify(s).classificationReason, "hook:turn_running");
  s.screen.quietSeconds = 5;
  s.agent = { ...s.agent!, busyChildren: ["pytest"] };
  strictEqual(classify(s).sessionState, "in_progress");
});

Deno.test("hook health: active, pending in the grace window, silent when claude never sent SessionStart, off", () => {
  strictEqual(hooksHealth(base({ hooksInjected: false })), "off");
  strictEqual(hooksHealth(base({ hooksInjected: true, sessionAgeSeconds: 3 })), "pending");
  const silent = base({ hooksInjected: true, sessionAgeSeconds: 30 });
  strictEqual(hooksHealth(silent), "silent");
  const c = classify(real("claude", "idle", { hooksInjected: true }));
  strictEqual(c.signals.hooksActive, false);
  strictEqual(c.signals.hooksHealth, "silent");
  // Falls back to the other signals: the idle screen.
  strictEqual(c.classificationReason, "screen:claude_title_idle");
  // codex only notifies after a turn: no record yet is not silence.
  const codex = base({ hooksInjected: true, expectedAgent: "codex" });
  codex.agent = { ...codex.agent!, agent: "codex" };
  strictEqual(hooksHealth(codex), "pending");
  deepStrictEqual(
    hooksHealth(base({
      hooksInjected: true,
      hooks: { active: true, pending: null, lastEvent: "SessionStart", lastEventAgeSeconds: 1 },
    })),
    "active",
  );
});

Deno.test("an answer that quotes a login or limit message is a plain wait for input, not auth or quota", () => {
  for (
    const quote of [
      "● To use that API, please run /login and retry; Not logged in · Please run /login.",
      "● You've reached your monthly upload limit there.\n  You've hit your session limit · resets 8:50pm (UTC)",
    ]
  ) {
    const s = real("claude", "turn_done", { hooks: turnDone() });
    s.screen.text = s.screen.text.replace(/\n(─+\n❯)/, `\n❯ what now?\n\n${quote}\n\n$1`);
    const c = classify(s);
    strictEqual(c.sessionState, "waiting_input", quote);
    strictEqual(c.waitingFor, "input", `${quote}: ${c.classificationReason}`);
  }
});
