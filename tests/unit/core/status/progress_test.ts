import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  nextProgress,
  PROGRESS_MARK_MS,
  type ProgressState,
} from "../../../../src/core/status/progress.ts";

const empty: ProgressState = {
  lastBusyAtMs: null,
  progressMarkAtMs: null,
  progressMarkTicks: null,
};

Deno.test("the first poll sets a checkpoint and sees no progress unless busy now", () => {
  deepStrictEqual(nextProgress(empty, { ticks: 500, busyNow: false }, 1000, 2.5, 100), {
    lastBusyAtMs: null,
    progressMarkAtMs: 1000,
    progressMarkTicks: 500,
  });
  strictEqual(
    nextProgress(empty, { ticks: 500, busyNow: true }, 1000, 2.5, 100).lastBusyAtMs,
    1000,
  );
});

Deno.test("CPU used between two rare polls counts, even when both polls saw the agent idle", () => {
  const mark = { lastBusyAtMs: null, progressMarkAtMs: 0, progressMarkTicks: 1000 };
  // 30 s later, 300 ticks (3 s of CPU) = 10 % on average: above claude's 2.5 % idle ceiling.
  const after = nextProgress(mark, { ticks: 1300, busyNow: false }, 30_000, 2.5, 100);
  deepStrictEqual(after, {
    lastBusyAtMs: 30_000,
    progressMarkAtMs: 30_000,
    progressMarkTicks: 1300,
  });
  // 30 ticks in 30 s = 1 %: idle, the last busy time stays.
  const idle = nextProgress(mark, { ticks: 1030, busyNow: false }, 30_000, 2.5, 100);
  strictEqual(idle.lastBusyAtMs, null);
  strictEqual(idle.progressMarkAtMs, 30_000);
});

Deno.test("a young checkpoint is kept; counters that went down start a new one", () => {
  const mark = { lastBusyAtMs: 5, progressMarkAtMs: 0, progressMarkTicks: 1000 };
  deepStrictEqual(
    nextProgress(mark, { ticks: 5000, busyNow: false }, PROGRESS_MARK_MS - 1, 2.5, 100),
    mark,
  );
  const reset = nextProgress(mark, { ticks: 10, busyNow: false }, PROGRESS_MARK_MS, 2.5, 100);
  deepStrictEqual(reset, {
    lastBusyAtMs: 5,
    progressMarkAtMs: PROGRESS_MARK_MS,
    progressMarkTicks: 10,
  });
});
