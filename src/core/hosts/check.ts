/**
 * `lisa hosts check`: whether each host of the file can be reached, which lisa answers there,
 * whether it speaks this lisa's JSON contract (`host_version_mismatch` when it is older or
 * newer), and what a call costs: the first call (connection set-up included when no shared
 * connection was up) and a second one over the shared connection (`rttMs`: what a lisa call to
 * that host costs from now on, the remote lisa's start-up included). Hosts are checked in
 * parallel.
 */
import type { Deps } from "../../base/deps.ts";
import { JSON_CONTRACT } from "../../base/version.ts";
import type { HostEntry } from "./hosts_file.ts";
import { queryHost } from "./query.ts";

/** One host as `hosts check` reports it. */
export interface HostCheck {
  name: string;
  ssh: string;
  lisa: string;
  /** True when the host answered and speaks this lisa's JSON contract. */
  ok: boolean;
  /** The host answered at all (ssh connected and its lisa ran). */
  reachable: boolean;
  /** The remote lisa's version, commit and JSON contract (null when it did not answer). */
  version: string | null;
  commit: string | null;
  jsonContract: number | null;
  /** Wall time of the first call (connection set-up included unless one was shared). */
  firstCallMs: number | null;
  /** Wall time of a second call, over the shared connection. */
  rttMs: number | null;
  errorCode?: string;
  error?: string;
}

/** Checks one host (see the module doc). Never throws. */
export async function checkHost(deps: Deps, host: HostEntry): Promise<HostCheck> {
  const base = { name: host.name, ssh: host.ssh, lisa: host.lisa };
  const first = await queryHost(deps, host, ["version", "--json"]);
  if (!first.ok) {
    return {
      ...base,
      ok: false,
      reachable: first.errorCode !== "host_unreachable" && first.errorCode !== "program_not_found",
      version: null,
      commit: null,
      jsonContract: null,
      firstCallMs: first.elapsedMs,
      rttMs: null,
      errorCode: first.errorCode,
      error: first.error,
    };
  }
  const second = await queryHost(deps, host, ["version", "--json"]);
  const doc = first.doc;
  // A lisa from before the contract had a number says nothing about it: contract 0.
  const contract = typeof doc.jsonContract === "number" ? doc.jsonContract : 0;
  const version = typeof doc.version === "string" ? doc.version : null;
  const found = {
    ...base,
    reachable: true,
    version,
    commit: typeof doc.commit === "string" ? doc.commit : null,
    jsonContract: contract,
    firstCallMs: first.elapsedMs,
    rttMs: second.elapsedMs,
  };
  if (contract !== JSON_CONTRACT) {
    const side = contract < JSON_CONTRACT ? "older" : "newer";
    return {
      ...found,
      ok: false,
      errorCode: "host_version_mismatch",
      error: `Host "${host.name}" runs lisa ${version ?? "(unknown version)"} with JSON contract ` +
        `${contract}, ${side} than this lisa's ${JSON_CONTRACT}: update the ${
          side === "older" ? "host's" : "local"
        } lisa`,
    };
  }
  return { ...found, ok: true };
}

/** {@link checkHost} for every host, in parallel, in the file's order. */
export function checkHosts(deps: Deps, hosts: readonly HostEntry[]): Promise<HostCheck[]> {
  return Promise.all(hosts.map((h) => checkHost(deps, h)));
}
