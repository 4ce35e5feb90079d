/**
 * The process table. On Linux it reads `/proc` directly (no `ps`): one process's facts, its
 * children (`/proc/<pid>/task/<tid>/children`), a subtree, and processes by environment.
 * Where `/proc` is absent (macOS) it falls back to one `ps` listing.
 */
import type { Runner } from "../base/runner.ts";
import { readTextFile } from "../base/text_file.ts";

/** Facts about one process. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** One-letter state (R, S, D, Z, T, …). */
  state: string;
  /** Executable name as the kernel reports it (comm, ≤15 chars). */
  name: string;
  argv: string[];
  /** utime + stime in clock ticks. */
  ticks: number;
  /** Start time in clock ticks since boot (identifies a pid across reuse). */
  startTime: number;
}

/** Clock ticks per second (USER_HZ, 100 on every Linux we target). */
export const CLK_TCK = 100;

/** True when this system has a Linux-style `/proc`. */
export function hasProcFs(): boolean {
  try {
    return Deno.statSync("/proc/self/stat").isFile;
  } catch {
    return false;
  }
}

/** Parses the text of `/proc/<pid>/stat` (comm may hold spaces and parentheses). */
export function parseStat(text: string): Omit<ProcInfo, "argv"> | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const name = text.slice(open + 1, close);
  const rest = text.slice(close + 2).split(" ");
  // rest[0] is field 3 (state); field n is rest[n - 3].
  const field = (n: number) => Number(rest[n - 3]);
  return {
    pid,
    name,
    state: rest[0],
    ppid: field(4),
    pgid: field(5),
    sid: field(6),
    ticks: field(14) + field(15),
    startTime: field(22),
  };
}

function readText(path: string): string | null {
  try {
    return readTextFile(path);
  } catch {
    return null;
  }
}

/** Reads one process from `/proc`; null when it does not exist (or vanished). */
export function readProc(pid: number): ProcInfo | null {
  return readProcThreads(pid)?.info ?? null;
}

