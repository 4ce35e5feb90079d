/**
 * `lisa mcp` as a process, spoken to in raw JSON-RPC lines: the three protocol versions are
 * negotiated, stdout carries protocol messages only, closing stdin ends the server (exit 0
 * within 2 s) and leaves its sessions running, and 100 status calls over one connection start
 * no tmux or ps process (counted by wrappers first on PATH).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, type World } from "../helpers/world.ts";

/** A `lisa mcp` process with line-level access to its stdio. */
class Raw {
  private readonly child: Deno.ChildProcess;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Every stdout line, in order. */
  readonly lines: string[] = [];
  private waiters: (() => void)[] = [];
  private nextId = 1;
  readonly done: Promise<void>;

  constructor(world: World, env: Record<string, string> = {}) {
    this.child = new Deno.Command(LISA_ARGV[0], {
      args: [...LISA_ARGV.slice(1), "mcp"],
      cwd: world.projectRoot,
      env: { ...world.env, ...env },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    const stdout = this.child.stdout;
    this.done = (async () => {
      let rest = "";
      const decoder = new TextDecoder();
      for await (const chunk of stdout) {
        rest += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = rest.indexOf("\n")) >= 0) {
          this.lines.push(rest.slice(0, nl));
          rest = rest.slice(nl + 1);
          for (const w of this.waiters.splice(0)) w();
        }
      }
      if (rest !== "") this.lines.push(rest);
    })();
  }

  send(message: Record<string, unknown>): Promise<void> {
    return this.writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** Sends a request and returns its response. */
  async request(method: string, params: Record<string, unknown> = {}) {
    const id = this.nextId++;
    await this.send({ jsonrpc: "2.0", id, method, params });
    for (;;) {
      const found = this.lines.map((l) => JSON.parse(l)).find((m) => m.id === id);
      if (found) return found;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  async initialize(version: string) {
    const r = await this.request("initialize", {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return r;
  }

  async callTool(name: string, args: Record<string, unknown>) {
    return (await this.request("tools/call", { name, arguments: args })).result;
  }

  /** Closes stdin; resolves with the exit code and how long the exit took. */
  async closeStdin(): Promise<{ code: number; ms: number }> {
    const started = performance.now();
    await this.writer.close();
    const status = await this.child.status;
    await this.done;
    return { code: status.code, ms: performance.now() - started };
  }

  kill(): void {
    try {
      this.child.kill("SIGKILL");
    } catch { /* gone */ }
  }
}

Deno.test("each protocol version is negotiated; stdout is protocol only; closing stdin ends the server and its sessions run on", async () => {
  const world = await makeWorld();
  const servers: Raw[] = [];
  try {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const raw = new Raw(world);
      servers.push(raw);
      const init = await raw.initialize(version);
      strictEqual(init.result.protocolVersion, version);
      deepStrictEqual(init.result.capabilities, { tools: {} });
      strictEqual(init.result.serverInfo.name, "lisa");
      const list = await raw.request("tools/list");
      ok(list.result.tools.some((t: { name: string }) => t.name === "status"));
    }
    const raw = servers[2];
    const spawned = await raw.callTool("spawn", { command: "sleep 60" });
    const session = spawned.structuredContent.session;
    strictEqual(JSON.parse(spawned.content[0].text).session, session);
    const { code, ms } = await raw.closeStdin();
    strictEqual(code, 0);
    ok(ms < 2000, `${ms} ms`);
    for (const line of raw.lines) strictEqual(JSON.parse(line).jsonrpc, "2.0", line);
    const has = await world.tmux(spawned.structuredContent.socketPath, [
      "has-session",
      "-t",
      `=${session}`,
    ]);
    strictEqual(has.code, 0, "the spawned session runs on");
    for (const s of servers.slice(0, 2)) strictEqual((await s.closeStdin()).code, 0);
  } finally {
    for (const s of servers) s.kill();
    await world.dispose();
  }
});

Deno.test("100 status calls over one connection start no tmux or ps process", async () => {
  const world = await makeWorld();
  const spy = `${world.base}/spy`;
  const log = `${world.base}/spy.log`;
  await Deno.mkdir(spy);
  for (const name of ["tmux", "ps"]) {
    const where = await new Deno.Command("sh", { args: ["-c", `command -v ${name}`] }).output();
    const real = new TextDecoder().decode(where.stdout).trim();
    ok(real.startsWith("/"), `${name} is on PATH`);
    await Deno.writeTextFile(
      `${spy}/${name}`,
      `#!/bin/sh\nprintf '%s\\n' "${name} $*" >> '${log}'\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
  }
  const raw = new Raw(world, { PATH: `${spy}:${world.env.PATH}` });
  try {
    await raw.initialize("2025-11-25");
    const spawned = await raw.callTool("spawn", { command: "sleep 60" });
    const session = spawned.structuredContent.session;
    // Warm: the first status opens the resident client (one tmux process) and samples CPU.
    for (let i = 0; i < 3; i++) await raw.callTool("status", { session });
    await Deno.writeTextFile(log, "");
    for (let i = 0; i < 100; i++) {
      const r = await raw.callTool("status", { session });
      strictEqual(r.structuredContent.session, session);
      strictEqual(r.isError, false);
    }
    strictEqual(await Deno.readTextFile(log), "", "processes started by 100 status calls");
    ok((await raw.closeStdin()).code === 0);
  } finally {
    raw.kill();
    await world.dispose();
  }
});
