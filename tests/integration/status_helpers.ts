/**
 * Helpers of the status and monitor integration tests: a runner that counts subprocesses by
 * program, and status / wait shortcuts over lisa in-process.
 */
import { strictEqual } from "node:assert/strict";
import { DenoRunner } from "../../src/proc/runner.ts";
import type { Runner, RunOptions, RunResult } from "../../src/base/runner.ts";
import { waitFor, type World } from "../helpers/world.ts";

/** A real runner that records every argv it runs. */
export class CountingRunner implements Runner {
  readonly calls: string[][] = [];
  private readonly inner = new DenoRunner(20_000);
  run(argv: readonly string[], options?: RunOptions): Promise<RunResult> {
    this.calls.push([...argv]);
    return this.inner.run(argv, options);
  }
  /** Calls whose program is `name`. */
  count(name: string): number {
    return this.calls.filter((c) => c[0] === name || c[0].endsWith(`/${name}`)).length;
  }
}

/** A status report as JSON. */
export type Report = Record<string, unknown> & {
  sessionState: string;
  classificationReason: string;
  status: string;
  exitCode: number | null;
  waitingFor: string | null;
  signals: Record<string, unknown>;
};

/** `session status --json` in-process (asserting exit 0 and a JSON payload). */
export async function status(
  world: World,
  session: string,
  options: { runner?: Runner; env?: Record<string, string>; extra?: string[] } = {},
): Promise<Report> {
  const r = await world.lisaInProcess(
    ["session", "status", "--session", session, "--json", ...(options.extra ?? [])],
    { runner: options.runner, env: options.env },
  );
  strictEqual(r.code, 0, `status failed: ${r.stdout}${r.stderr}`);
  return r.json as Report;
}

/**
 * Polls status (every 250 ms: a wait ends soon after its condition holds) until `pred` holds;
 * returns that report. Throws, with the last report, when it never holds within `timeoutMs`.
 */
export async function statusUntil(
  world: World,
  session: string,
  pred: (r: Report) => boolean,
  timeoutMs = 30_000,
): Promise<Report> {
  let last: Report | undefined;
  const met = await waitFor(
    async () => {
      last = await status(world, session);
      return pred(last);
    },
    timeoutMs,
    250,
  );
  // Never a silent pass: a condition that did not come is the test's failure, with what came.
  if (!met) {
    throw new Error(
      `status of ${session} never met the condition in ${timeoutMs} ms; last: ${
        JSON.stringify(last)
      }`,
    );
  }
  return last!;
}