/** Field 20 of a stat line (num_threads); null when the line does not parse. */
function threadCount(stat: string): number | null {
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const n = Number(rest[20 - 3]);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** {@link readProc} plus the process's thread count (null when unknown). */
function readProcThreads(pid: number): { info: ProcInfo; threads: number | null } | null {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const parsed = parseStat(stat);
  if (parsed === null) return null;
  const cmdline = readText(`/proc/${pid}/cmdline`) ?? "";
  const argv = cmdline.split("\0");
  if (argv.length > 0 && argv[argv.length - 1] === "") argv.pop();
  return { info: { ...parsed, argv }, threads: threadCount(stat) };
}

/** Reads only the stat line (cheaper: no cmdline); null when gone. */
export function readStat(pid: number): Omit<ProcInfo, "argv"> | null {
  const stat = readText(`/proc/${pid}/stat`);
  return stat === null ? null : parseStat(stat);
}

/**
 * Context switches of `pid` so far (voluntary and involuntary, from `/proc/<pid>/status`); null
 * when it is gone or the file does not say.
 */
export function contextSwitches(pid: number): number | null {
  const text = readText(`/proc/${pid}/status`);
  if (text === null) return null;
  const count = (field: string) =>
    Number(text.match(new RegExp(`^${field}:\\s*(\\d+)$`, "m"))?.[1]);
  const sum = count("voluntary_ctxt_switches") + count("nonvoluntary_ctxt_switches");
  return Number.isFinite(sum) ? sum : null;
}

/**
 * System call numbers of the calls a process waiting for keyboard input sleeps in: `read`/`readv`
 * on its terminal (`cat`, a shell's `read`, Python's `input()` without readline), or
 * `select`/`pselect6` watching fd 0 alone (readline: an interactive bash, the Python REPL).
 * `poll` and `epoll` (Node programs) do not say which descriptors they watch, so they are not
 * read as a wait for input.
 */
const INPUT_SYSCALLS: Readonly<Record<string, { read: number[]; select: number[] }>> = {
  x86_64: { read: [0, 19], select: [23, 270] },
  aarch64: { read: [63, 65], select: [72] },
};

/** True when `fd` of process `pid` is a terminal (`/dev/pts/N`, `/dev/ttyN`, `/dev/tty`). */
function isTerminalFd(pid: number, fd: number): boolean {
  try {
    return /^\/dev\/(?:pts\/\d+|tty\w*)$/.test(Deno.readLinkSync(`/proc/${pid}/fd/${fd}`));
  } catch {
    return false;
  }
}

/**
 * Parses `/proc/<pid>/syscall` ("nr arg0 arg1 … sp pc"; "running" while it runs) into whether
 * the process sleeps waiting for keyboard input on a terminal (see {@link INPUT_SYSCALLS}), given
 * a test of whether one of its descriptors is a terminal. Pure but for `isTerminal`.
 */
export function parseInputWait(
  text: string,
  arch: string,
  isTerminal: (fd: number) => boolean,
): boolean {
  const calls = INPUT_SYSCALLS[arch];
  const words = text.trim().split(" ");
  if (calls === undefined || words.length < 3) return false;
  const nr = Number(words[0]);
  const arg0 = Number.parseInt(words[1], 16);
  if (!Number.isInteger(nr) || !Number.isInteger(arg0)) return false;
  if (calls.read.includes(nr)) return isTerminal(arg0);
  // select's first argument is the highest descriptor + 1: 1 means fd 0 and nothing else.
  if (calls.select.includes(nr)) return arg0 === 1 && isTerminal(0);
  return false;
}

/**
 * The stand-in for `/proc/<pid>/syscall` (see {@link waitsForTerminalInput}): the process
 * sleeps in the terminal read (`n_tty_read`, or `wait_woken` where that sleeps) and its fd 0 is
 * a terminal. Pure but for `fd0IsTerminal`.
 */
export function wchanWaitsForInput(wchan: string | null, fd0IsTerminal: () => boolean): boolean {
  const fn = wchan?.trim();
  return (fn === "n_tty_read" || fn === "wait_woken") && fd0IsTerminal();
}

/**
 * True when process `pid` sleeps waiting for keyboard input on its terminal; false when it
 * does not, or when that cannot be read (another user's process, an architecture not listed).
 * `/proc/<pid>/syscall` needs the right to trace the process, which Yama (`ptrace_scope` 1,
 * Ubuntu's default) grants only for descendants, and a pane's processes descend from tmux:
 * then the kernel function it sleeps in (`wchan`, readable to its owner) stands in, the
 * terminal read (`n_tty_read`, or `wait_woken` where that sleeps) on fd 0 being a terminal.
 * That cannot see readline's `select`, and may take a blocking socket read for it.
 */
export function waitsForTerminalInput(pid: number): boolean {
  let text: string;
  try {
    text = readTextFile(`/proc/${pid}/syscall`);
  } catch {
    return wchanWaitsForInput(readText(`/proc/${pid}/wchan`), () => isTerminalFd(pid, 0));
  }
  return parseInputWait(text, Deno.build.arch, (fd) => isTerminalFd(pid, fd));
}

/** Every pid in `/proc`. */
export function listPids(): number[] {
  const pids: number[] = [];
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (/^\d+$/.test(entry.name)) pids.push(Number(entry.name));
    }
  } catch { /* no /proc */ }
  return pids;
}

/**
 * Direct children of `pid`, from `/proc/<pid>/task/*\/children` (no full scan). Falls back to a
 * scan of all processes when the kernel lacks that file. `threads`, the thread count its stat
 * line gave: a single-threaded process has one task, the pid itself, so its task directory
 * need not be listed (a thread started since is no different from one started after a listing).
 */
