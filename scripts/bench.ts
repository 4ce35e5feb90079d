/**
 * `deno task bench`: wall time of lisa commands against the floor, `deno run` of an empty
 * script, measured in the same run (DESIGN §7).
 *
 * Every case runs `--runs N` times (default 21, at least 15 for the published figures),
 * interleaved round-robin with a rotating start so machine noise spreads evenly over the
 * cases. One untimed warm-up run per case comes first (it also catches a case that fails).
 * The report gives each case's median, the floor's median, their difference and ratio, and the
 * case's target (a ratio to the floor, DESIGN §7) when it has one: ratios, not milliseconds,
 * because absolute times differ 2× between machines and with load. `--json` prints the same as
 * one JSON document.
 *
 * Add a case by adding an entry to {@link CASES}; `setup`/`teardown` may prepare state (e.g.
 * spawn a session on the bench's private tmux socket dir) and `args` may read what setup left
 * in `ctx.state`. Everything lives under one temp dir (runtime dir, socket dir, project root)
 * that is removed at the end, after every tmux server on the private socket dir is killed.
 *
 * lisa is timed as `deno task install` puts it on PATH: built (`scripts/build.ts`, into the
 * bench's temp dir at the start, from the checkout as it is) and run with the built entry's
 * flags. `--source` times `main.ts` from source instead (as `deno task lisa` runs it).
 *
 * The resident rows (`lisa mcp …`) time one tool call's round trip over one connection to
 * `lisa mcp` (of the same lisa, started once, initialized, each call warmed once), interleaved
 * with the rest, {@link MCP_CALLS_PER_PASS} calls a pass; their budget is in milliseconds
 * (DESIGN §7), and their ratio to the floor is printed beside the CLI's.
 *
 * Usage: deno task bench [--runs N] [--only NAME[,NAME]] [--source] [--json]
 */
import { DENO_PERMISSIONS } from "../src/base/deps.ts";
import { openHistory } from "../src/core/history/mod.ts";
import { STATUS_CAPTURE_LINES, statusTmuxCommands } from "../src/core/status/mod.ts";
import { Tmux } from "../src/tmux/tmux.ts";
import { build, builtArgv } from "./build.ts";
import { type Sshd, sshdUnavailable, startSshd } from "../tests/helpers/sshd.ts";

