/**
 * `session guard --shared-tmux`: before a cleanup or kill-all on a machine where people also use
 * tmux, look at the user's default tmux server and say whether the planned command could hurt
 * it. This is the only place lisa touches the default server (no `-S`), and only to read it
 * (`list-sessions`). The older tool's cleanup killed every server without an attached client
 * (DESIGN §9 item 8); guard exists so an orchestrator can check before it acts.
 */
import type { Deps } from "../../base/deps.ts";
import { ProgramNotFoundError } from "../../base/errors.ts";
import { formatOf, isNoServer, parseFormat, TMUX_UTF8 } from "../../tmux/tmux.ts";
import type { Runner } from "../../base/runner.ts";

/** Risk of a planned command for the default tmux server and the user's other sessions. */
export type RiskLevel = "none" | "low" | "medium" | "high";

const ORDER: Record<RiskLevel, number> = { none: 0, low: 1, medium: 2, high: 3 };

/** One session of the default server. */
export interface DefaultSession {
  name: string;
  attached: number;
  windows: number;
}

/** What the default server looked like (`defaultServer` in JSON). */
export interface DefaultServerInfo {
  /** False when no server answered (or tmux is not installed). */
  running: boolean;
  sessions: DefaultSession[];
  attachedSessions: number;
  /** Sessions named `lisa-*` on the default server (not on lisa's own sockets). */
  lisaSessions: string[];
  /** Why the server could not be read, when it could not (not "no server running"). */
  error: string | null;
}

/** The `commandRisk` object. */
export interface CommandRisk {
  command: string;
  level: RiskLevel;
  reasons: string[];
}

/** The guard's answer. */
export interface GuardReport {
  /** True when the planned command cannot end sessions of the default server (risk ≤ low). */
  safe: boolean;
  warnings: string[];
  commandRisk: CommandRisk;
  /** Null unless `--shared-tmux` asked to inspect the default server. */
  defaultServer: DefaultServerInfo | null;
  /** True when `TMUX` is set: a bare `tmux …` then targets the server around the caller. */
  insideTmux: boolean;
}

/** Options of {@link runGuard}. */
export interface GuardOptions {
  /** Inspect the default tmux server. */
  sharedTmux: boolean;
  /** The command the caller plans to run (default `lisa cleanup`). */
  command?: string;
}

/** The planned command assumed when none is given. */
export const DEFAULT_PLANNED_COMMAND = "lisa cleanup";

const FIELDS = ["session_name", "session_attached", "session_windows"] as const;

/**
 * Reads the default tmux server with ONE `tmux list-sessions` (no `-S`). Never starts or
 * changes a server. A missing server or tmux binary reads as "not running".
 */
export async function readDefaultServer(
  runner: Runner,
  env: Deps["env"],
  timeoutMs: number,
): Promise<DefaultServerInfo> {
  const info: DefaultServerInfo = {
    running: false,
    sessions: [],
    attachedSessions: 0,
    lisaSessions: [],
    error: null,
  };
  let result;
  try {
    result = await runner.run(["tmux", TMUX_UTF8, "list-sessions", "-F", formatOf(FIELDS)], {
      env: { ...env },
      clearEnv: true,
      allowFailure: true,
      timeoutMs,
    });
  } catch (error) {
    if (error instanceof ProgramNotFoundError) {
      info.error = "tmux is not installed";
      return info;
    }
    info.error = error instanceof Error ? error.message : String(error);
    return info;
  }
  if (!result.success) {
    if (!isNoServer(result.stderr)) info.error = result.stderr.trim() || `exit ${result.code}`;
    return info;
  }
  info.running = true;
  for (const row of parseFormat(result.stdout, FIELDS)) {
    const attached = Number(row.session_attached) || 0;
    info.sessions.push({
      name: row.session_name,
      attached,
      windows: Number(row.session_windows) || 0,
    });
    if (attached > 0) info.attachedSessions++;
    if (row.session_name.startsWith("lisa-")) info.lisaSessions.push(row.session_name);
  }
  return info;
}

/** Splits a shell command line into simple commands of words (quotes removed, roughly). */
export function splitCommandLine(command: string): string[][] {
  const segments: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: string | null = null;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endSegment = () => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote !== null) {
      if (ch === quote) quote = null;
      else word += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === ";" || ch === "|" || ch === "&" || ch === "\n") endSegment();
    else if (/\s/.test(ch)) endWord();
    else {
      word += ch;
      inWord = true;
    }
  }
  endSegment();
  return segments;
}

