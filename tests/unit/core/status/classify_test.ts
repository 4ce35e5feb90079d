import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  classify,
  coarseStatus,
  degrade,
  paneStatusOf,
  PERMISSION_RENDER_SECONDS,
  QUIET_SECONDS,
  SESSION_GRACE_SECONDS,
  type Signals,
} from "../../../../src/core/status/classify.ts";
import { SESSION_STATES } from "../../../../src/base/types.ts";
import { loadConfig } from "../../../../src/base/config.ts";

const FIXTURES = new URL("../../../fixtures/", import.meta.url);

interface Case {
  name: string;
  signals?: Record<string, unknown>;
  screenFile?: string;
  expect: Record<string, unknown>;
}

function merge(base: unknown, over: unknown): unknown {
  if (over === null || typeof over !== "object" || Array.isArray(over)) return over;
  if (base === null || typeof base !== "object" || Array.isArray(base)) return over;
  const out: Record<string, unknown> = { ...base as Record<string, unknown> };
  for (const [k, v] of Object.entries(over)) out[k] = merge(out[k], v);
  return out;
}

const recorded = JSON.parse(
  Deno.readTextFileSync(new URL("signals/cases.json", FIXTURES)),
) as { base: Signals; cases: Case[] };

function signalsOf(c: Omit<Case, "expect">): Signals {
  const s = merge(structuredClone(recorded.base), c.signals ?? {}) as Signals;
  if (c.screenFile) {
    // `#!` rows are the recording's header, not screen.
    s.screen.text = Deno.readTextFileSync(new URL(`screens/${c.screenFile}`, FIXTURES))
      .split("\n").filter((r) => !r.startsWith("#!")).join("\n");
  }
  return s;
}

for (const c of recorded.cases) {
  Deno.test(`classify: ${c.name}`, () => {
    const result = classify(signalsOf(c)) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(c.expect)) {
      deepStrictEqual(result[key], value, `${key} of "${c.name}"`);
    }
    if (result.sessionState !== "waiting_input") strictEqual(result.waitingFor, undefined);
    const terminal = result.sessionState === "completed" || result.sessionState === "crashed";
    strictEqual("exitCode" in result, terminal, `exitCode only for completed/crashed`);
  });
}

Deno.test("every state maps to one coarse status", () => {
  deepStrictEqual(
    SESSION_STATES.map((s) => coarseStatus(s)),
    ["active", "active", "idle", "done", "failed", "failed", "degraded", "not_found"],
  );
});

Deno.test("the grace window is counted from spawn, whatever the poll count", () => {
  const s = signalsOf({ name: "", signals: { sessionAgeSeconds: SESSION_GRACE_SECONDS - 0.1 } });
  strictEqual(classify(s).sessionState, "just_started");
  strictEqual(classify(s).signals.inGrace, true);
  s.sessionAgeSeconds = SESSION_GRACE_SECONDS;
  strictEqual(classify(s).sessionState, "waiting_input");
  strictEqual(classify(s).signals.inGrace, false);
});

Deno.test("the grace window is LISA_GRACE_SECONDS long when set (graceSeconds)", () => {
  const s = signalsOf({ name: "", signals: { sessionAgeSeconds: 1.9, graceSeconds: 2 } });
  strictEqual(classify(s).sessionState, "just_started");
  s.sessionAgeSeconds = 2;
  strictEqual(classify(s).sessionState, "waiting_input");
  strictEqual(classify(s).signals.inGrace, false);
  // A longer window holds a quiet session back past the default one.
  s.graceSeconds = SESSION_GRACE_SECONDS + 5;
  s.sessionAgeSeconds = SESSION_GRACE_SECONDS + 1;
  strictEqual(classify(s).sessionState, "just_started");
});

Deno.test("the defaults of LISA_GRACE_SECONDS and LISA_QUIET_SECONDS are the classifier's", () => {
  const { config } = loadConfig({}, 0);
  deepStrictEqual([config.graceSeconds, config.quietSeconds], [
    SESSION_GRACE_SECONDS,
    QUIET_SECONDS,
  ]);
});

