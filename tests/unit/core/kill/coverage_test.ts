import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  bothCovered,
  fullCoverage,
  sessionCoverage,
  type SessionFacts,
  subreaperMarked,
} from "../../../../src/core/kill/coverage.ts";

const MARKED = "PATH=/bin\0LISA_SUBREAPER=run-1:1\0LISA_RUN_ID=run-1\0";
const TRIED = "PATH=/bin\0LISA_SUBREAPER=run-1:0\0LISA_RUN_ID=run-1\0";
const PLAIN = "PATH=/bin\0LISA_RUN_ID=run-1\0";

function facts(over: Partial<SessionFacts> = {}): SessionFacts {
  return {
    panes: [{ pid: 10, dead: false, deadSignal: null }],
    runId: "run-1",
    envReadable: true,
    environOf: () => MARKED,
    heartbeat: "subreaper",
    ...over,
  };
}

Deno.test("a live wrapper marked as subreaper for this run covers everything", () => {
  deepStrictEqual(sessionCoverage(facts()), { subtree: true, runIdScan: true, subreaper: true });
});

Deno.test("without a subreaper (no perl, a refused prctl, no mark) coverage says so", () => {
  for (const environ of [PLAIN, TRIED, null]) {
    deepStrictEqual(
      sessionCoverage(facts({ environOf: () => environ, heartbeat: "" })),
      { subtree: true, runIdScan: true, subreaper: false },
      String(environ),
    );
  }
  // A mark of another run (a stale variable) does not count.
  strictEqual(subreaperMarked("LISA_SUBREAPER=run-0:1\0", "run-1"), false);
  strictEqual(subreaperMarked("LISA_SUBREAPER=run-0:1\0", null), true);
});

Deno.test("a dead pane counts when its wrapper was a subreaper and was not killed by a signal", () => {
  const dead = (deadSignal: number | null, heartbeat: string | null) =>
    sessionCoverage(facts({
      panes: [{ pid: 10, dead: true, deadSignal }],
      environOf: () => null,
      heartbeat,
    })).subreaper;
  strictEqual(dead(null, "subreaper"), true);
  strictEqual(dead(9, "subreaper"), false);
  strictEqual(dead(null, ""), false);
  strictEqual(dead(null, null), false);
});

Deno.test("every pane must be covered: a second pane without the mark spoils it", () => {
  const panes = [
    { pid: 10, dead: false, deadSignal: null },
    { pid: 11, dead: false, deadSignal: null },
  ];
  const c = sessionCoverage(facts({ panes, environOf: (pid) => pid === 10 ? MARKED : PLAIN }));
  strictEqual(c.subreaper, false);
});

Deno.test("no tmux session, no run id or no /proc narrow the coverage", () => {
  deepStrictEqual(sessionCoverage(facts({ panes: null })), {
    subtree: false,
    runIdScan: true,
    subreaper: false,
  });
  strictEqual(sessionCoverage(facts({ runId: null })).runIdScan, false);
  strictEqual(sessionCoverage(facts({ runId: null })).subreaper, true);
  strictEqual(sessionCoverage(facts({ envReadable: false })).runIdScan, false);
});

Deno.test("the coverage of several sessions holds only where it held for each", () => {
  const partial = { subtree: true, runIdScan: false, subreaper: true };
  deepStrictEqual(bothCovered(fullCoverage(), partial), partial);
  deepStrictEqual(
    bothCovered(partial, { subtree: false, runIdScan: true, subreaper: true }),
    { subtree: false, runIdScan: false, subreaper: true },
  );
});