const REPO = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What setup, teardown and args of a case can use. */
export interface BenchContext {
  /** Temp dir holding everything below. */
  base: string;
  /** LISA_RUNTIME_DIR of every run (0700). */
  runtimeDir: string;
  /** LISA_TMUX_SOCKET_DIR of every run: tmux servers here are killed at the end. */
  socketDir: string;
  /** cwd of every run (the project lisa sees). */
  projectRoot: string;
  /** Environment of every run (inherited, minus LISA_* and TMUX*, plus the dirs above). */
  env: Record<string, string>;
  /** Runs lisa once (untimed) with `args`; for setup and teardown. */
  lisa(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Free-form values a case's setup hands to its `args` and `teardown`. */
  state: Record<string, unknown>;
  /** The argv of the lisa being timed (built, or from source with `--source`). */
  lisaCommand: string[];
}

/** One measured command. */
export interface BenchCase {
  name: string;
  /** Full argv to time; use {@link lisaArgv} for lisa commands. */
  argv: string[] | ((ctx: BenchContext) => string[]);
  /** Budget as the largest ratio of the case's median to the floor's (DESIGN §7). */
  target?: number;
  /** A resident case: the tool call timed over the bench's `lisa mcp` connection. */
  mcp?: { tool: string; args: (ctx: BenchContext) => Record<string, unknown> };
  /** Budget of a resident case: the largest median, in milliseconds. */
  targetMs?: number;
  /**
   * The case whose median `target` is a ratio to, instead of the floor's (`list --all-hosts`
   * against a local list measured in the same run).
   */
  relativeTo?: string;
  /** Why the case cannot run on this machine (it is then skipped, not failed), or null. */
  skip?: () => Promise<string | null>;
  /** Exit code that counts as success (default 0). */
  expectCode?: number;
  /** Extra environment of the timed runs. */
  env?: (ctx: BenchContext) => Record<string, string>;
  setup?: (ctx: BenchContext) => Promise<void>;
  teardown?: (ctx: BenchContext) => Promise<void>;
}

/** Stands for the lisa being timed in an argv of {@link lisaArgv}. */
const LISA = "<lisa>";

/** argv of a lisa call with `args`; the bench puts the lisa it times in place of {@link LISA}. */
export function lisaArgv(...args: string[]): string[] {
  return [LISA, ...args];
}

/** The argv that runs this checkout's `main.ts` from source. */
export const SOURCE_ARGV = [
  Deno.execPath(),
  "run",
  "-q",
  ...DENO_PERMISSIONS,
  "--config",
  `${REPO}/deno.json`,
  `${REPO}/main.ts`,
];

/** `argv` with {@link LISA} replaced by `lisa`. */
function expand(argv: string[], lisa: string[]): string[] {
  return argv[0] === LISA ? [...lisa, ...argv.slice(1)] : argv;
}

const FLOOR = "floor";

const LIST_SESSIONS = 20;
const LIST_MANY = 100;

/** Spawns an idle fake claude named `name` and waits until status says waiting_input. */
async function spawnIdle(ctx: BenchContext, name: string, wait: boolean): Promise<void> {
  const spawned = await ctx.lisa([
    "session",
    "spawn",
    "--session",
    name,
    "--command",
    `${REPO}/tests/fixtures/bin/claude`,
    "--json",
  ]);
  if (spawned.code !== 0) throw new Error(`spawn failed: ${spawned.stdout}${spawned.stderr}`);
  ctx.state[`socket:${name}`] = (JSON.parse(spawned.stdout) as { socketPath: string }).socketPath;
  const deadline = Date.now() + 30_000;
  while (wait) {
    const r = await ctx.lisa(["session", "status", "--session", name, "--json"]);
    const state = (JSON.parse(r.stdout) as { sessionState?: string }).sessionState;
    if (state === "waiting_input") break;
    if (Date.now() > deadline) throw new Error(`setup: session ${name} is ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Starts a `--command` session that swallows what is sent to it (for the send case). */
async function spawnSink(ctx: BenchContext, name: string): Promise<void> {
  const r = await ctx.lisa([
    "session",
    "spawn",
    "--session",
    name,
    "--command",
    "cat >/dev/null",
    "--json",
  ]);
  if (r.code !== 0) throw new Error(`spawn failed: ${r.stdout}${r.stderr}`);
}

const STATUS_SESSION = "lisa-bench-status";

const HISTORY_SESSIONS = 1000;
const HISTORY_TURNS = 10;

/** Fills the bench's history database with ended sessions and their turns. */
async function fillHistory(ctx: BenchContext): Promise<void> {
  const path = `${ctx.base}/history/history.db`;
  const h = await openHistory(
    { config: { historyDb: path } as never, env: {}, uid: Deno.uid() ?? 0 },
  );
  try {
    h.write(() => {
      const session = h.db.prepare(
        `INSERT INTO sessions (name, run_id, agent, mode, project_root, started_at, ended_at,
          final_state) VALUES (?, ?, 'claude', 'interactive', ?, ?, ?, 'killed')`,
      );
      const turn = h.db.prepare(
        `INSERT INTO turns (session_id, turn_key, seq, prompt, reply, outcome, started_at,
          ended_at) VALUES (?, ?, ?, ?, ?, 'completed', ?, ?)`,
      );
      for (let i = 0; i < HISTORY_SESSIONS; i++) {
        const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
        const id = Number(
          session.run(`lisa-bench-h-${i}`, `run-${i}`, ctx.projectRoot, at, at).lastInsertRowid,
        );
        for (let t = 1; t <= HISTORY_TURNS; t++) {
          turn.run(id, `k${i}-${t}`, t, `prompt ${i} ${t}`, `reply ${i} ${t}`, at, at);
        }
      }
    });
  } finally {
    h.close();
  }
}

/** argv of `deno run` of a script (the floor and the references). */
function scriptArgv(path: string): string[] {
  return [Deno.execPath(), "run", "-q", ...DENO_PERMISSIONS, path];
}

/** The cases, floor first, each with its DESIGN §7 budget where it has one. */
export const CASES: BenchCase[] = [
  {
    name: FLOOR,
    argv: (ctx) => scriptArgv(`${ctx.base}/empty.ts`),
    setup: async (ctx) => {
      await Deno.writeTextFile(`${ctx.base}/empty.ts`, "");
    },
  },
  {
    // A reference, not lisa: a script whose only work is one tmux call (Deno's process API
    // included). No status can cost less than this; its ratio shows how much of a case's
    // budget the one tmux call already takes.
    name: "reference: deno run of one tmux call",
    argv: (ctx) => scriptArgv(`${ctx.base}/one_tmux.ts`),
    setup: async (ctx) => {
      await Deno.writeTextFile(
        `${ctx.base}/one_tmux.ts`,
        'await new Deno.Command("tmux", { args: ["-V"], stdout: "piped" }).output();\n',
      );
    },
  },
  {
    // An idle fake claude, past its grace window (so status answers waiting_input as it would
    // for a real idle agent). Its setup also serves the capture and explain cases.
    name: "lisa session status --json",
    argv: lisaArgv("session", "status", "--session", STATUS_SESSION, "--json"),
    target: 1.5,
    setup: (ctx) => spawnIdle(ctx, STATUS_SESSION, true),
    teardown: async (ctx) => {
      await ctx.lisa(["session", "kill", "--session", STATUS_SESSION]);
    },
  },
  {
    // A reference, not lisa: a script whose only work is the one tmux call a status makes
    // (the same argv, on the status case's live session). What a status does beyond it
    // (load its code, read the session's files and /proc, classify, print) is the difference
    // between the two rows.
    name: "reference: deno run of status's tmux call",
    argv: (ctx) => scriptArgv(`${ctx.base}/status_tmux.ts`),
    setup: async (ctx) => {
      const socket = ctx.state[`socket:${STATUS_SESSION}`];
      if (typeof socket !== "string") throw new Error("needs the status case's session");
      const argv = new Tmux(null as never, socket).argv(
        // Without the meta's pane ids: the session's first pane, which is its only one here
        // (the same tmux work as the exact `=NAME:@W.%P` target status uses).
        statusTmuxCommands(STATUS_SESSION, STATUS_CAPTURE_LINES, undefined),
      );
      await Deno.writeTextFile(
        `${ctx.base}/status_tmux.ts`,
        `const argv = ${JSON.stringify(argv)};\n` +
          'const r = await new Deno.Command(argv[0], { args: argv.slice(1), stdin: "null", ' +
          'stdout: "piped", stderr: "piped" }).output();\n' +
          "if (r.code !== 0 || r.stdout.length === 0) Deno.exit(1);\n",
      );
    },
  },
  { name: "lisa version", argv: lisaArgv("version"), target: 1.7 },
  { name: "lisa session name --json", argv: lisaArgv("session", "name", "--json"), target: 1.7 },
  {
    name: "lisa session spawn --dry-run --json",
    argv: lisaArgv("session", "spawn", "--agent", "codex", "--prompt", "hi", "--dry-run", "--json"),
    target: 1.7,
  },
  {
    name: "lisa session capture --lines 20 --json",
    argv: lisaArgv("session", "capture", "--session", STATUS_SESSION, "--lines", "20", "--json"),
    target: 1.7,
  },
  {
    name: "lisa session explain --json",
    argv: lisaArgv("session", "explain", "--session", STATUS_SESSION, "--json"),
    target: 1.7,
  },
  {
    name: "lisa session send --text x --json",
    argv: lisaArgv("session", "send", "--session", "lisa-bench-send", "--text", "x", "--json"),
    target: 1.7,
    setup: (ctx) => spawnSink(ctx, "lisa-bench-send"),
    teardown: async (ctx) => {
      await ctx.lisa(["session", "kill", "--session", "lisa-bench-send"]);
    },
  },
  {
    // As an agent calls it inside a live session: a record appended to the session's sidecar.
    name: "lisa hook codex",
    argv: lisaArgv("hook", "codex", '{"type":"agent-turn-complete","last-assistant-message":"ok"}'),
    target: 1.3,
    env: (ctx) => ({
      LISA_HOOK_FILE: `${ctx.runtimeDir}/.lisa-00000000-session-lisa-bench-hook-hooks.jsonl`,
      LISA_RUN_ID: "bench",
    }),
    setup: async (ctx) => {
      await Deno.writeTextFile(
        `${ctx.runtimeDir}/.lisa-00000000-session-lisa-bench-hook-heartbeat.txt`,
        "",
      );
    },
  },
  {
    // History read over 1 000 ended sessions × 10 turns (ingestion of the runtime dir included).
    name: `lisa history list --json (${HISTORY_SESSIONS} sessions)`,
    argv: lisaArgv("history", "list", "--all-projects", "--json"),
    target: 2.5,
    setup: fillHistory,
  },
  {
    // A person's or orchestrator's overview: 20 live sessions with their states.
    name: `lisa session list --json (${LIST_SESSIONS} sessions)`,
    argv: lisaArgv("session", "list", "--json"),
    target: 1.8,
    setup: async (ctx) => {
      for (let i = 0; i < LIST_SESSIONS; i++) {
        await spawnIdle(ctx, `lisa-bench-list-${i}`, false);
      }
    },
    teardown: async (ctx) => {
      await ctx.lisa(["session", "kill-all", "--project-only"]);
    },
  },
  {
    // issue 11: the same with 100 live sessions (plain commands, so setup stays light); the
    // tmux calls stay one per server, the per-session cost is file and /proc reads.
    name: `lisa session list --json (${LIST_MANY} sessions)`,
    // A project of its own, so the 20-session case does not list these too.
    argv: (ctx) => lisaArgv("session", "list", "--json", "--project-root", `${ctx.base}/many`),
    target: 2.5,
    setup: async (ctx) => {
      await Deno.mkdir(`${ctx.base}/many`, { recursive: true });
      for (let i = 0; i < LIST_MANY; i++) {
        const r = await ctx.lisa([
          "session",
          "spawn",
          "--session",
          `lisa-bench-many-${i}`,
          "--project-root",
          `${ctx.base}/many`,
          "--command",
          "sleep 900",
          "--json",
        ]);
        if (r.code !== 0) throw new Error(`spawn failed: ${r.stdout}${r.stderr}`);
      }
    },
    teardown: async (ctx) => {
      await ctx.lisa([
        "session",
        "kill-all",
        "--project-only",
        "--project-root",
        `${ctx.base}/many`,
      ]);
    },
  },
  {
    // Resident (issue 22): the status case's session, over one `lisa mcp` connection.
    name: "lisa mcp: status (one connection)",
    argv: lisaArgv("mcp"),
    targetMs: 3,
    mcp: { tool: "status", args: () => ({ session: STATUS_SESSION }) },
  },
  {
    // The same project as the CLI's 20-session list row (its sessions, set up by that case).
    name: `lisa mcp: list (${LIST_SESSIONS} sessions; one connection)`,
    argv: lisaArgv("mcp"),
    targetMs: 15,
    mcp: { tool: "list", args: () => ({}) },
  },
];

/** Tool calls timed per pass of a resident case (more samples for the same wall time). */
const MCP_CALLS_PER_PASS = 5;

/** One `lisa mcp` process spoken to in raw JSON-RPC lines (no client library in the timing). */
class McpConnection {
  private readonly child: Deno.ChildProcess;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly pending = new Map<number, (message: Record<string, unknown>) => void>();
  private nextId = 1;
  private readonly reading: Promise<void>;

  constructor(ctx: BenchContext) {
    this.child = new Deno.Command(ctx.lisaCommand[0], {
      args: [...ctx.lisaCommand.slice(1), "mcp"],
      cwd: ctx.projectRoot,
      env: ctx.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    const stdout = this.child.stdout;
    this.reading = (async () => {
      let rest = "";
      for await (const chunk of stdout) {
        rest += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = rest.indexOf("\n")) >= 0) {
          const message = JSON.parse(rest.slice(0, nl));
          rest = rest.slice(nl + 1);
          this.pending.get(message.id)?.(message);
          this.pending.delete(message.id);
        }
      }
    })();
  }

  async request(method: string, params: Record<string, unknown>) {
    const id = this.nextId++;
    const answer = new Promise<Record<string, unknown>>((r) => this.pending.set(id, r));
    await this.writer.write(
      encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"),
    );
    return await answer;
  }

  async initialize(): Promise<void> {
    await this.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "1" },
    });
    await this.writer.write(
      encoder.encode(
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n",
      ),
    );
  }

  /** Times one tool call; throws when it failed. */
  async time(tool: string, args: Record<string, unknown>): Promise<number> {
    const start = performance.now();
    const r = await this.request("tools/call", { name: tool, arguments: args });
    const ms = performance.now() - start;
    const result = r.result as { isError?: boolean; content?: { text: string }[] } | undefined;
    if (result === undefined || result.isError) {
      throw new Error(`${tool}: ${JSON.stringify(r.error ?? result?.content?.[0]?.text)}`);
    }
    return ms;
  }

  async close(): Promise<void> {
    await this.writer.close().catch(() => {});
    await this.child.status;
    await this.reading.catch(() => {});
  }
}

/** The local list the hosts case is measured against, and the host's session count. */
const HOSTS_LOCAL_LIST = "lisa session list --json (6 sessions, a project of its own)";
const HOST_SESSIONS = 6;

/** Spawns `n` plain command sessions in `project` (through `--host` when given). */
async function spawnPlain(ctx: BenchContext, n: number, prefix: string, extra: string[]) {
  for (let i = 0; i < n; i++) {
    const r = await ctx.lisa([
      "session",
      "spawn",
      "--session",
      `${prefix}-${i}`,
      "--command",
      "sleep 900",
      ...extra,
      "--json",
    ]);
    if (r.code !== 0) throw new Error(`spawn failed: ${r.stdout}${r.stderr}`);
  }
}

/**
 * issue 24: `list --all-hosts` with one other host of 6 sessions (a real sshd on 127.0.0.1 and
 * the same built lisa with its own runtime dir, `tests/helpers/sshd.ts`) against a local list of
 * 6 sessions, in the same run. The warm-up run opens the shared SSH connection (it persists 60 s,
 * longer than a pass of the bench), so the runs time the connection as it is shared, and the
 * remote lisa's own start-up.
 */
const HOSTS_CASES: BenchCase[] = [
  {
    name: HOSTS_LOCAL_LIST,
    argv: (ctx) => lisaArgv("session", "list", "--json", "--project-root", `${ctx.base}/six`),
    skip: sshdUnavailable,
    setup: async (ctx) => {
      await Deno.mkdir(`${ctx.base}/six`, { recursive: true });
      await spawnPlain(ctx, HOST_SESSIONS, "lisa-bench-six", ["--project-root", `${ctx.base}/six`]);
    },
    teardown: async (ctx) => {
      await ctx.lisa([
        "session",
        "kill-all",
        "--project-only",
        "--project-root",
        `${ctx.base}/six`,
      ]);
    },
  },
  {
    name: `lisa session list --all-hosts --json (a host of ${HOST_SESSIONS} sessions)`,
    argv: (ctx) =>
      lisaArgv("session", "list", "--all-hosts", "--json", "--project-root", `${ctx.base}/six`),
    target: 2.5,
    relativeTo: HOSTS_LOCAL_LIST,
    skip: sshdUnavailable,
    setup: async (ctx) => {
      const world = {
        base: `${ctx.base}/hosts`,
        home: `${ctx.base}/hosts/home`,
        env: ctx.env,
        runtimeDir: ctx.runtimeDir,
      };
      await Deno.mkdir(world.home, { recursive: true });
      const sshd = await startSshd(world, { lisaArgv: ctx.lisaCommand });
      if (typeof sshd === "string") throw new Error(sshd);
      ctx.state.sshd = sshd;
      Object.assign(ctx.env, sshd.env);
      await spawnPlain(ctx, HOST_SESSIONS, "lisa-bench-host", ["--host", "box1"]);
    },
    teardown: async (ctx) => {
      const sshd = ctx.state.sshd as Sshd | undefined;
      if (sshd === undefined) return;
      await ctx.lisa(["session", "kill-all", "--host", "box1"]);
      const remote = sshd.remotes.get("box1")!;
      for (const e of Deno.readDirSync(remote.socketDir)) {
        await new Deno.Command("tmux", {
          args: ["-S", `${remote.socketDir}/${e.name}`, "kill-server"],
          stdout: "null",
          stderr: "null",
        }).output();
      }
      await sshd.stop();
    },
  },
];
CASES.push(...HOSTS_CASES);

/** Options of {@link runBench}. */
export interface BenchOptions {
  runs: number;
  json: boolean;
  only: string[] | undefined;
  /** Time main.ts from source instead of the built bundles. */
  source?: boolean;
}

function out(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text));
}

function err(text: string): void {
  Deno.stderr.writeSync(encoder.encode(text));
}

const USAGE = "usage: deno task bench [--runs N] [--only NAME[,NAME]] [--source] [--json]\n";

function parseArgs(args: string[]): BenchOptions {
  const options: BenchOptions = { runs: 21, json: false, only: undefined };
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s, 2);
    const value = () => inline ?? args[++i];
    if (flag === "--json") options.json = true;
    else if (flag === "--source") options.source = true;
    else if (flag === "--runs") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error(`--runs wants a positive integer`);
      options.runs = n;
    } else if (flag === "--only") {
      options.only = (value() ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    } else if (flag === "--help" || flag === "-h") {
      out(USAGE);
      Deno.exit(0);
    } else throw new Error(`unknown argument "${args[i]}"\n${USAGE}`);
  }
  return options;
}

async function makeContext(source: boolean): Promise<BenchContext> {
  const base = await Deno.makeTempDir({ prefix: "lisa-bench-" });
  let lisa = SOURCE_ARGV;
  if (!source) {
    try {
      await build(`${base}/dist`);
    } catch (error) {
      await Deno.remove(base, { recursive: true }).catch(() => {});
      throw error;
    }
    lisa = builtArgv(`${base}/dist`);
  }
  const runtimeDir = `${base}/run`;
  const socketDir = `${base}/sock`;
  const projectRoot = `${base}/project`;
  for (const dir of [runtimeDir, socketDir, projectRoot]) {
    await Deno.mkdir(dir, { mode: 0o700 });
    await Deno.chmod(dir, 0o700);
  }
  const env = Deno.env.toObject();
  for (const key of Object.keys(env)) {
    if (key.startsWith("LISA_") || key.startsWith("TMUX")) delete env[key];
  }
  Object.assign(env, {
    // Kills in teardowns record history: never into the user's own database.
    LISA_HISTORY_DB: `${base}/history/history.db`,
    LISA_RUNTIME_DIR: runtimeDir,
    LISA_TMUX_SOCKET_DIR: socketDir,
    NO_COLOR: "1",
  });
  const ctx: BenchContext = {
    base,
    runtimeDir,
    socketDir,
    projectRoot,
    env,
    state: {},
    lisaCommand: lisa,
    async lisa(args) {
      const r = await new Deno.Command(lisa[0], {
        args: [...lisa.slice(1), ...args],
        cwd: projectRoot,
        env,
        clearEnv: true,
        stdin: "null",
      }).output();
      return { code: r.code, stdout: decoder.decode(r.stdout), stderr: decoder.decode(r.stderr) };
    },
  };
  return ctx;
}

async function disposeContext(ctx: BenchContext): Promise<void> {
  let sockets: string[] = [];
  try {
    sockets = [...Deno.readDirSync(ctx.socketDir)].map((e) => e.name)
      .filter((n) => n.endsWith(".sock"));
  } catch { /* nothing started */ }
  for (const sock of sockets) {
    await new Deno.Command("tmux", {
      args: ["-S", `${ctx.socketDir}/${sock}`, "kill-server"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output().catch(() => {});
  }
  await Deno.remove(ctx.base, { recursive: true }).catch(() => {});
}

/** Runs `argv` once; returns wall milliseconds and the exit code (output discarded). */
async function timeOnce(
  argv: string[],
  ctx: BenchContext,
  capture: boolean,
  extraEnv: Record<string, string> = {},
): Promise<{ ms: number; code: number; stderr: string }> {
  const full = expand(argv, ctx.lisaCommand);
  const command = new Deno.Command(full[0], {
    args: full.slice(1),
    cwd: ctx.projectRoot,
    env: { ...ctx.env, ...extraEnv },
    clearEnv: true,
    stdin: "null",
    stdout: capture ? "piped" : "null",
    stderr: capture ? "piped" : "null",
  });
  const start = performance.now();
  const r = await command.output();
  const ms = performance.now() - start;
  return { ms, code: r.code, stderr: capture ? decoder.decode(r.stderr) : "" };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** One row of the report. */
export interface BenchResult {
  name: string;
  runs: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  floorMs: number;
  diffMs: number;
  ratio: number;
  /** The largest ratio allowed (null without a target). */
  target: number | null;
  /** The largest median allowed, ms (resident cases). */
  targetMs?: number;
  /** true/false against the target; null without a target. */
  withinTarget: boolean | null;
  /** With a `relativeTo` case: its name, and this case's median as a ratio to its median. */
  relativeTo?: string;
  relativeRatio?: number;
  /** Why the case did not run on this machine. */
  skipped?: string;
  error?: string;
}

/**
 * Runs `cases` (the first one is the floor) as described in the module doc. `ok` is false when
 * a case failed or went over its target. Cleans up its temp dir and tmux servers.
 */
export async function runBench(
  options: BenchOptions,
  cases: BenchCase[] = CASES,
): Promise<{ results: BenchResult[]; ok: boolean }> {
  const wanted = new Set(options.only ?? []);
  // A case measured against another brings that one along.
  for (const c of cases) if (wanted.has(c.name) && c.relativeTo) wanted.add(c.relativeTo);
  const selected = cases.filter((c, i) =>
    i === 0 || options.only === undefined || wanted.has(c.name)
  );
  const ctx = await makeContext(options.source ?? false);
  const argvs = new Map<BenchCase, string[]>();
  const samples = new Map<BenchCase, number[]>();
  const errors = new Map<BenchCase, string>();
  const skipped = new Map<BenchCase, string>();
  const setUp: BenchCase[] = [];
  const progress = !options.json && Deno.stderr.isTerminal();
  let connection: McpConnection | null = null;
  const mcpArgs = new Map<BenchCase, Record<string, unknown>>();
  /** Times one run of `c` (a process, or `MCP_CALLS_PER_PASS` calls over the connection). */
  const runCase = async (c: BenchCase): Promise<{ ms: number[]; code: number }> => {
    if (c.mcp === undefined) {
      const r = await timeOnce(argvs.get(c)!, ctx, false, c.env?.(ctx));
      return { ms: [r.ms], code: r.code };
    }
    const ms: number[] = [];
    for (let i = 0; i < MCP_CALLS_PER_PASS; i++) {
      ms.push(await connection!.time(c.mcp.tool, mcpArgs.get(c)!));
    }
    return { ms, code: 0 };
  };
  try {
    for (const c of selected) {
      const why = await c.skip?.();
      if (why) {
        skipped.set(c, why);
        continue;
      }
      try {
        await c.setup?.(ctx);
        setUp.push(c);
        const argv = typeof c.argv === "function" ? c.argv(ctx) : c.argv;
        if (c.mcp !== undefined) {
          if (connection === null) {
            connection = new McpConnection(ctx);
            await connection.initialize();
          }
          mcpArgs.set(c, c.mcp.args(ctx));
          await connection.time(c.mcp.tool, mcpArgs.get(c)!);
        } else {
          const warm = await timeOnce(argv, ctx, true, c.env?.(ctx));
          if (warm.code !== (c.expectCode ?? 0)) {
            throw new Error(`exit ${warm.code}: ${warm.stderr.trim().split("\n")[0] ?? ""}`);
          }
        }
        argvs.set(c, argv);
        samples.set(c, []);
      } catch (error) {
        errors.set(c, (error as Error).message);
      }
    }
    const live = selected.filter((c) => argvs.has(c));
    for (let pass = 0; pass < options.runs; pass++) {
      for (let k = 0; k < live.length; k++) {
        const c = live[(pass + k) % live.length];
        try {
          const r = await runCase(c);
          if (r.code !== (c.expectCode ?? 0)) errors.set(c, `exit ${r.code} in run ${pass + 1}`);
          samples.get(c)!.push(...r.ms);
        } catch (error) {
          errors.set(c, (error as Error).message);
        }
      }
      if (progress) err(`\rrun ${pass + 1}/${options.runs}`);
    }
    if (progress) err("\r\x1b[K");
  } finally {
    await (connection as McpConnection | null)?.close();
    for (const c of setUp.reverse()) await c.teardown?.(ctx).catch(() => {});
    await disposeContext(ctx);
  }
  const floorSamples = samples.get(selected[0]);
  const floorMs = floorSamples && floorSamples.length > 0 ? median(floorSamples) : NaN;
  let ok = Number.isFinite(floorMs);
  const medianOf = (c: BenchCase | undefined) => {
    const s = c === undefined ? [] : samples.get(c) ?? [];
    return s.length > 0 ? median(s) : NaN;
  };
  const results = selected.map((c): BenchResult => {
    const s = samples.get(c) ?? [];
    const med = s.length > 0 ? median(s) : NaN;
    const diff = med - floorMs;
    const ratio = med / floorMs;
    const refMs = c.relativeTo === undefined
      ? undefined
      : medianOf(selected.find((r) => r.name === c.relativeTo));
    const budgeted = refMs === undefined ? ratio : med / refMs;
    const within = c.targetMs !== undefined
      ? (Number.isFinite(med) ? med <= c.targetMs : null)
      : c.target === undefined || !Number.isFinite(budgeted)
      ? null
      : budgeted <= c.target;
    const error = errors.get(c);
    if (error !== undefined || within === false) ok = false;
    return {
      name: c.name,
      runs: s.length,
      medianMs: round(med),
      minMs: round(s.length > 0 ? Math.min(...s) : NaN),
      maxMs: round(s.length > 0 ? Math.max(...s) : NaN),
      floorMs: round(floorMs),
      diffMs: round(diff),
      ratio: Math.round(ratio * 100) / 100,
      target: c.target ?? null,
      ...(c.targetMs !== undefined ? { targetMs: c.targetMs } : {}),
      withinTarget: within,
      ...(c.relativeTo !== undefined
        ? { relativeTo: c.relativeTo, relativeRatio: Math.round(budgeted * 100) / 100 }
        : {}),
      ...(skipped.has(c) ? { skipped: skipped.get(c) } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  });
  return { results, ok };
}

function renderReport(results: BenchResult[], runs: number, source: boolean): string {
  const headers = ["CASE", "MEDIAN ms", "FLOOR ms", "DIFF ms", "RATIO", "TARGET", "RESULT"];
  // A resident row's "diff" to the floor means nothing (no process starts): left out.
  const num = (n: number, text: string) => (Number.isFinite(n) ? text : "-");
  const rows = results.map((r) => [
    r.name,
    num(r.medianMs, r.medianMs.toFixed(1)),
    num(r.floorMs, r.floorMs.toFixed(1)),
    r.name === FLOOR || r.targetMs !== undefined
      ? "-"
      : num(r.diffMs, `${r.diffMs >= 0 ? "+" : ""}${r.diffMs.toFixed(1)}`),
    num(r.ratio, `${r.ratio.toFixed(2)}x`),
    r.targetMs !== undefined
      ? `≤ ${r.targetMs} ms`
      : r.target === null
      ? "-"
      : r.relativeTo === undefined
      ? `≤ ${r.target.toFixed(2)}x`
      : `≤ ${r.target.toFixed(2)}x of the local list (${(r.relativeRatio ?? NaN).toFixed(2)}x)`,
    r.skipped !== undefined
      ? `skipped: ${r.skipped}`
      : r.error !== undefined
      ? `error: ${r.error}`
      : r.withinTarget === null
      ? ""
      : r.withinTarget
      ? "ok"
      : "OVER",
  ]);
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 || i >= 5 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join("  ").trimEnd();
  return `lisa bench: ${runs} interleaved runs per case, medians; ` +
    `floor = deno run of an empty script (deno ${Deno.version.deno}); lisa ${
      source ? "from source (main.ts)" : "built (scripts/build.ts)"
    }\n\n` +
    [line(headers), ...rows.map(line)].join("\n") + "\n";
}

if (import.meta.main) {
  let options: BenchOptions;
  try {
    options = parseArgs(Deno.args);
  } catch (error) {
    err(`bench: ${(error as Error).message}\n`);
    Deno.exit(1);
  }
  const unknown = (options.only ?? []).filter((n) => !CASES.some((c) => c.name === n));
  if (unknown.length > 0) {
    err(
      `bench: unknown case ${unknown.map((n) => `"${n}"`).join(", ")}; cases: ${
        CASES.map((c) => `"${c.name}"`).join(", ")
      }\n`,
    );
    Deno.exit(1);
  }
  if (options.runs < 15) err(`bench: note: fewer than 15 runs per case (--runs ${options.runs})\n`);
  const { results, ok } = await runBench(options);
  if (options.json) {
    out(
      JSON.stringify({
        ok,
        runs: options.runs,
        deno: Deno.version.deno,
        lisa: options.source ? "source" : "built",
        results,
      }) + "\n",
    );
  } else out(renderReport(results, options.runs, options.source ?? false));
  Deno.exit(ok ? 0 : 1);
}
