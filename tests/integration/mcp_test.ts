/**
 * `lisa mcp` driven by the official SDK's client against real tmux on private sockets, with the
 * fake agents: the tools are the verbs, their results the CLI's `--json` documents, bad
 * arguments are reported and the server keeps serving, watch blocks until met or timeout,
 * progress and cancellation work, and a tmux server killed under the resident client is read
 * afresh.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { call, startMcp } from "../helpers/mcp.ts";

/** What tools/list says of a tool. */
interface ToolInfo {
  name: string;
  inputSchema: { properties?: Record<string, unknown>; required?: string[] };
}

Deno.test("tools are the verbs with typed schemas, and terminal-only flags are not offered", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const tools = (await mcp.client.listTools()).tools as ToolInfo[];
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (
      const name of [
        "spawn",
        "send",
        "status",
        "explain",
        "list",
        "capture",
        "watch",
        "kill",
        "turns",
        "diff",
        "merge",
        "prune",
        "tree",
        "history_list",
        "history_show",
        "history_search",
      ]
    ) ok(byName.has(name), `no tool ${name}`);
    for (const name of ["attach", "completions", "mcp"]) ok(!byName.has(name), name);
    const props = (name: string) =>
      byName.get(name)!.inputSchema.properties as Record<string, Record<string, unknown>>;
    deepStrictEqual(props("capture").lines.type, "integer");
    strictEqual(props("capture").lines.minimum, 1);
    strictEqual(props("capture").lines.maximum, 1_000_000);
    strictEqual(props("capture").deltaFrom.type, "string");
    strictEqual(props("send").timeoutSeconds.type, "number");
    strictEqual(props("send").wait.type, "boolean");
    deepStrictEqual(props("spawn").agent.enum, ["claude", "codex"]);
    strictEqual(props("spawn").hooks.default, true);
    ok(String(props("spawn").prompt.description).includes("prompt"));
    strictEqual(props("watch").until.type, "array");
    ok((props("watch").until.items as { enum: string[] }).enum.includes("waiting_input"));
    deepStrictEqual(byName.get("watch")!.inputSchema.required, ["until"]);
    deepStrictEqual(props("watch").sessions.type, "array");
    deepStrictEqual(byName.get("history_show")!.inputSchema.required, ["session"]);
    for (const t of tools) {
      for (const terminal of ["json", "jsonMin", "streamJson", "watch", "verbose"]) {
        ok(!(terminal in (t.inputSchema.properties ?? {})), `${t.name} offers ${terminal}`);
      }
    }
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("a worker spawned, read, driven and killed through the tools", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const spawned = await call(mcp, "spawn", { command: "cat", tag: "mcp" });
    strictEqual(spawned.isError, false, JSON.stringify(spawned.doc));
    const session = String(spawned.doc.session);
    ok(session.startsWith("lisa-"), session);
    strictEqual(spawned.doc.stderrPolicy, "diagnostic");

    const status = await call(mcp, "status", { session });
    strictEqual(status.isError, false);
    strictEqual(status.doc.session, session);
    // The document is the CLI's: the same fields as `session status --json`.
    const cli = await world.lisa(["session", "status", "--session", session, "--json"]);
    deepStrictEqual(Object.keys(status.doc).sort(), Object.keys(cli.json!).sort());
    const exists = await call(mcp, "exists", { session });
    const cliExists = await world.lisa(["session", "exists", "--session", session, "--json"]);
    deepStrictEqual(exists.doc, cliExists.json);

    // Text with shell syntax arrives verbatim and runs nothing.
    const text = "hello $(touch pwned) `id`; 'q' \"d\"";
    const sent = await call(mcp, "send", { session, text, enter: true });
    strictEqual(sent.isError, false, JSON.stringify(sent.doc));
    const seen = await waitFor(
      async () => {
        const c = await call(mcp, "capture", { session, raw: true });
        return String(c.doc.capture).includes("hello") ? String(c.doc.capture) : null;
      },
      10_000,
      50,
    );
    ok(seen!.includes(text), seen!);
    ok(!(await Deno.stat(`${world.projectRoot}/pwned`).catch(() => null)));

    const listed = await call(mcp, "list", {});
    ok((listed.doc.sessions as unknown[]).length >= 1, JSON.stringify(listed.doc));

    const killed = await call(mcp, "kill", { session });
    strictEqual(killed.isError, false, JSON.stringify(killed.doc));
    strictEqual(killed.doc.ok, true);
    const after = await call(mcp, "status", { session });
    strictEqual(after.doc.sessionState, "not_found");
    // A failed verb: isError with the CLI's errorCode; the server goes on.
    const missing = await call(mcp, "send", { session, text: "x" });
    strictEqual(missing.isError, true);
    strictEqual(missing.doc.ok, false);
    strictEqual(typeof missing.doc.errorCode, "string");
    strictEqual(missing.exitCode, 1);
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("ill-typed or unknown arguments are reported and the server keeps serving", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const cases: [string, Record<string, unknown>, string][] = [
      ["status", { session: 42 }, "invalid_argument"],
      ["capture", { session: "x", lines: 0 }, "invalid_argument"],
      ["capture", { session: "x", lines: 2.5 }, "invalid_argument"],
      ["capture", { session: "x", lines: "12" }, "invalid_argument"],
      ["spawn", { agent: "gpt" }, "invalid_agent"],
      ["status", { sesion: "x" }, "unknown_option"],
      ["status", { json: false }, "unknown_option"],
      ["watch", {}, "missing_argument"],
      // '-' would read stdin, which is the protocol's: refused, not read.
      ["send", { session: "x", text: "-" }, "invalid_argument"],
    ];
    for (const [name, args, code] of cases) {
      const r = await call(mcp, name, args);
      strictEqual(r.isError, true, `${name} ${JSON.stringify(args)}`);
      strictEqual(r.doc.errorCode, code, `${name} ${JSON.stringify(args)}: ${r.doc.error}`);
    }
    await mcp.client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => ok(false, "an unknown tool answered"),
      (error: unknown) => ok(/-32602/.test(String(error)), String(error)),
    );
    const fine = await call(mcp, "list", {});
    strictEqual(fine.isError, false);
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("watch returns when until is met, a timeout is a normal result, progress comes as notifications", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const a = await call(mcp, "spawn", { command: "read -r line; exit 3" });
    const session = String(a.doc.session);
    const timedOut = await call(mcp, "watch", { until: "terminal", session, timeoutSeconds: 1 });
    strictEqual(timedOut.isError, false);
    strictEqual(timedOut.doc.type, "timeout");
    strictEqual(timedOut.exitCode, 2);
    const progress: string[] = [];
    const watching = mcp.client.callTool(
      { name: "watch", arguments: { until: "terminal", sessions: [session], timeoutSeconds: 30 } },
      undefined,
      { onprogress: (p: { message?: string }) => progress.push(String(p.message)) },
    );
    await waitFor(() => progress.length > 0, 10_000, 20);
    await call(mcp, "send", { session, text: "go", enter: true });
    const met = await watching;
    const doc = met.structuredContent as Record<string, unknown>;
    strictEqual(met.isError, false);
    strictEqual(doc.type, "until_met", JSON.stringify(doc));
    const sessions = doc.sessions as Record<string, unknown>[];
    strictEqual(sessions[0].session, session);
    strictEqual(sessions[0].state, "crashed");
    ok(Array.isArray(doc.events) && doc.events.length >= 1, JSON.stringify(doc));
    ok(progress.some((p) => p.includes('"type":"appeared"')), progress.join("\n"));
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("send with wait reports progress while the turn prints nothing: a client that resets its timeout on progress keeps the call", async () => {
  const world = await makeWorld();
  // Each turn of the fake works 5 s in silence; a beat comes every second.
  const env = { LISA_MCP_PROGRESS_SECONDS: "1", FAKE_TURN_SECONDS: "5", FAKE_REPLY_ECHO: "1" };
  const mcp = await startMcp(world, [], env);
  try {
    const spawned = await call(mcp, "spawn", { agent: "claude" });
    const session = String(spawned.doc.session);
    const hooks =
      `${world.runtimeDir}/.lisa-${spawned.doc.projectHash}-session-${session}-hooks.jsonl`;
    const ready = await waitFor(() => {
      try {
        return Deno.readTextFileSync(hooks).includes("SessionStart");
      } catch {
        return false;
      }
    }, 30_000);
    ok(ready, "no SessionStart");
    const progress: string[] = [];
    // The call outlasts the client's 3 s timeout: only progress keeps it.
    const r = await mcp.client.callTool(
      { name: "send", arguments: { session, text: "hello", wait: true, force: true } },
      undefined,
      {
        timeout: 3000,
        resetTimeoutOnProgress: true,
        onprogress: (p: { message?: string }) => progress.push(String(p.message)),
      },
    );
    const doc = r.structuredContent as Record<string, unknown>;
    strictEqual(doc.outcome, "completed", JSON.stringify(doc));
    strictEqual(doc.reply, "reply to: hello");
    const beats = progress.map((p) => JSON.parse(p) as Record<string, unknown>)
      .filter((p) => p.type === "progress");
    ok(beats.length >= 2, progress.join("\n"));
    ok(beats.every((b) => typeof b.elapsedSeconds === "number"), progress.join("\n"));
    // The state comes from the wait's own status reads.
    ok(
      beats.some((b) => b.session === session && b.state === "in_progress"),
      progress.join("\n"),
    );
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("a cancelled watch stops and the server answers the next call", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const a = await call(mcp, "spawn", { command: "sleep 60" });
    const session = String(a.doc.session);
    const abort = new AbortController();
    let progressed = false;
    const watching = mcp.client.callTool(
      { name: "watch", arguments: { until: "completed", session, timeoutSeconds: 60 } },
      undefined,
      { signal: abort.signal, onprogress: () => progressed = true },
    );
    await waitFor(() => progressed, 10_000, 20);
    const started = Date.now();
    abort.abort("enough");
    await watching.then(() => ok(false, "a cancelled call answered"), () => {});
    const next = await call(mcp, "status", { session });
    strictEqual(next.doc.session, session);
    ok(Date.now() - started < 5000);
    // The watch's own control clients are gone with it: only the resident one stays.
    await waitFor(
      async () => {
        const r = await world.tmux(String(a.doc.socketPath), [
          "list-clients",
          "-F",
          "#{client_pid}",
        ]);
        return r.stdout.trim().split("\n").filter(Boolean).length <= 1;
      },
      5000,
      50,
    );
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("a tmux server killed and started again under the server is read afresh", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const first = await call(mcp, "spawn", { command: "sleep 60" });
    const socket = String(first.doc.socketPath);
    strictEqual(
      (await call(mcp, "status", { session: String(first.doc.session) })).doc.paneStatus,
      "alive",
    );
    const pid = Number((await world.tmux(socket, ["display-message", "-p", "#{pid}"])).stdout);
    await world.tmux(socket, ["kill-server"]);
    await waitFor(
      () => {
        try {
          return /^\d+ \(.*\) [ZX]/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
        } catch {
          return true;
        }
      },
      5000,
      10,
    );
    const gone = await call(mcp, "status", { session: String(first.doc.session) });
    strictEqual(gone.doc.sessionState, "not_found");
    const second = await call(mcp, "spawn", { command: "sleep 60" });
    const again = await call(mcp, "status", { session: String(second.doc.session) });
    strictEqual(again.doc.paneStatus, "alive", JSON.stringify(again.doc));
    // The first session's server is gone: list keeps it as lost until it is pruned, and reads
    // the new server's session live.
    const list = await call(mcp, "list", {});
    const items = list.doc.items as { session: string; state: string; lost: boolean }[];
    deepStrictEqual(
      items.map((i) => [i.session, i.lost, i.lost ? i.state : "live"]).sort(),
      [[first.doc.session, true, "not_found"], [second.doc.session, false, "live"]].sort(),
    );
    strictEqual(list.doc.lostCount, 1);
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("sessions read right when the client starts the server without a UTF-8 locale", async () => {
  const world = await makeWorld();
  // What MCP clients pass their servers: a minimal environment, no LANG (here: the C locale).
  const mcp = await startMcp(world, [], { LC_ALL: "C", LANG: "C", LC_CTYPE: "C" });
  try {
    const spawned = await call(mcp, "spawn", { command: "sleep 60" });
    const session = String(spawned.doc.session);
    for (let i = 0; i < 2; i++) {
      // The first status goes one-shot (opening the resident client), the second over it.
      const status = await call(mcp, "status", { session });
      strictEqual(status.doc.paneStatus, "alive", JSON.stringify(status.doc));
    }
    const list = await call(mcp, "list", {});
    deepStrictEqual(list.doc.sessions, [session]);
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("every tool answers with a JSON document, never a protocol error", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const tools = (await mcp.client.listTools()).tools as ToolInfo[];
    // Arguments each tool needs to run at all (smoke runs nested lisa calls: left to its tests).
    const args: Record<string, Record<string, unknown>> = {
      watch: { until: "terminal", timeoutSeconds: 0 },
      monitor: { session: "lisa-none", maxPolls: 1, pollInterval: 0 },
      history_show: { session: "lisa-none" },
      history_search: { words: "nothing" },
      detect_nested: { prompt: "hello" },
      guard: { command: "ls" },
      skill_install: { dryRun: true },
    };
    for (const t of tools) {
      if (t.name === "smoke") continue;
      const r = await mcp.client.callTool({ name: t.name, arguments: args[t.name] ?? {} });
      const doc = r.structuredContent as Record<string, unknown> | undefined;
      ok(doc !== undefined && typeof doc === "object", `${t.name}: ${JSON.stringify(r)}`);
      strictEqual(r.isError, doc.ok === false, `${t.name}: ${JSON.stringify(doc)}`);
      strictEqual(
        JSON.parse((r.content as { text: string }[])[0].text).stderrPolicy,
        doc.stderrPolicy,
      );
    }
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("send with wait returns the turn: its outcome and the agent's reply", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world, [], { FAKE_REPLY_ECHO: "1" });
  try {
    const spawned = await call(mcp, "spawn", { agent: "claude" });
    const session = String(spawned.doc.session);
    // send waits for a starting agent to take input (readyTimeout) before it types.
    const turn = await call(mcp, "send", {
      session,
      text: "what is 6*7?",
      wait: true,
      timeoutSeconds: 30,
    });
    strictEqual(turn.isError, false, JSON.stringify(turn.doc));
    strictEqual(turn.doc.outcome, "completed", JSON.stringify(turn.doc));
    strictEqual(turn.doc.reply, "reply to: what is 6*7?");
    strictEqual(turn.exitCode, 0);
  } finally {
    await mcp.close();
    await world.dispose();
  }
});

Deno.test("text sent over the resident client into a finished pane is refused, and the server lives", async () => {
  const world = await makeWorld();
  const mcp = await startMcp(world);
  try {
    const live = await call(mcp, "spawn", { command: "sleep 60" });
    const done = await call(mcp, "spawn", { command: "exit 0" });
    const session = String(done.doc.session);
    // The pane is dead as tmux sees it (a done file alone can come before the shell is gone),
    // and the resident client is open (status went over it) before the write.
    await waitFor(
      async () => {
        const s = await call(mcp, "status", { session });
        return s.doc.paneStatus !== "alive" && s.doc.paneStatus !== "missing";
      },
      10_000,
      50,
    );
    const sent = await call(mcp, "send", { session, text: "into a dead pane", enter: true });
    strictEqual(sent.isError, true, JSON.stringify(sent.doc));
    const alive = await call(mcp, "status", { session: String(live.doc.session) });
    strictEqual(alive.doc.paneStatus, "alive", "the server and its other session live on");
  } finally {
    await mcp.close();
    await world.dispose();
  }
});
