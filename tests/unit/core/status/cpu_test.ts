import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  combinedReading,
  CPU_MAX_STORED,
  isCpuBusy,
  mergeSamples,
  needsSecondSample,
  pickReference,
  ratePercent,
} from "../../../../src/core/status/cpu.ts";
import type { CpuSample } from "../../../../src/base/types.ts";

function s(atMs: number, ticks: number, pid = 10, startTime = 5): CpuSample {
  return { pid, startTime, ticks, atMs };
}

Deno.test("the rate is delta ticks over clock ticks per second over the window", () => {
  strictEqual(ratePercent(s(0, 100), s(2000, 150), 100), 25);
  strictEqual(ratePercent(s(0, 100), s(1000, 200), 100), 100);
  strictEqual(ratePercent(s(1000, 0), s(1000, 5), 100), 0);
});

Deno.test("the reference is the oldest sample of the same process within five seconds", () => {
  const now = 100_000;
  const stored = [s(now - 9000, 1), s(now - 4500, 2), s(now - 2000, 3), s(now - 20, 4)];
  deepStrictEqual(pickReference(stored, s(now, 9)), s(now - 4500, 2));
});

Deno.test("a sample between five and ten seconds old is used when nothing younger is", () => {
  const now = 100_000;
  deepStrictEqual(pickReference([s(now - 9000, 1), s(now - 7000, 2)], s(now, 9)), s(now - 7000, 2));
  strictEqual(pickReference([s(now - 11_000, 1)], s(now, 9)), null);
});

Deno.test("samples of another process or a reused pid are never a reference", () => {
  const now = 100_000;
  strictEqual(pickReference([s(now - 2000, 1, 11)], s(now, 9)), null);
  strictEqual(pickReference([s(now - 2000, 1, 10, 6)], s(now, 9)), null);
  strictEqual(pickReference([s(now - 2000, 50)], s(now, 9)), null);
});

Deno.test("a call without a recent sample needs a second reading", () => {
  const now = 100_000;
  strictEqual(needsSecondSample([], [s(now, 1)]), true);
  strictEqual(needsSecondSample([s(now - 30_000, 1)], [s(now, 1)]), true);
  strictEqual(needsSecondSample([s(now - 3000, 1)], [s(now, 1)]), false);
  strictEqual(needsSecondSample([], []), false);
});

Deno.test("readings of several processes add up", () => {
  const now = 100_000;
  const stored = [s(now - 2000, 100, 10), s(now - 2000, 0, 11)];
  const reading = combinedReading(stored, [s(now, 120, 10), s(now, 40, 11), s(now, 5, 12)], 100);
  deepStrictEqual(reading, { percent: 30, deltaTicks: 60, windowMs: 2000 });
  strictEqual(combinedReading([], [s(now, 1)], 100), null);
});

Deno.test("a new sample is stored only a second after the previous one, old ones are dropped", () => {
  const now = 100_000;
  const stored = [s(now - 30_000, 1), s(now - 4000, 2), s(now - 500, 3), s(now - 500, 1, 99)];
  const next = mergeSamples(stored, [s(now, 4)], now);
  deepStrictEqual(next, [s(now - 4000, 2), s(now - 500, 3)]);
  const later = mergeSamples(next, [s(now + 1000, 5)], now + 1000);
  deepStrictEqual(later, [s(now - 4000, 2), s(now - 500, 3), s(now + 1000, 5)]);
});

Deno.test("the stored samples stay bounded", () => {
  let stored: CpuSample[] = [];
  for (let i = 0; i < 200; i++) {
    const cur = Array.from({ length: 10 }, (_, p) => s(i * 1000, i, p));
    stored = mergeSamples(stored, cur, i * 1000);
  }
  strictEqual(stored.length <= CPU_MAX_STORED, true);
});

Deno.test("busy needs the threshold and more than one stray tick", () => {
  strictEqual(isCpuBusy({ percent: 6.7, deltaTicks: 1, windowMs: 150 }, 5), false);
  strictEqual(isCpuBusy({ percent: 13.3, deltaTicks: 2, windowMs: 150 }, 5), true);
  strictEqual(isCpuBusy({ percent: 3, deltaTicks: 15, windowMs: 5000 }, 5), false);
  strictEqual(isCpuBusy(null, 5), false);
});
