/**
 * Agent process matching (DESIGN §4.6). A process is an agent by its executable name and the
 * *structure* of its argv: the executable itself (`claude`, `claude.exe`, `codex`), a script run
 * by an interpreter (`node …/codex.js`, `bash …/claude`), or the command word of a wrapper
 * (`env`, `timeout`, `nice`, `nohup`, `setsid`, `npx`/`npm exec`). Words of the prompt are never
 * looked at: only argv[0], an interpreter's script path and a wrapper's command word are, so a
 * prompt that says "grep" or "codex" changes nothing (DESIGN §9 defect 3).
 */
import type { Agent } from "../base/types.ts";
import type { ProcInfo } from "../proc/table.ts";

/** Built-in executable names of each agent (compared without case). */
export const AGENT_EXECUTABLES: Readonly<Record<Agent, readonly string[]>> = {
  claude: ["claude", "claude.exe"],
  codex: ["codex", "codex.js", "codex.exe"],
};

/** npm package names that `npx`/`npm exec` run as each agent. */
export const AGENT_PACKAGES: Readonly<Record<Agent, readonly string[]>> = {
  claude: ["@anthropic-ai/claude-code", "claude-code", "claude"],
  codex: ["@openai/codex", "codex"],
};

/** Interpreters whose first non-option argument is the program that really runs. */
const INTERPRETERS = new Set([
  "node",
  "nodejs",
  "bun",
  "deno",
  "bash",
  "sh",
  "dash",
  "zsh",
  "python",
  "python3",
  "perl",
  "ruby",
]);

/** Extra names from `LISA_AGENT_PROCESS_MATCH*` (any agent, claude only, codex only). */
export interface ExtraMatchNames {
  any: readonly string[];
  claude: readonly string[];
  codex: readonly string[];
}

/** How a process was recognised. */
export type MatchKind = "executable" | "script" | "wrapper" | "custom";

/** One process recognised as an agent. */
export interface AgentMatch {
  agent: Agent;
  kind: MatchKind;
  /** The name that matched (executable, script or package basename). */
  via: string;
}

function base(word: string): string {
  const trimmed = word.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1).toLowerCase();
}

/** Strips an npm version suffix: `@openai/codex@0.169.0` → `@openai/codex`. */
function packageName(spec: string): string {
  const at = spec.lastIndexOf("@");
  return (at > 0 ? spec.slice(0, at) : spec).toLowerCase();
}

function agentOfName(
  name: string,
  extra: ExtraMatchNames,
  prefer: Agent | null,
): AgentMatch | null {
  const n = name.toLowerCase();
  for (const agent of ["claude", "codex"] as const) {
    if (AGENT_EXECUTABLES[agent].includes(n)) return { agent, kind: "executable", via: n };
  }
  for (const agent of ["claude", "codex"] as const) {
    if (extra[agent].some((e) => e.toLowerCase() === n)) return { agent, kind: "custom", via: n };
  }
  if (extra.any.some((e) => e.toLowerCase() === n)) {
    return { agent: prefer ?? "claude", kind: "custom", via: n };
  }
  return null;
}

/** Index of the first non-option argument of an interpreter call, or -1 (`-c`, `-e`, `-m`: none). */
function scriptIndex(interp: string, argv: readonly string[]): number {
  let i = 1;
  if ((interp === "deno" || interp === "bun") && argv[1] === "run") i = 2;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") return i + 1 < argv.length ? i + 1 : -1;
    // The program is a command string or module, not a file: nothing to match (prompt safety).
    if (/^-(c|e|m|p|-eval|-print|-command)$/.test(a) || /^-[a-z]*c$/.test(a)) return -1;
    if (!a.startsWith("-")) return i;
  }
  return -1;
}

/** The wrapped command of a wrapper argv, or null when `argv` is not a wrapper call. */
export function unwrapCommand(argv: readonly string[]): string[] | null {
  const w = base(argv[0] ?? "");
  let i = 1;
  switch (w) {
    case "env":
      for (; i < argv.length; i++) {
        const a = argv[i];
        if (a === "-u" || a === "-C" || a === "--unset" || a === "--chdir") i++;
        else if (a === "-S" || a === "--split-string") return null;
        else if (a === "--") {
          i++;
          break;
        } else if (!a.startsWith("-") && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) break;
      }
      return argv.slice(i);
    case "timeout":
      for (; i < argv.length; i++) {
        const a = argv[i];
        if (a === "-s" || a === "-k" || a === "--signal" || a === "--kill-after") i++;
        else if (!a.startsWith("-")) break;
      }
      return argv.slice(i + 1); // skip the duration
    case "nice":
      for (; i < argv.length; i++) {
        const a = argv[i];
        if (a === "-n" || a === "--adjustment") i++;
        else if (!a.startsWith("-")) break;
      }
      return argv.slice(i);
    case "nohup":
    case "setsid":
    case "stdbuf":
      while (i < argv.length && argv[i].startsWith("-")) i++;
      return argv.slice(i);
    default:
      return null;
  }
}

