/**
 * Ending a session's processes for `kill`. The whole set is collected before anything is
 * signalled: the subtree of every live pane pid (children that called `setsid` or started their
 * own process group stay children, so they are in it; on Linux the pane's wrapper is a child
 * subreaper, so daemons that double-forked — `setsid -f`, `codex app-server` — were reparented
 * to it and are in it too) plus every process whose environment holds the session's
 * `LISA_RUN_ID` (what left the subtree anyway, e.g. where no subreaper could be set up).
 * `coverage.ts` says which of these searches could run. Then SIGTERM to all (pane roots first,
 * so the wrapper dies before it could see its child exit), a grace period, SIGKILL to the survivors, and a report of any
 * process that still lives. A pid is only signalled while it still has the start time it was
 * collected with, so a reused pid is never hit; zombies count as ended.
 *
 * On Linux the table comes from `/proc` (start times in clock ticks, so a recycled pid is told
 * apart exactly); elsewhere, or when `/proc` cannot be read, from `ps` (start times to the
 * second) and `grep` over the environ files.
 */
import type { Runner } from "../../base/runner.ts";
import { hasProcFs, listPids, pidsWithEnv, readStat } from "../../proc/table.ts";

/** One process of the table. */
export interface ProcRow {
  pid: number;
  ppid: number;
  /** First letter of ps's STAT (R, S, D, Z, T, …). */
  state: string;
  /** Start time as ps prints it (`lstart`, C locale): identifies a pid across reuse. */
  start: string;
  /** Executable name (ps `comm`, basename). */
  name: string;
}

/** A process collected for termination. */
export type Victim = Pick<ProcRow, "pid" | "start" | "name">;

/** A process that survived SIGKILL (or could not be signalled). */
export interface Survivor {
  pid: number;
  name: string;
}

/** What {@link terminate} did. */
export interface TerminateResult {
  /** Processes that got at least one signal. */
  signalled: number;
  remaining: Survivor[];
}

const C_LOCALE = { LC_ALL: "C", LANG: "C" };
const ROW_RE = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\S+ \S+ +\d+ \S+ \d+)\s+(.*)$/;

function parseRows(stdout: string): ProcRow[] {
  const rows: ProcRow[] = [];
  for (const line of stdout.split("\n")) {
    const m = ROW_RE.exec(line);
    if (!m) continue;
    const comm = m[5].trim();
    rows.push({
      pid: Number(m[1]),
      ppid: Number(m[2]),
      state: m[3][0],
      start: m[4].replace(/ +/g, " "),
      // macOS prints a path; Linux the kernel's comm (which may hold spaces: "tmux: server").
      name: comm.startsWith("/") ? comm.slice(comm.lastIndexOf("/") + 1) : comm,
    });
  }
  return rows;
}

function procRow(pid: number): ProcRow | null {
  const stat = readStat(pid);
  if (stat === null) return null;
  return {
    pid,
    ppid: stat.ppid,
    state: stat.state,
    start: `ticks:${stat.startTime}`,
    name: stat.name,
  };
}

function procRows(pids: readonly number[]): ProcRow[] {
  return pids.map(procRow).filter((r): r is ProcRow => r !== null);
}

/** Every process: from `/proc` when `procfs`, else from one `ps` call. */
export async function processTable(runner: Runner, procfs = false): Promise<ProcRow[]> {
  if (procfs) return procRows(listPids());
  const r = await runner.run(["ps", "-axo", "pid=,ppid=,stat=,lstart=,comm="], {
    allowFailure: true,
    env: C_LOCALE,
  });
  return parseRows(r.stdout);
}

/** The processes among `pids` that are still running (zombies excluded), from one `ps` call. */
async function liveRows(
  runner: Runner,
  pids: readonly number[],
  procfs: boolean,
): Promise<ProcRow[]> {
  if (pids.length === 0) return [];
  if (procfs) return procRows(pids).filter((p) => p.state !== "Z" && p.state !== "X");
  const r = await runner.run(["ps", "-o", "pid=,ppid=,stat=,lstart=,comm=", "-p", pids.join(",")], {
    allowFailure: true,
    env: C_LOCALE,
  });
  return parseRows(r.stdout).filter((p) => p.state !== "Z" && p.state !== "X");
}

/**
 * Pids among `table` whose environment holds `name=value`: one `grep` over their
 * `/proc/<pid>/environ` files (Linux; [] elsewhere).
 */
export async function pidsCarrying(
  runner: Runner,
  name: string,
  value: string,
  table?: readonly ProcRow[],
  procfs = false,
): Promise<number[]> {
  if (procfs) return pidsWithEnv(name, value);
  if (Deno.build.os !== "linux") return [];
  const rows = table ?? await processTable(runner);
  const files = rows.map((p) => `/proc/${p.pid}/environ`);
  if (files.length === 0) return [];
  const r = await runner.run(
    ["grep", "-l", "-s", "-z", "-x", "-F", "-e", `${name}=${value}`, "--", ...files],
    { allowFailure: true },
  );
  const out: number[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = /^\/proc\/(\d+)\/environ$/.exec(line);
    if (m) out.push(Number(m[1]));
  }
  return out;
}