function baseOf(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

function hasFlag(words: string[], ...flags: string[]): boolean {
  return words.some((w) => flags.some((f) => w === f || w.startsWith(`${f}=`)));
}

/** The value after `-S` in a tmux argv (also `-Spath`), or undefined. */
function tmuxSocketArg(words: string[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    if (words[i] === "-S") return words[i + 1];
    if (words[i].startsWith("-S") && words[i].length > 2) return words[i].slice(2);
  }
  return undefined;
}

function assessTmux(words: string[], server: DefaultServerInfo | null, insideTmux: boolean) {
  const reasons: string[] = [];
  const destructive = words.find((w) =>
    ["kill-server", "kill-session", "kill-window", "kill-pane", "detach-client"].includes(w)
  );
  if (destructive === undefined) return { level: "none" as RiskLevel, reasons };
  const socket = tmuxSocketArg(words);
  const named = hasFlag(words, "-L");
  if (socket !== undefined && /(^|\/)lisa-tmux-[a-z0-9]+-[0-9a-f]{8}\.sock$/.test(socket)) {
    reasons.push(`tmux ${destructive} targets a lisa socket (${socket}), not the default server`);
    return { level: "low" as RiskLevel, reasons };
  }
  if (socket !== undefined || named) {
    reasons.push(`tmux ${destructive} targets a non-lisa server; make sure nobody else uses it`);
    return { level: "medium" as RiskLevel, reasons };
  }
  const where = insideTmux ? "the tmux server around you (TMUX is set)" : "the default server";
  const busy = server === null || !server.running ? null : server.sessions.length;
  if (destructive === "kill-server" || (destructive === "kill-session" && words.includes("-a"))) {
    reasons.push(
      `tmux ${destructive} without -S ends every session of ${where}` +
        (busy === null ? "" : ` (${busy} session(s), ${server!.attachedSessions} attached)`),
    );
    return { level: (busy === 0 ? "medium" : "high") as RiskLevel, reasons };
  }
  reasons.push(`tmux ${destructive} without -S acts on ${where}`);
  return { level: (busy === 0 ? "low" : "medium") as RiskLevel, reasons };
}

function assessSegment(
  words: string[],
  server: DefaultServerInfo | null,
  insideTmux: boolean,
): { level: RiskLevel; reasons: string[] } {
  const args = words[0] === "sudo" || words[0] === "env" || words[0] === "exec"
    ? words.slice(1)
    : words;
  const prog = baseOf(args[0] ?? "");
  if (prog === "tmux") return assessTmux(args, server, insideTmux);
  if (prog === "pkill" || prog === "killall") {
    return {
      level: "high",
      reasons: [
        `${prog} matches processes by name: it can end tmux servers and agents it does ` +
        `not own; kill by PID or use lisa session kill`,
      ],
    };
  }
  if (prog === "rm" && args.some((a) => /tmux-\d+|\.sock\b|lisa-/.test(a))) {
    return {
      level: "high",
      reasons: ["rm of tmux sockets cuts live servers off from their clients; use lisa cleanup"],
    };
  }
  // `lisa …`, `./lisa …`, and `deno run … main.ts …` (deno task lisa) are lisa itself.
  const mainAt = prog === "deno" ? args.findIndex((a) => baseOf(a) === "main.ts") : -1;
  if (prog === "lisa" || mainAt > 0) {
    const rest = args.slice(mainAt > 0 ? mainAt + 1 : 1);
    if (rest[0] === "cleanup") {
      if (hasFlag(rest, "--dry-run")) {
        return { level: "none", reasons: ["lisa cleanup --dry-run changes nothing"] };
      }
      return {
        level: "low",
        reasons: [
          "lisa cleanup removes only stale lisa sockets and artifacts and never kills a server " +
          "or touches the default server",
        ],
      };
    }
    if (rest[0] === "session" && rest[1] === "kill-all") {
      if (hasFlag(rest, "--project-only")) {
        return {
          level: "low",
          reasons: ["lisa session kill-all --project-only ends this project's lisa sessions only"],
        };
      }
      return {
        level: "medium",
        reasons: [
          "lisa session kill-all without --project-only ends lisa sessions of every project " +
          "(never the default server's); add --project-only",
        ],
      };
    }
    if (rest[0] === "session" && rest[1] === "kill") {
      return { level: "low", reasons: ["lisa session kill ends one session and its children"] };
    }
    return { level: "none", reasons: [`lisa ${rest.slice(0, 2).join(" ")} does not end sessions`] };
  }
  return { level: "none", reasons: [`${prog || "(empty)"} is not a known tmux-affecting command`] };
}

/**
 * How risky `command` is for the default tmux server (`server` when inspected, null when not).
 * Pure. The level of a compound command is the highest of its parts.
 */
export function assessCommand(
  command: string,
  server: DefaultServerInfo | null,
  insideTmux: boolean,
): CommandRisk {
  let level: RiskLevel = "none";
  const reasons: string[] = [];
  for (const words of splitCommandLine(command)) {
    const r = assessSegment(words, server, insideTmux);
    if (ORDER[r.level] > ORDER[level]) level = r.level;
    reasons.push(...r.reasons);
  }
  return { command, level, reasons };
}

/** Warnings about the default server that hold whatever the command. */
export function serverWarnings(server: DefaultServerInfo | null, insideTmux: boolean): string[] {
  const warnings: string[] = [];
  if (insideTmux) {
    warnings.push("TMUX is set: a bare `tmux …` command targets the server you are inside");
  }
  if (server === null) return warnings;
  if (server.error !== null) {
    warnings.push(`could not read the default tmux server: ${server.error}`);
  }
  if (server.running && server.sessions.length > 0) {
    warnings.push(
      `the default tmux server has ${server.sessions.length} session(s), ` +
        `${server.attachedSessions} attached: never run tmux kill-server/kill-session without -S`,
    );
  }
  if (server.lisaSessions.length > 0) {
    warnings.push(
      `${server.lisaSessions.length} lisa-* session(s) live on the default server, outside ` +
        `lisa's sockets; lisa cleanup and kill-all do not see or touch them`,
    );
  }
  return warnings;
}

/**
 * Inspects the default server (with `sharedTmux`) and assesses the planned command. Read-only.
 * `safe` is true when the command's risk is none or low.
 */
export async function runGuard(deps: Deps, options: GuardOptions): Promise<GuardReport> {
  const insideTmux = (deps.env.TMUX ?? "") !== "";
  const server = options.sharedTmux
    ? await readDefaultServer(deps.runner, deps.env, deps.config.cmdTimeoutSeconds * 1000)
    : null;
  const command = options.command?.trim() || DEFAULT_PLANNED_COMMAND;
  const commandRisk = assessCommand(command, server, insideTmux);
  return {
    safe: ORDER[commandRisk.level] <= ORDER.low,
    warnings: serverWarnings(server, insideTmux),
    commandRisk,
    defaultServer: server,
    insideTmux,
  };
}
