/**
 * Fleet queries: one lisa command asked of several hosts at once (`list`, `tree` with
 * `--all-hosts`, `hosts check`), each answer a JSON document. Hosts are asked in parallel and
 * each is given at most `LISA_HOST_TIMEOUT_SECONDS`: a host that cannot answer in that time is
 * reported (`host_unreachable`), and never holds up the others beyond it. A query never throws
 * for one host's failure; the caller gets every host's outcome.
 */
import type { Deps } from "../../base/deps.ts";
import { LisaError } from "../../base/errors.ts";
import type { HostEntry } from "./hosts_file.ts";
import { runOnHost } from "./run_on_host.ts";
import type { Doc } from "./tag.ts";

/** One host's answer to a fleet query. */
export type HostAnswer =
  | { host: HostEntry; ok: true; doc: Doc; code: number; elapsedMs: number }
  | { host: HostEntry; ok: false; errorCode: string; error: string; elapsedMs: number };

/** How a host's failure is listed in a fleet document's `hosts[]`. */
export interface HostOutcome {
  name: string;
  ok: boolean;
  /** Set when not ok: `host_unreachable`, `host_lisa_failed`, or the remote lisa's own code. */
  errorCode?: string;
  error?: string;
  elapsedMs: number;
}

/** `answer` as a row of `hosts[]` (with `extra` fields when it is ok). Pure. */
export function outcomeOf(answer: HostAnswer, extra: Record<string, unknown> = {}): HostOutcome {
  return answer.ok ? { name: answer.host.name, ok: true, ...extra, elapsedMs: answer.elapsedMs } : {
    name: answer.host.name,
    ok: false,
    errorCode: answer.errorCode,
    error: answer.error,
    elapsedMs: answer.elapsedMs,
  };
}

/**
 * Asks `host`'s lisa `args` (which must make it print one JSON document) within
 * `LISA_HOST_TIMEOUT_SECONDS`. Never throws: ssh failures, a timeout, a remote error document
 * and an answer that is not JSON each come back as `ok: false` with their code.
 */
export async function queryHost(
  deps: Deps,
  host: HostEntry,
  args: readonly string[],
): Promise<HostAnswer> {
  const started = performance.now();
  const failed = (errorCode: string, error: string): HostAnswer => ({
    host,
    ok: false,
    errorCode,
    error,
    elapsedMs: Math.round(performance.now() - started),
  });
  try {
    const r = await runOnHost(deps, host, args, {
      timeoutMs: deps.config.hostTimeoutSeconds * 1000,
    });
    let doc: unknown;
    try {
      doc = JSON.parse(r.stdout);
    } catch {
      return failed(
        "host_lisa_failed",
        `Host "${host.name}" answered with something other than JSON (exit ${r.code})` +
          (r.stderr.trim() ? `: ${r.stderr.trim().split("\n").pop()}` : ""),
      );
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
      return failed("host_lisa_failed", `Host "${host.name}" answered with JSON that is no object`);
    }
    const d = doc as Doc;
    if (d.ok === false) {
      return failed(
        typeof d.errorCode === "string" ? d.errorCode : "host_lisa_failed",
        `Host "${host.name}": ${typeof d.error === "string" ? d.error : "failed"}`,
      );
    }
    return { host, ok: true, doc: d, code: r.code, elapsedMs: r.elapsedMs };
  } catch (error) {
    if (error instanceof LisaError) return failed(error.code, error.message);
    return failed("host_unreachable", (error as Error).message);
  }
}

/** {@link queryHost} for every host at once, in the order given. */
export function queryHosts(
  deps: Deps,
  hosts: readonly HostEntry[],
  args: readonly string[],
): Promise<HostAnswer[]> {
  return Promise.all(hosts.map((h) => queryHost(deps, h, args)));
}
