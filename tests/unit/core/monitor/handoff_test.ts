import { ok, strictEqual } from "node:assert/strict";
import { type Handoff, packContext } from "../../../../src/core/monitor/handoff.ts";
import { nextAction } from "../../../../src/core/status/next_action.ts";

function handoff(lines: number): Handoff {
  return {
    session: "lisa-x",
    status: "idle",
    sessionState: "waiting_input",
    reason: "hook:turn_done",
    waitingFor: "input",
    exitCode: null,
    nextAction: "send_input",
    nextOffset: "o2.x",
    summary: "",
    recent: Array.from({ length: 8 }, (_, i) => ({
      at: `2026-01-01T00:00:0${i}Z`,
      type: "transition",
      state: "in_progress",
      reason: `r${i}`,
    })),
    output: Array.from({ length: lines }, (_, i) => `line ${i} ${"x".repeat(40)}`),
  };
}

Deno.test("context-pack fits its token budget and keeps the newest output", () => {
  for (const budget of [40, 100, 700]) {
    const p = packContext(handoff(500), budget, "balanced");
    ok(p.tokens <= budget, `${p.tokens} > ${budget}`);
    ok(p.pack.startsWith("session: lisa-x\nstate: waiting_input (hook:turn_done)"), p.pack);
    strictEqual(p.truncated, true);
    if (budget >= 100) ok(p.pack.endsWith(`line 499 ${"x".repeat(40)}`), p.pack);
  }
  const small = packContext(handoff(2), 700, "full");
  strictEqual(small.truncated, false);
  ok(small.pack.includes("line 0") && small.pack.includes("line 1"));
});

Deno.test("context-pack strategies trade events and output: terse keeps less output", () => {
  const terse = packContext(handoff(500), 700, "terse");
  const full = packContext(handoff(500), 700, "full");
  const outputOf = (p: string) => p.slice(p.indexOf("output:")).length;
  ok(outputOf(terse.pack) < outputOf(full.pack));
  strictEqual(terse.pack.split("\n").filter((l) => l.startsWith("- ")).length, 3);
});

Deno.test("the next action follows the state and what a waiting session waits for", () => {
  strictEqual(nextAction("in_progress"), "wait");
  strictEqual(nextAction("waiting_input", "permission"), "answer_permission");
  strictEqual(nextAction("waiting_input", "input"), "send_input");
  strictEqual(nextAction("completed"), "capture_and_kill");
  strictEqual(nextAction("not_found"), "spawn_or_stop");
});
