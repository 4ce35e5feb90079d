/**
 * Deps for unit tests: every collaborator a fake unless the test passes its own. The default
 * runner rejects every call (fakes fail loudly); `slept` collects the waits a test asked for
 * (nothing really sleeps).
 */
import { MemoryIo } from "../../src/cli/io.ts";
import { type Deps, makeDeps } from "../../src/base/deps.ts";
import type { Runner } from "../../src/base/runner.ts";

/** A runner that fails on any call nobody stubbed. */
export const NO_SUBPROCESS: Runner = {
  run: (argv) => Promise.reject(new Error(`unexpected subprocess: ${argv.join(" ")}`)),
};

/** Options of {@link fakeDeps}: any Deps field, plus a list that records sleeps. */
export type FakeDepsOptions = Partial<Omit<Deps, "sleep">> & { slept?: number[] };

/** Deps with env {}, cwd "/", this uid, a fixed clock, no-op sleep, a failing runner. */
export function fakeDeps(options: FakeDepsOptions = {}): Deps {
  const { slept, ...parts } = options;
  return makeDeps({
    env: {},
    cwd: "/",
    uid: Deno.uid() ?? 0,
    now: () => new Date(0),
    runner: NO_SUBPROCESS,
    io: new MemoryIo(),
    selfCommand: ["lisa"],
    ...parts,
    sleep: (ms) => {
      slept?.push(ms);
      return Promise.resolve();
    },
  });
}