/** `pid` and its ancestors (init excluded), through a parent lookup. */
function chainOf(pid: number, parentOf: (pid: number) => number | undefined): number[] {
  const out: number[] = [];
  for (let p = pid; p > 1 && !out.includes(p);) {
    out.push(p);
    p = parentOf(p) ?? 0;
  }
  return out;
}

/**
 * This process and its ancestors: when lisa runs inside a session, that session's pane pid is
 * among them. From `/proc` (one stat per ancestor), else from one `ps` listing.
 */
export async function callerChain(runner: Runner, procfs = hasProcFs()): Promise<Set<number>> {
  if (procfs) return new Set(chainOf(Deno.pid, (pid) => readStat(pid)?.ppid));
  const byPid = new Map((await processTable(runner)).map((p) => [p.pid, p.ppid]));
  return new Set(chainOf(Deno.pid, (pid) => byPid.get(pid)));
}

/** Options of {@link collectVictims}. */
export interface CollectOptions {
  panePids: readonly number[];
  /** The session's run id; processes carrying it in their environment are collected too. */
  runId?: string | null;
  /** Pids never to collect (the tmux server). */
  exclude?: readonly number[];
  runner: Runner;
  /** Read `/proc` instead of running `ps` (default: when `/proc` is readable). */
  procfs?: boolean;
}

/**
 * Collects the processes of a session (see the module doc), pane roots first, breadth first.
 * Never includes this process, its ancestors, `exclude`, a zombie, or a tmux server.
 */
export async function collectVictims(options: CollectOptions): Promise<Victim[]> {
  const procfs = options.procfs ?? hasProcFs();
  const table = await processTable(options.runner, procfs);
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const children = new Map<number, ProcRow[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const excluded = new Set<number>(options.exclude ?? []);
  // This process and its ancestors: a kill run from inside the session must not kill itself
  // (but their other descendants, such as the heartbeat next to lisa, are still collected).
  const self = new Set(chainOf(Deno.pid, (pid) => byPid.get(pid)?.ppid));
  const out: Victim[] = [];
  const seen = new Set<number>();
  const walk = (root: number) => {
    const queue = [root];
    while (queue.length > 0) {
      const pid = queue.shift()!;
      const p = byPid.get(pid);
      if (p === undefined || seen.has(pid)) continue;
      seen.add(pid);
      // Never descend into a tmux server (nor an excluded pid): one started from inside the
      // session carries its run id but serves other sessions' panes.
      if (excluded.has(pid) || p.name.startsWith("tmux")) continue;
      queue.push(...(children.get(pid) ?? []).map((c) => c.pid));
      if (self.has(pid) || p.state === "Z") continue;
      out.push({ pid: p.pid, start: p.start, name: p.name });
    }
  };
  for (const root of options.panePids) walk(root);
  if (options.runId) {
    // Their subtrees too: a daemon's children may have cleaned their environment.
    const carriers = await pidsCarrying(
      options.runner,
      "LISA_RUN_ID",
      options.runId,
      table,
      procfs,
    );
    for (const pid of carriers) {
      walk(pid);
    }
  }
  return out;
}

/** Options of {@link terminate}. */
export interface TerminateOptions {
  runner: Runner;
  /** How long processes get to exit after SIGTERM before SIGKILL. */
  graceMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Poll interval while waiting (default 50 ms). */
  pollMs?: number;
  /** Read `/proc` instead of running `ps` (default: when `/proc` is readable). */
  procfs?: boolean;
}

/** The victims still running with the start time they were collected with. */
async function stillRunning(
  runner: Runner,
  victims: readonly Victim[],
  procfs: boolean,
): Promise<Victim[]> {
  const rows = await liveRows(runner, victims.map((v) => v.pid), procfs);
  const live = new Map(rows.map((p) => [p.pid, p]));
  return victims.filter((v) => live.get(v.pid)?.start === v.start);
}

function send(victims: readonly Victim[], signal: Deno.Signal, hit: Set<number>): void {
  for (const v of victims) {
    try {
      Deno.kill(v.pid, signal);
      hit.add(v.pid);
    } catch { /* it ended in between */ }
  }
}

async function waitGone(
  victims: Victim[],
  timeoutMs: number,
  options: TerminateOptions,
): Promise<Victim[]> {
  const deadline = Date.now() + timeoutMs;
  const procfs = options.procfs ?? hasProcFs();
  let alive = await stillRunning(options.runner, victims, procfs);
  while (alive.length > 0 && Date.now() < deadline) {
    await options.sleep(options.pollMs ?? 50);
    alive = await stillRunning(options.runner, alive, procfs);
  }
  return alive;
}

/** SIGTERM, grace, SIGKILL, and a report of what is left (see the module doc). */
export async function terminate(
  victims: readonly Victim[],
  options: TerminateOptions,
): Promise<TerminateResult> {
  const hit = new Set<number>();
  const targets = await stillRunning(options.runner, victims, options.procfs ?? hasProcFs());
  send(targets, "SIGTERM", hit);
  // A stopped process only acts on SIGTERM once continued.
  send(targets, "SIGCONT", new Set());
  let alive = await waitGone(targets, options.graceMs, options);
  send(alive, "SIGKILL", hit);
  alive = await waitGone(alive, 1000, options);
  return {
    signalled: hit.size,
    remaining: alive.map((v) => ({ pid: v.pid, name: v.name })),
  };
}
