/** The line status writes when a turn ended without its end hook (`turn_end.ts`). */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  endsTurnSilently,
  type SilentEndFacts,
  turnEndRecord,
} from "../../../../src/core/status/turn_end.ts";
import type { Classification } from "../../../../src/core/status/classify.ts";
import type { SessionMeta } from "../../../../src/base/types.ts";

const NOW = Date.parse("2026-01-01T00:01:00.000Z");

function facts(over: Partial<SilentEndFacts> = {}, reason = "hook_running_but_idle:x") {
  const meta = { agent: "claude", mode: "interactive", hooks: true, runId: "r1" } as SessionMeta;
  return {
    loc: { meta, paths: { hooks: "/nowhere" } } as unknown as SilentEndFacts["loc"],
    classification: {
      sessionState: "waiting_input",
      status: "idle",
      classificationReason: reason,
      waitingFor: "input",
    } as unknown as Classification,
    hooks: {
      active: true,
      pending: "turn_running",
      lastEvent: "UserPromptSubmit",
      lastEventAgeSeconds: 20,
    },
    screen: "❯ go\n● done it\n" + "─".repeat(30) + "\n❯\n",
    quietSeconds: 12,
    nowMs: NOW,
    ...over,
  } as SilentEndFacts;
}

Deno.test("a silent end is one that status answers waiting for input while hooks say running", () => {
  strictEqual(endsTurnSilently(facts()), true);
  strictEqual(
    endsTurnSilently(facts({ hooks: { ...facts().hooks!, pending: "turn_done" } })),
    false,
  );
  const working = facts();
  working.classification = { ...working.classification, sessionState: "in_progress" };
  strictEqual(endsTurnSilently(working), false);
  const command = facts();
  command.loc = { ...command.loc, meta: { ...command.loc.meta!, commandOnly: true } };
  strictEqual(endsTurnSilently(command), false);
});

Deno.test("the turn-end line carries the screen's outcome and reply, ended at its last sign", () => {
  const r = turnEndRecord(facts(), { prompt: "go", atMs: NOW - 30_000 });
  deepStrictEqual(
    [r.event, r.runId, r.outcome, r.reply, r.endedAt, r.reason],
    [
      "lisa:turn_end",
      "r1",
      "completed",
      "done it",
      "2026-01-01T00:00:48.000Z",
      "hook_running_but_idle:x",
    ],
  );
  // Esc at a permission dialog: interrupted, whatever the screen shows.
  const dismissed = turnEndRecord(facts({}, "hook:permission_dismissed"), null);
  deepStrictEqual([dismissed.outcome, dismissed.reply], ["interrupted", undefined]);
  // Never before the turn started.
  const early = turnEndRecord(facts(), { prompt: "go", atMs: NOW - 5_000 });
  strictEqual(early.endedAt, "2026-01-01T00:00:55.000Z");
});
