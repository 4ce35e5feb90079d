import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { classify, type Signals } from "../../../../src/core/status/classify.ts";
import {
  applyPoll,
  pollChangesState,
  type PollFacts,
  SNAPSHOT_EVENT_INTERVAL_MS,
} from "../../../../src/core/status/poll_record.ts";
import { emptyState } from "../../../../src/store/session_store.ts";

const BASE: Signals = {
  sessionExists: true,
  pane: { dead: false, deadStatus: null, deadSignal: null, currentCommand: "", title: "", pid: 1 },
  done: null,
  expectedAgent: null,
  mode: "interactive",
  sessionAgeSeconds: 60,
  agent: null,
  command: { processes: ["sleep"], cpu: null },
  screen: { title: "", text: "", folder: "", quietSeconds: null },
  heartbeatAgeSeconds: 1,
  hooks: null,
  lastInputAgeSeconds: null,
  failures: [],
};

function facts(nowMs: number, hash = "h1", changedAtMs: number | null = null): PollFacts {
  return {
    probe: { exists: true, dead: false, rawCapture: "" },
    view: null,
    readings: [{ samples: [{ pid: 5, startTime: 1, ticks: 10, atMs: nowMs }], atMs: nowMs }],
    hash,
    changedAtMs,
    nowMs,
    runId: "r",
  };
}

Deno.test("the first poll is a transition and stores a CPU sample and the screen hash", () => {
  const st = emptyState();
  const c = classify(BASE);
  strictEqual(pollChangesState(st, c, facts(1000)), true);
  deepStrictEqual(applyPoll(st, c, facts(1000)), { event: "transition", writeOutput: false });
  strictEqual(st.pollCount, 1);
  strictEqual(st.lastState, "in_progress");
  strictEqual(st.outputHash, "h1");
  strictEqual(st.outputChangedAtMs, null);
  strictEqual(st.cpuSamples.length, 1);
});

Deno.test("an unchanged poll within a second changes nothing and writes nothing", () => {
  const st = emptyState();
  const c = classify(BASE);
  applyPoll(st, c, facts(1000));
  strictEqual(pollChangesState(st, c, facts(1400)), false);
  // A second later a new CPU sample is due: the poll is recorded, without an event.
  strictEqual(pollChangesState(st, c, facts(2100)), true);
  deepStrictEqual(applyPoll(st, c, facts(2100)), { event: null, writeOutput: false });
});

Deno.test("a changed screen is remembered with the time it was measured to change, not the poll's", () => {
  const st = emptyState();
  const c = classify(BASE);
  applyPoll(st, c, facts(1000));
  strictEqual(pollChangesState(st, c, facts(30_000, "h2", 4000)), true);
  applyPoll(st, c, facts(30_000, "h2", 4000));
  strictEqual(st.outputChangedAtMs, 4000);
});

Deno.test("an unchanged session gets a snapshot event at most once a minute", () => {
  const st = emptyState();
  const c = classify(BASE);
  applyPoll(st, c, facts(0));
  strictEqual(applyPoll(st, c, facts(30_000)).event, null);
  strictEqual(applyPoll(st, c, facts(SNAPSHOT_EVENT_INTERVAL_MS)).event, "snapshot");
  strictEqual(applyPoll(st, c, facts(SNAPSHOT_EVENT_INTERVAL_MS + 5000)).event, null);
});

Deno.test("the output file is asked for once, at the first terminal state", () => {
  const st = emptyState();
  const dead = classify({ ...BASE, pane: { ...BASE.pane!, dead: true, deadStatus: 2 } });
  deepStrictEqual(applyPoll(st, dead, facts(1000)), { event: "transition", writeOutput: true });
  deepStrictEqual(applyPoll(st, dead, facts(2000)), { event: null, writeOutput: false });
  strictEqual(st.outputWritten, true);
});
