import { ok, strictEqual, throws } from "node:assert/strict";
import { parseSince } from "../../../../src/base/duration.ts";
import { decisionOf } from "../../../../src/core/monitor/explain.ts";
import type { StatusReport } from "../../../../src/core/status/status.ts";

const NOW = Date.parse("2026-01-02T03:04:05Z");

Deno.test("--since takes durations back from now", () => {
  strictEqual(parseSince("90s", NOW), NOW - 90_000);
  strictEqual(parseSince("15m", NOW), NOW - 900_000);
  strictEqual(parseSince("2h", NOW), NOW - 7_200_000);
  strictEqual(parseSince("1d", NOW), NOW - 86_400_000);
  strictEqual(parseSince("1.5m", NOW), NOW - 90_000);
});

Deno.test("--since takes ISO times", () => {
  strictEqual(parseSince("2026-01-02T00:00:00Z", NOW), Date.parse("2026-01-02T00:00:00Z"));
});

Deno.test("--since rejects anything else", () => {
  throws(() => parseSince("yesterday", NOW), /--since/);
  throws(() => parseSince("10", NOW), /--since/);
  throws(() => parseSince("-5m", NOW), /--since/);
});

Deno.test("explain's decision names the signal that decided and the one it overruled", () => {
  const signals = {
    paneStatus: "alive",
    sessionAgeSeconds: 60,
    inGrace: false,
    agentPid: 110,
    agentCpu: 0.2,
    cpuWindowMs: 5000,
    busyChildren: [],
    commandProcesses: [],
    screenRules: ["claude_title_idle"],
    outputQuietSeconds: 9,
    heartbeatAgeSeconds: 1,
    doneExitCode: null,
    hooksActive: true,
    hooksHealth: "active" as const,
    hooks: {
      active: true,
      pending: "turn_running" as const,
      lastEvent: "UserPromptSubmit",
      lastEventAgeSeconds: 9,
    },
    progressQuietSeconds: 9,
    lastInputAgeSeconds: 9,
    failures: [],
  };
  const report = {
    classificationReason: "hook_running_but_idle:claude_title_idle",
    signals,
  } as unknown as StatusReport;
  const d = decisionOf(report);
  const role = (name: string) => d.find((x) => x.signal === name)?.role;
  strictEqual(role("screen rules"), "decided");
  strictEqual(role("hooks"), "overruled");
  strictEqual(role("cpu"), "considered");
  strictEqual(d.filter((x) => x.role === "decided").length, 1);
  ok(d.find((x) => x.signal === "hooks")?.said.includes("turn_running"));
  // A stall is decided by the stall signal.
  const stuck = decisionOf({ ...report, classificationReason: "stalled:agent_alive_quiet" });
  strictEqual(stuck.find((x) => x.role === "decided")?.signal, "agent process");
  strictEqual(stuck.find((x) => x.signal === "stall")?.role, "decided");
});