Deno.test("an agent is quiet after LISA_QUIET_SECONDS when set (quietSeconds)", () => {
  // Past the grace window, no CPU, no child: only the screen's age decides.
  const s = signalsOf({
    name: "",
    signals: { sessionAgeSeconds: 60, screen: { quietSeconds: 1.5 }, quietSeconds: 1 },
  });
  strictEqual(classify(s).sessionState, "waiting_input");
  s.quietSeconds = undefined;
  strictEqual(classify(s).classificationReason, "agent_output_changing");
  // Input sent moments ago counts as work for the same window.
  s.quietSeconds = 1;
  s.lastInputAgeSeconds = 0.5;
  strictEqual(classify(s).classificationReason, "input_sent_recently");
  s.lastInputAgeSeconds = 1.2;
  strictEqual(classify(s).sessionState, "waiting_input");
});

Deno.test("an unknown session age gives no grace", () => {
  const s = signalsOf({
    name: "",
    signals: { sessionAgeSeconds: null, agent: null, expectedAgent: null },
  });
  strictEqual(classify(s).sessionState, "stuck");
});

Deno.test("the signals summary names the evidence", () => {
  const s = signalsOf({
    name: "",
    signals: { screen: { title: "✳ Claude Code" }, agent: { busyChildren: ["node"] } },
  });
  const sig = classify(s).signals;
  strictEqual(sig.paneStatus, "alive");
  strictEqual(sig.agentPid, 110);
  strictEqual(sig.agentCpu, 0);
  deepStrictEqual(sig.busyChildren, ["node"]);
  deepStrictEqual(sig.screenRules, ["claude_title_idle"]);
});

Deno.test("signals.hooksActive says whether the agent's hooks work for the session", () => {
  const hooks = { pending: null, lastEvent: "SessionStart", lastEventAgeSeconds: 3 };
  const none = classify(signalsOf({ name: "" })).signals;
  strictEqual(none.hooksActive, false);
  strictEqual(none.hooks, null);
  const active = classify(signalsOf({ name: "", signals: { hooks: { ...hooks, active: true } } }));
  strictEqual(active.signals.hooksActive, true);
  strictEqual(active.signals.hooks?.lastEvent, "SessionStart");
  const inactive = classify(
    signalsOf({ name: "", signals: { hooks: { ...hooks, active: false } } }),
  );
  strictEqual(inactive.signals.hooksActive, false);
});

Deno.test("a dismissed permission turns back into one when a dialog is drawn again", () => {
  const hooks = {
    active: true,
    pending: "permission",
    lastEvent: "PermissionRequest",
    lastEventAgeSeconds: PERMISSION_RENDER_SECONDS,
  };
  const s = signalsOf({ name: "", screenFile: "real_claude_after_esc.txt", signals: { hooks } });
  strictEqual(classify(s).classificationReason, "hook:permission_dismissed");
  strictEqual(classify(s).waitingFor, "input");
  s.screen.text = Deno.readTextFileSync(
    new URL("screens/real_claude_permission_bash.txt", FIXTURES),
  );
  strictEqual(classify(s).classificationReason, "hook:permission");
  strictEqual(classify(s).waitingFor, "permission");
  // Without captured screen text nothing proves the dialog is gone.
  s.screen.text = "";
  strictEqual(classify(s).classificationReason, "hook:permission");
});

Deno.test("pane status strings follow seed 003", () => {
  const pane = {
    dead: false,
    deadStatus: null,
    deadSignal: null,
    currentCommand: "",
    title: "",
    pid: 1,
  };
  strictEqual(paneStatusOf({ sessionExists: false, pane: null }), "missing");
  strictEqual(paneStatusOf({ sessionExists: true, pane }), "alive");
  strictEqual(
    paneStatusOf({ sessionExists: true, pane: { ...pane, dead: true, deadStatus: 0 } }),
    "exited:0",
  );
  strictEqual(
    paneStatusOf({ sessionExists: true, pane: { ...pane, dead: true, deadStatus: 3 } }),
    "crashed:3",
  );
  strictEqual(paneStatusOf({ sessionExists: true, pane: { ...pane, dead: true } }), "dead");
});

Deno.test("degrade turns a live answer into degraded but keeps exits and not_found", () => {
  const live = classify(signalsOf({ name: "", signals: { agent: { busyChildren: ["sleep"] } } }));
  const d = degrade(live, "state_lock_busy");
  strictEqual(d.sessionState, "degraded");
  strictEqual(d.status, "degraded");
  strictEqual(d.classificationReason, "state_lock_busy");
  deepStrictEqual(d.signals.failures, ["state_lock_busy"]);
  const ended = classify(signalsOf({ name: "", signals: { pane: { dead: true, deadStatus: 0 } } }));
  strictEqual(degrade(ended, "state_lock_busy").sessionState, "completed");
});