export function childPids(pid: number, threads: number | null = null): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  if (threads === 1) {
    tasks = [String(pid)];
  } else {
    try {
      tasks = [...Deno.readDirSync(`/proc/${pid}/task`)].map((e) => e.name);
    } catch {
      return [];
    }
  }
  let supported = false;
  for (const tid of tasks) {
    const text = readText(`/proc/${pid}/task/${tid}/children`);
    if (text === null) continue;
    supported = true;
    for (const word of text.trim().split(/\s+/)) if (word) out.push(Number(word));
  }
  if (supported) return out;
  return listPids().filter((p) => readStat(p)?.ppid === pid);
}

/** `rootPid` and all its descendants, breadth first (root first). Missing root → []. */
export function subtree(rootPid: number): ProcInfo[] {
  const out: ProcInfo[] = [];
  const seen = new Set<number>();
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const read = readProcThreads(pid);
    if (read === null) continue;
    out.push(read.info);
    queue.push(...childPids(pid, read.threads));
  }
  return out;
}

/** True when `pid` runs and started at `startTime` (guards against pid reuse). */
export function isAlive(pid: number, startTime?: number | null): boolean {
  const stat = readStat(pid);
  if (stat === null || stat.state === "Z" || stat.state === "X") return false;
  return startTime === undefined || startTime === null || stat.startTime === startTime;
}

/**
 * Pids whose environment holds `name=value` (a full scan; used by kill to find processes that
 * escaped the pane's subtree, such as daemons reparented to init). Unreadable ones are skipped.
 */
export function pidsWithEnv(name: string, value: string): number[] {
  const needle = new TextEncoder().encode(`${name}=${value}\0`);
  const out: number[] = [];
  for (const pid of listPids()) {
    let bytes: Uint8Array;
    try {
      bytes = Deno.readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    if (indexOfBytes(bytes, needle) >= 0) out.push(pid);
  }
  return out;
}

function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    // An entry starts at 0 or right after a NUL.
    if (i > 0 && hay[i - 1] !== 0) continue;
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Full listing through `ps` for systems without `/proc` (macOS). `ticks` is derived from the
 * cumulative CPU time column; `startTime` is the start time in seconds since the epoch.
 */
export async function psListing(runner: Runner): Promise<ProcInfo[]> {
  const r = await runner.run(
    ["ps", "-axo", "pid=,ppid=,pgid=,sess=,stat=,time=,lstart=,comm=,args="],
    { allowFailure: true },
  );
  const out: ProcInfo[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = line.trim().match(
      /^(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\w{3} \w{3}\s+\d+ [\d:]+ \d{4})\s+(\S+)\s+(.*)$/,
    );
    if (!m) continue;
    const [, pid, ppid, pgid, sid, stat, time, lstart, comm, args] = m;
    out.push({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      sid: Number(sid),
      state: stat[0],
      name: comm.slice(comm.lastIndexOf("/") + 1),
      argv: args.split(" "),
      ticks: Math.round(cpuSeconds(time) * CLK_TCK),
      startTime: Math.floor(Date.parse(lstart) / 1000),
    });
  }
  return out;
}

function cpuSeconds(time: string): number {
  // [[dd-]hh:]mm:ss[.ff]
  const [daysPart, clock] = time.includes("-") ? time.split("-") : ["0", time];
  const parts = clock.split(":").map(Number);
  let secs = 0;
  for (const p of parts) secs = secs * 60 + p;
  return Number(daysPart) * 86400 + secs;
}

/**
 * The live (not zombie) processes of process group `pgid`, from a scan of `/proc`; null where
 * there is no `/proc`.
 */
export function groupMembers(pgid: number): Omit<ProcInfo, "argv">[] | null {
  if (!hasProcFs()) return null;
  const out: Omit<ProcInfo, "argv">[] = [];
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat !== null && stat.pgid === pgid && stat.state !== "Z" && stat.state !== "X") {
      out.push(stat);
    }
  }
  return out;
}
