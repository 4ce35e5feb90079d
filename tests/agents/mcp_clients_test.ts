/**
 * Real-client tier: the real `claude` and `codex` use lisa's MCP server (`lisa mcp`, started by
 * the agent from its MCP config) to spawn a worker and read its state, the model's side scripted
 * by the local mock (its tool calls name lisa's tools). Skipped only when npm cannot install the
 * agents here.
 */
import { ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV } from "../helpers/world.ts";
import { kill, makeTier, named, SKIP, type Tier } from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

/** The environment `lisa mcp` gets from the agent: the tier's private dirs, never the user's. */
function serverEnv(tier: Tier): Record<string, string> {
  const env = tier.world.env;
  const keep = ["PATH", "HOME", "DENO_DIR", "LISA_RUNTIME_DIR", "LISA_TMUX_SOCKET_DIR", "NO_COLOR"];
  return Object.fromEntries(keep.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
}

/** The argv of `lisa mcp` for this tier's project. */
function serverArgv(tier: Tier): string[] {
  return [...LISA_ARGV, "mcp", "--project-root", tier.projectRoot];
}

/** Runs an agent to its end (at most `timeoutMs`); its exit code and output. */
async function runAgent(tier: Tier, argv: string[], timeoutMs = 120_000) {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: tier.projectRoot,
    env: tier.world.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** The text of every tool result the agent sent the model (what lisa's tools answered). */
function toolResults(tier: Tier): string {
  return tier.mock.requests.map((r) => JSON.stringify(r.body ?? {})).filter((b) =>
    b.includes("tool_result") || b.includes("function_call_output")
  ).join("\n");
}

Deno.test(
  named("real claude spawns a worker and reads its state through lisa mcp"),
  opts,
  async () => {
    const tier = await makeTier({ toolCall: true });
    const worker = "lisa-claude-mcp-worker";
    try {
      const [command, ...args] = serverArgv(tier);
      const config = `${tier.world.base}/mcp.json`;
      Deno.writeTextFileSync(
        config,
        JSON.stringify({ mcpServers: { lisa: { command, args, env: serverEnv(tier) } } }),
      );
      tier.mock.set({
        replyText: "WORKER_CHECKED",
        toolCalls: [
          {
            name: "mcp__lisa__spawn",
            input: { session: worker, command: "echo worker-up; sleep 120" },
          },
          { name: "mcp__lisa__status", input: { session: worker } },
        ],
      });
      const r = await runAgent(tier, [
        "claude",
        "-p",
        "Start a worker with lisa and tell me its state.",
        "--mcp-config",
        config,
        "--strict-mcp-config",
        "--allowedTools",
        "mcp__lisa__spawn,mcp__lisa__status",
      ]);
      strictEqual(r.code, 0, `${r.stdout}\n${r.stderr}`);
      ok(r.stdout.includes("WORKER_CHECKED"), r.stdout);
      const offered = tier.mock.requests.filter((q) => q.kind === "main").map((q) =>
        JSON.stringify(q.body?.tools ?? [])
      );
      ok(offered.some((t) => t.includes("mcp__lisa__spawn")), "claude offered lisa's tools");
      // The worker runs, in the tier's private runtime dir, and claude read its status.
      const status = await tier.lisa(["session", "status", "--session", worker, "--json"]);
      strictEqual(status.json?.paneStatus, "alive", status.stdout);
      const results = toolResults(tier);
      ok(results.includes(worker) && results.includes("sessionState"), results.slice(0, 2000));
    } finally {
      await kill(tier, worker);
      await tier.dispose();
    }
  },
);

Deno.test(
  named("real codex spawns a worker and reads its state through lisa mcp"),
  opts,
  async () => {
    const tier = await makeTier({ toolCall: true });
    const worker = "lisa-codex-mcp-worker";
    try {
      const [command, ...args] = serverArgv(tier);
      const toml = (v: unknown) => JSON.stringify(v);
      const env = Object.entries(serverEnv(tier)).map(([k, v]) => `${k}=${toml(v)}`).join(",");
      tier.mock.set({
        replyText: "WORKER_CHECKED",
        toolCalls: [
          {
            name: "spawn",
            namespace: "mcp__lisa",
            input: { session: worker, command: "echo worker-up; sleep 120" },
          },
          { name: "status", namespace: "mcp__lisa", input: { session: worker } },
        ],
      });
      const r = await runAgent(tier, [
        "codex",
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
        "-c",
        `mcp_servers.lisa.command=${toml(command)}`,
        "-c",
        `mcp_servers.lisa.args=${toml(args)}`,
        "-c",
        `mcp_servers.lisa.env={${env}}`,
        "Start a worker with lisa and tell me its state.",
      ]);
      strictEqual(r.code, 0, `${r.stdout}\n${r.stderr}`);
      ok(r.stdout.includes("WORKER_CHECKED"), r.stdout);
      const offered = tier.mock.requests.filter((q) => q.kind === "main").map((q) =>
        JSON.stringify(q.body?.tools ?? [])
      );
      ok(offered.some((t) => t.includes("mcp__lisa")), "codex offered lisa's tools");
      const status = await tier.lisa(["session", "status", "--session", worker, "--json"]);
      strictEqual(status.json?.paneStatus, "alive", status.stdout);
      const results = toolResults(tier);
      ok(results.includes(worker) && results.includes("sessionState"), results.slice(0, 2000));
    } finally {
      await kill(tier, worker);
      await tier.dispose();
    }
  },
);