/** The package an `npx`/`npm exec` argv runs, or null. */
function npxPackage(argv: readonly string[]): string | null {
  // npm rewrites its process title to "npm exec <pkg> …", which may land in argv[0] whole.
  const words = argv.length === 1 ? argv[0].split(" ") : [...argv];
  let i: number;
  const first = base(words[0] ?? "");
  if (first === "npx") i = 1;
  else if (first === "npm" && (words[1] === "exec" || words[1] === "x")) i = 2;
  else if (
    (first === "node" || first === "nodejs") && words.length > 1 && base(words[1]) === "npx"
  ) i = 2;
  else return null;
  for (; i < words.length; i++) {
    const a = words[i];
    if (a === "--package" || a === "-p") return packageName(words[i + 1] ?? "");
    if (a.startsWith("--package=")) return packageName(a.slice("--package=".length));
    if (a === "--") continue;
    if (!a.startsWith("-")) return packageName(a);
  }
  return null;
}

/**
 * Recognises `argv` (with kernel name `comm`) as an agent, or returns null. `prefer` is the
 * session's agent, used for names from the any-agent list. Only argv[0], an interpreter's script
 * and a wrapper's command word are examined, never the remaining arguments.
 */
export function matchArgv(
  comm: string,
  argv: readonly string[],
  extra: ExtraMatchNames,
  prefer: Agent | null = null,
  depth = 0,
): AgentMatch | null {
  const byComm = comm ? agentOfName(comm, extra, prefer) : null;
  if (byComm) return byComm;
  if (argv.length === 0) return null;
  const exe = base(argv[0]);
  const byExe = agentOfName(exe, extra, prefer);
  if (byExe) return byExe;
  if (INTERPRETERS.has(exe) || INTERPRETERS.has(comm.toLowerCase())) {
    const si = scriptIndex(exe, argv);
    if (si > 0) {
      const hit = agentOfName(base(argv[si]), extra, prefer);
      if (hit) return { ...hit, kind: hit.kind === "custom" ? "custom" : "script" };
    }
  }
  const pkg = npxPackage(argv);
  if (pkg !== null) {
    for (const agent of ["claude", "codex"] as const) {
      if (AGENT_PACKAGES[agent].includes(pkg)) return { agent, kind: "wrapper", via: pkg };
    }
    return null;
  }
  if (depth < 4) {
    const inner = unwrapCommand(argv);
    if (inner !== null && inner.length > 0) {
      const hit = matchArgv("", inner, extra, prefer, depth + 1);
      if (hit) return { ...hit, kind: "wrapper" };
    }
  }
  return null;
}

/** Result of {@link findAgent}. */
export interface FoundAgent {
  agent: Agent;
  /** The agent process (the outermost real agent; a wrapper only when nothing runs below it). */
  proc: ProcInfo;
  match: AgentMatch;
  /** The agent process and its descendants of the same agent (codex's native child). */
  family: ProcInfo[];
}

/** Children index of a process list. */
export function childrenIndex(procs: readonly ProcInfo[]): Map<number, ProcInfo[]> {
  const index = new Map<number, ProcInfo[]>();
  for (const p of procs) {
    const list = index.get(p.ppid);
    if (list) list.push(p);
    else index.set(p.ppid, [p]);
  }
  return index;
}

/** Every descendant of `pid` in `procs` (breadth first, without `pid` itself). */
export function descendantsOf(pid: number, procs: readonly ProcInfo[]): ProcInfo[] {
  const index = childrenIndex(procs);
  const out: ProcInfo[] = [];
  const seen = new Set<number>([pid]);
  const queue = [pid];
  while (queue.length > 0) {
    for (const c of index.get(queue.shift()!) ?? []) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

/**
 * Finds the agent in a pane's process subtree (`procs`, root first, breadth first). The first
 * direct match (executable, script or custom name) wins; a wrapper match (`npx codex`, `timeout
 * 60 claude`) is used only when no direct match exists below it. Zombies never match.
 * `prefer` (the session's agent) breaks ties between agents at the same depth.
 */
export function findAgent(
  procs: readonly ProcInfo[],
  extra: ExtraMatchNames,
  prefer: Agent | null = null,
): FoundAgent | null {
  const matches: { proc: ProcInfo; match: AgentMatch }[] = [];
  for (const proc of procs) {
    if (proc.state === "Z" || proc.state === "X") continue;
    const match = matchArgv(proc.name, proc.argv, extra, prefer);
    if (match) matches.push({ proc, match });
  }
  if (matches.length === 0) return null;
  const direct = matches.filter((m) => m.match.kind !== "wrapper");
  let chosen = direct.find((m) => prefer === null || m.match.agent === prefer) ?? direct[0];
  if (chosen === undefined) chosen = matches[0];
  // Prefer the outermost direct match: `procs` is breadth first, so the first one is outermost.
  const agent = chosen.match.agent;
  const family = [
    chosen.proc,
    ...descendantsOf(chosen.proc.pid, procs).filter((p) =>
      p.state !== "Z" && matchArgv(p.name, p.argv, extra, agent)?.agent === agent
    ),
  ];
  return { agent, proc: chosen.proc, match: chosen.match, family };
}

/** The extra match names configured through `LISA_AGENT_PROCESS_MATCH*`. */
export function extraMatchNames(config: {
  agentProcessMatch: string[];
  agentProcessMatchClaude: string[];
  agentProcessMatchCodex: string[];
}): ExtraMatchNames {
  return {
    any: config.agentProcessMatch,
    claude: config.agentProcessMatchClaude,
    codex: config.agentProcessMatchCodex,
  };
}
