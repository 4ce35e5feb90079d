/**
 * The history store over synthetic runtime files: where and how the database is created,
 * schema versions, idempotent incremental ingestion (twice, after compaction, from 8 processes
 * at once), the turn model, and the sweeps.
 */
import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { fakeDeps } from "../../../helpers/fake_deps.ts";
import { type History, openHistory, SCHEMA_VERSION } from "../../../../src/core/history/store.ts";
import { ingestAll, markEnded } from "../../../../src/core/history/ingest.ts";
import { sweepHistory } from "../../../../src/core/history/sweep.ts";
import {
  listSessions,
  listSessionsJson,
  searchTurns,
  showSession,
} from "../../../../src/core/history/query.ts";
import { LisaError } from "../../../../src/base/errors.ts";
import { writeNotes } from "../../../../src/store/log_notes.ts";
import { lockPathFor } from "../../../../src/store/runtime_dir.ts";
import { REPO_ROOT } from "../../../helpers/world.ts";
import { runHook } from "../../../../src/core/hook/run_hook.ts";

const HASH = "0123abcd";
const SESSION = "lisa-proj-260101-000000-1-claude-interactive";
const RUN = "run-1";

interface Fixture {
  dir: string;
  runtimeDir: string;
  db: string;
  hooks: string;
  deps: ReturnType<typeof fakeDeps>;
}

async function fixture(now = new Date("2026-01-01T00:10:00Z")): Promise<Fixture> {
  const dir = await Deno.makeTempDir({ prefix: "lisa-history-" });
  const runtimeDir = `${dir}/run`;
  await Deno.mkdir(runtimeDir, { mode: 0o700 });
  const db = `${dir}/state/lisa/history.db`;
  const base = `${runtimeDir}/.lisa-${HASH}-session-${SESSION}`;
  await Deno.writeTextFile(
    `${base}-meta.json`,
    JSON.stringify({
      session: SESSION,
      parentSession: null,
      agent: "claude",
      mode: "interactive",
      projectRoot: "/p",
      projectHash: HASH,
      socketPath: `${dir}/no.sock`,
      startCmd: "claude",
      prompt: null,
      createdAt: "2026-01-01T00:00:00.000Z",
      runId: RUN,
      agentSessionId: null,
      hooks: true,
    }),
  );
  const deps = fakeDeps({
    env: { LISA_RUNTIME_DIR: runtimeDir, LISA_HISTORY_DB: db, LISA_TURN_STALE_SECONDS: "300" },
    now: () => now,
  });
  return { dir, runtimeDir, db, hooks: `${base}-hooks.jsonl`, deps };
}

function hook(at: string, event: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ at, runId: RUN, agent: "claude", event, ...extra }) + "\n";
}

const TURN = [
  hook("2026-01-01T00:00:01.000Z", "SessionStart", { preview: "startup" }),
  hook("2026-01-01T00:00:02.000Z", "UserPromptSubmit", { prompt: "fix the parser" }),
  hook("2026-01-01T00:00:03.000Z", "PostToolUse", {
    tool: "Bash",
    preview: "Bash: deno test",
    durationMs: 900,
  }),
  hook("2026-01-01T00:00:05.000Z", "Stop", { reply: "Parser fixed; tests pass." }),
];

async function withHistory<T>(f: Fixture, fn: (h: History) => T | Promise<T>): Promise<T> {
  const h = await openHistory(f.deps);
  try {
    return await fn(h);
  } finally {
    h.close();
  }
}

function counts(h: History): Record<string, number> {
  const n = (t: string) => Number(h.db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get()?.n);
  return { sessions: n("sessions"), turns: n("turns"), tools: n("tools") };
}

Deno.test("the database is created 0600 in a 0700 directory, at LISA_HISTORY_DB", async () => {
  const f = await fixture();
  try {
    await withHistory(f, () => {});
    strictEqual(Deno.statSync(f.db).mode! & 0o777, 0o600);
    strictEqual(Deno.statSync(`${f.dir}/state/lisa`).mode! & 0o777, 0o700);
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("a symlinked database or a group-writable directory is refused as history_unsafe", async () => {
  const f = await fixture();
  try {
    await Deno.mkdir(`${f.dir}/state/lisa`, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(`${f.dir}/elsewhere.db`, "");
    await Deno.symlink(`${f.dir}/elsewhere.db`, f.db);
    await rejects(
      openHistory(f.deps),
      (e) => e instanceof LisaError && e.code === "history_unsafe",
    );
    await Deno.remove(f.db);
    await Deno.chmod(`${f.dir}/state/lisa`, 0o770);
    await rejects(
      openHistory(f.deps),
      (e) => e instanceof LisaError && e.code === "history_unsafe",
    );
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("a database with a newer schema version is refused, not misread", async () => {
  const f = await fixture();
  try {
    await withHistory(f, (h) => {
      h.db.prepare("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)").run(
        SCHEMA_VERSION + 1,
        "x",
      );
    });
    await rejects(
      openHistory(f.deps),
      (e) => e instanceof LisaError && e.code === "history_schema_newer",
    );
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("a hook-driven turn is ingested with its prompt, tool and reply, once", async () => {
  const f = await fixture();
  try {
    await Deno.writeTextFile(f.hooks, TURN.join(""));
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      ingestAll(h, f.deps);
      deepStrictEqual(counts(h), { sessions: 1, turns: 1, tools: 1 });
      const s = showSession(h, SESSION);
      strictEqual(s.agent, "claude");
      strictEqual(s.projectRoot, "/p");
      strictEqual(s.turnList.length, 1);
      const t = s.turnList[0];
      strictEqual(t.prompt, "fix the parser");
      strictEqual(t.outcome, "completed");
      strictEqual(t.reply, "Parser fixed; tests pass.");
      strictEqual(t.durationMs, 3000);
      deepStrictEqual(t.tools.map((x) => [x.tool, x.input, x.durationMs]), [
        ["Bash", "deno test", 900],
      ]);
      strictEqual(searchTurns(h, "parser tests")[0]?.turnId, t.turnId);
      markEnded(h, SESSION, RUN, "killed", "2026-01-01T00:00:09.000Z");
      const listed = listSessions(h, { projectRoot: "/p" });
      strictEqual(listed[0].durationMs, 9000);
      strictEqual(listed[0].turns, 1);
      // The JSON that SQLite builds for `history list --json` says exactly the same.
      const { json, count } = listSessionsJson(h, { projectRoot: "/p" });
      strictEqual(count, 1);
      deepStrictEqual(JSON.parse(json), listed);
      deepStrictEqual(listSessions(h, { projectRoot: "/elsewhere" }), []);
      deepStrictEqual(searchTurns(h, "nothing-like-this"), []);
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("ingestion is incremental and survives compaction without adding anything twice", async () => {
  const f = await fixture();
  try {
    await Deno.writeTextFile(f.hooks, TURN.slice(0, 2).join(""));
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      strictEqual(showSession(h, SESSION).turnList[0].outcome, "running");
      // Compaction rewrites the file (new inode) with a tail of the lines, plus new ones.
      Deno.writeTextFileSync(`${f.hooks}.new`, TURN.slice(1).join(""));
      Deno.renameSync(`${f.hooks}.new`, f.hooks);
      ingestAll(h, f.deps);
      deepStrictEqual(counts(h), { sessions: 1, turns: 1, tools: 1 });
      strictEqual(showSession(h, SESSION).turnList[0].outcome, "completed");
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("8 processes ingesting the same sessions at once record every turn exactly once", async () => {
  const f = await fixture();
  try {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      const s = String(i).padStart(2, "0");
      lines.push(hook(`2026-01-01T00:01:${s}.000Z`, "UserPromptSubmit", { prompt: `q${i}` }));
      lines.push(hook(`2026-01-01T00:01:${s}.500Z`, "Stop", { reply: `a${i}` }));
    }
    await Deno.writeTextFile(f.hooks, lines.join(""));
    const script = `${REPO_ROOT}/tests/fixtures/ingest_history.ts`;
    const children = Array.from({ length: 8 }, () =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-q", "-A", script],
        env: { LISA_RUNTIME_DIR: f.runtimeDir, LISA_HISTORY_DB: f.db },
        stdout: "piped",
        stderr: "piped",
      }).output());
    for (const r of await Promise.all(children)) {
      strictEqual(r.code, 0, new TextDecoder().decode(r.stderr));
    }
    await withHistory(f, (h) => {
      deepStrictEqual(counts(h), { sessions: 1, turns: 40, tools: 0 });
      const turns = showSession(h, SESSION).turnList;
      deepStrictEqual(turns.map((t) => t.seq), Array.from({ length: 40 }, (_, i) => i + 1));
      ok(turns.every((t, i) => t.reply === `a${i}` && t.outcome === "completed"));
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("sweeps: a killed session's open turn is interrupted; orphan tools join a turn", async () => {
  const f = await fixture();
  try {
    await Deno.writeTextFile(
      f.hooks,
      [
        hook("2026-01-01T00:00:01.000Z", "PostToolUse", { tool: "Read", preview: "Read: /a" }),
        TURN[1],
      ].join(""),
    );
    await withHistory(f, async (h) => {
      ingestAll(h, f.deps);
      markEnded(h, SESSION, RUN, "killed", "2026-01-01T00:00:09.000Z");
      const report = await sweepHistory(h, f.deps, { probe: false });
      strictEqual(report.turnsInterrupted, 1);
      strictEqual(report.toolsJoined, 1);
      const s = showSession(h, SESSION);
      strictEqual(s.finalState, "killed");
      strictEqual(s.endedAt, "2026-01-01T00:00:09.000Z");
      strictEqual(s.turnList[0].outcome, "interrupted");
      strictEqual(s.turnList[0].recovered, true);
      strictEqual(s.turnList[0].tools.length, 1);
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("an interrupted turn ends at its last sign: the kill, else its last hook line", async () => {
  for (const [reason, endedAt] of [["killed", "00:00:09"], ["cleanup", "00:00:04"]]) {
    const f = await fixture();
    try {
      await Deno.writeTextFile(
        f.hooks,
        [
          TURN[1],
          hook("2026-01-01T00:00:04.000Z", "Notification", { notificationType: "idle_prompt" }),
        ].join(""),
      );
      await withHistory(f, async (h) => {
        ingestAll(h, f.deps);
        markEnded(h, SESSION, RUN, reason, "2026-01-01T00:00:09.000Z");
        await sweepHistory(h, f.deps, { probe: false });
        const t = showSession(h, SESSION).turnList[0];
        deepStrictEqual([t.outcome, t.endedAt], ["interrupted", `2026-01-01T${endedAt}.000Z`]);
        strictEqual(t.durationMs, Date.parse(t.endedAt!) - Date.parse(t.startedAt!), reason);
        ok(t.durationMs! > 0, reason);
      });
    } finally {
      await Deno.remove(f.dir, { recursive: true });
    }
  }
});

Deno.test("sweeps: a stale turn of a session not working is interrupted; its late Stop reopens it", async () => {
  const f = await fixture(new Date("2026-01-01T01:00:00Z"));
  try {
    await Deno.writeTextFile(f.hooks, TURN.slice(0, 2).join(""));
    await withHistory(f, async (h) => {
      ingestAll(h, f.deps);
      const report = await sweepHistory(h, f.deps, { probe: false });
      strictEqual(report.turnsInterrupted, 1);
      strictEqual(showSession(h, SESSION).turnList[0].outcome, "interrupted");
      Deno.writeTextFileSync(f.hooks, TURN[3], { append: true });
      ingestAll(h, f.deps);
      const t = showSession(h, SESSION).turnList;
      strictEqual(t.length, 1);
      strictEqual(t[0].outcome, "completed");
      strictEqual(t[0].reply, "Parser fixed; tests pass.");
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("sweeps: an open session whose tmux server is gone is closed with its last state", async () => {
  const f = await fixture();
  try {
    const base = `${f.runtimeDir}/.lisa-${HASH}-session-${SESSION}`;
    await Deno.writeTextFile(
      `${base}-events.jsonl`,
      JSON.stringify({
        at: "2026-01-01T00:00:04.000Z",
        type: "transition",
        session: SESSION,
        runId: RUN,
        state: "waiting_input",
        reason: "x",
      }) + "\n",
    );
    const runner = {
      run: () =>
        Promise.resolve({
          code: 1,
          success: false,
          stdout: "",
          stderr: `no server running on ${f.dir}/no.sock`,
        }),
    };
    const deps = { ...f.deps, runner };
    await withHistory(f, async (h) => {
      ingestAll(h, deps);
      const report = await sweepHistory(h, deps);
      deepStrictEqual(report.sessionsClosed, [SESSION]);
      const s = listSessions(h, {})[0];
      strictEqual(s.finalState, "waiting_input");
      strictEqual(s.recovered, true);
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("node:sqlite is named only by the history store's loader, which loads it lazily", () => {
  const src = new URL("../../../../src/", import.meta.url).pathname;
  const users: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = `${dir}${e.name}`;
      if (e.isDirectory) walk(`${path}/`);
      else if (e.name.endsWith(".ts") && /["']node:sqlite["']/.test(Deno.readTextFileSync(path))) {
        users.push(path.slice(src.length));
      }
    }
  };
  walk(src);
  deepStrictEqual(users, ["store/sqlite.ts"]);
  const loader = Deno.readTextFileSync(`${src}store/sqlite.ts`);
  ok(!/^import[^;]*node:sqlite/m.test(loader), "no static import of node:sqlite");
});

Deno.test("plans: a Write under plans/ captures the file; ExitPlanMode its plan text", async () => {
  const f = await fixture();
  try {
    const planFile = `${f.dir}/plans/p.md`;
    await Deno.mkdir(`${f.dir}/plans`);
    await Deno.writeTextFile(planFile, "# Plan v1");
    await Deno.writeTextFile(
      f.hooks,
      [
        TURN[1],
        hook("2026-01-01T00:00:03.000Z", "PostToolUse", { tool: "Write", planPath: planFile }),
      ].join(""),
    );
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      Deno.writeTextFileSync(planFile, "# Plan v2");
      Deno.writeTextFileSync(
        f.hooks,
        hook("2026-01-01T00:00:04.000Z", "PostToolUse", { tool: "Write", planPath: planFile }) +
          hook("2026-01-01T00:00:05.000Z", "PostToolUse", {
            tool: "ExitPlanMode",
            plan: "# Final plan",
          }),
        { append: true },
      );
      ingestAll(h, f.deps);
      const plans = showSession(h, SESSION).plans;
      deepStrictEqual(plans.map((p) => [p.path === planFile, p.content]), [
        [true, "# Plan v2"],
        [false, "# Final plan"],
      ]);
      ok(plans.every((p) => p.turnId !== null));
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("metas lacking facts, with odd types or without a run id never fail ingestion", async () => {
  const f = await fixture();
  try {
    const meta = (session: string, body: Record<string, unknown>) =>
      Deno.writeTextFileSync(
        `${f.runtimeDir}/.lisa-${HASH}-session-${session}-meta.json`,
        JSON.stringify({ session, ...body }),
      );
    // An older or foreign meta: a run id and little else.
    meta("lisa-proj-sparse", { runId: "run-s", createdAt: "2026-01-01T00:01:00.000Z" });
    // Fields of other types than lisa writes.
    meta("lisa-proj-odd", { runId: "run-o", agent: 7, projectRoot: ["/p"], prompt: { x: 1 } });
    // No run id: it names no run.
    meta("lisa-proj-norun", { agent: "claude", projectRoot: "/p" });
    await Deno.writeTextFile(f.hooks, TURN.join(""));
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      const names = listSessions(h, {}).map((s) => s.session).sort();
      deepStrictEqual(names, ["lisa-proj-odd", "lisa-proj-sparse", SESSION].sort());
      strictEqual(showSession(h, "lisa-proj-sparse").agent, null);
      strictEqual(showSession(h, "lisa-proj-odd").projectRoot, null);
      // The well-formed session beside them is ingested in full.
      strictEqual(showSession(h, SESSION).turnList[0].reply, "Parser fixed; tests pass.");
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

/**
 * Appends one claude hook line to the fixture's hook file the way the agent does it (through
 * `lisa hook`, with the log's bounds from `env`).
 */
async function agentHook(
  f: Fixture,
  env: Record<string, string>,
  at: Date,
  payload: Record<string, unknown>,
): Promise<void> {
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  let given = false;
  const code = await runHook(
    ["claude"],
    { LISA_HOOK_FILE: f.hooks, LISA_RUN_ID: RUN, ...env },
    {
      stdin: {
        isTerminal: () => false,
        read(buffer: Uint8Array) {
          if (given) return Promise.resolve(null);
          given = true;
          buffer.set(bytes);
          return Promise.resolve(bytes.length);
        },
      },
      now: () => at,
      runChain: () => Promise.resolve(),
    },
  );
  strictEqual(code, 0);
}

/** `turns` turns of `tools` tool calls each, through the hook, at one-second steps. */
async function agentTurns(f: Fixture, env: Record<string, string>, from: number, turns: number) {
  const tools = 5;
  let t = Date.parse("2026-01-01T00:00:00Z") + from * 100_000;
  const at = () => new Date(t += 1000);
  for (let i = from; i < from + turns; i++) {
    await agentHook(f, env, at(), { hook_event_name: "UserPromptSubmit", prompt: `q${i}` });
    for (let k = 0; k < tools; k++) {
      await agentHook(f, env, at(), {
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: `step ${i}.${k}` },
      });
    }
    await agentHook(f, env, at(), {
      hook_event_name: "Stop",
      last_assistant_message: `a${i}`,
      stop_hook_active: false,
    });
  }
}

/** Every turn of the fixture's session: prompt, reply, outcome and tool count. */
function turnFacts(h: History): [string | null, string | null, string, number][] {
  return showSession(h, SESSION).turnList.map((
    t,
  ) => [t.prompt, t.reply, t.outcome, t.tools.length]);
}

Deno.test("compaction of the hook log never drops a line history has not ingested", async () => {
  const f = await fixture();
  const env = { LISA_EVENTS_MAX_LINES: "12" };
  try {
    // 12 turns of 7 lines each with nothing read in between: 84 lines against a bound of 12.
    await agentTurns(f, env, 0, 12);
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      deepStrictEqual(
        turnFacts(h),
        Array.from({ length: 12 }, (_, i) => [`q${i}`, `a${i}`, "completed", 5]),
      );
    });
    // Once read, the next append compacts the log to its bound again.
    await agentTurns(f, env, 12, 1);
    const lines = Deno.readTextFileSync(f.hooks).trim().split("\n").length;
    ok(lines <= 12, `${lines} lines after a read`);
    // Reads in between: still every turn, once.
    for (const from of [13, 15, 17]) {
      await agentTurns(f, env, from, 2);
      await withHistory(f, (h) => ingestAll(h, f.deps));
    }
    await withHistory(f, (h) => {
      deepStrictEqual(
        turnFacts(h),
        Array.from({ length: 19 }, (_, i) => [`q${i}`, `a${i}`, "completed", 5]),
      );
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("lisa's own turn end closes the open turn at its last sign; a late Stop completes it", async () => {
  const f = await fixture();
  try {
    await Deno.writeTextFile(
      f.hooks,
      [
        TURN[1],
        hook("2026-01-01T00:00:08.000Z", "lisa:turn_end", {
          outcome: "completed",
          reply: "from the screen",
          endedAt: "2026-01-01T00:00:04.000Z",
          reason: "hook_running_but_idle:claude_title_idle",
        }),
      ].join(""),
    );
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      const t = showSession(h, SESSION).turnList[0];
      deepStrictEqual(
        [t.outcome, t.reply, t.endedAt, t.durationMs, t.recovered],
        ["completed", "from the screen", "2026-01-01T00:00:04.000Z", 2000, true],
      );
    });
    // The agent's own Stop, late after all: its reply and time win.
    await Deno.writeTextFile(f.hooks, hook("2026-01-01T00:00:09.000Z", "Stop", { reply: "real" }), {
      append: true,
    });
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      const turns = showSession(h, SESSION).turnList;
      deepStrictEqual(turns.map((t) => [t.outcome, t.reply, t.endedAt]), [
        ["completed", "real", "2026-01-01T00:00:09.000Z"],
      ]);
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("a turn still open at the next prompt ended at its last sign, not at that prompt", async () => {
  const f = await fixture();
  try {
    await Deno.writeTextFile(
      f.hooks,
      [
        TURN[1],
        hook("2026-01-01T00:00:03.000Z", "PostToolUse", { tool: "Read", preview: "Read: /a" }),
        hook("2026-01-01T00:05:00.000Z", "UserPromptSubmit", { prompt: "next" }),
      ].join(""),
    );
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      const turns = showSession(h, SESSION).turnList;
      deepStrictEqual(turns.map((t) => [t.prompt, t.outcome, t.endedAt]), [
        ["fix the parser", "interrupted", "2026-01-01T00:00:03.000Z"],
        ["next", "running", null],
      ]);
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("a database of schema 1 is migrated in place, its turns kept", async () => {
  const f = await fixture();
  try {
    // Schema 1, as the lisa before it wrote it, with one turn.
    await Deno.mkdir(`${f.dir}/state/lisa`, { recursive: true, mode: 0o700 });
    const { DatabaseSync } = await import("node:sqlite");
    const old = new DatabaseSync(f.db);
    old.exec(
      "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
    );
    const { MIGRATIONS } = await import("../../../../src/core/history/store.ts");
    old.exec(MIGRATIONS[0]);
    old.prepare("INSERT INTO schema_version VALUES (1, '2026-01-01')").run();
    old.prepare("INSERT INTO sessions (name, run_id) VALUES (?, ?)").run(SESSION, RUN);
    old.prepare(
      "INSERT INTO turns (session_id, turn_key, seq, prompt, outcome) VALUES (1, 'k', 1, 'p', 'completed')",
    ).run();
    old.close();
    Deno.chmodSync(f.db, 0o600);
    await withHistory(f, (h) => {
      const turn = showSession(h, SESSION).turnList[0];
      strictEqual(turn.prompt, "p");
      strictEqual(turn.trigger, "prompt");
      strictEqual(turn.usage, null);
      strictEqual(
        Number(h.db.prepare("SELECT MAX(version) AS v FROM schema_version").get()?.v),
        SCHEMA_VERSION,
      );
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("the agent's own turns are background turns; tokens come from its transcript", async () => {
  const f = await fixture();
  try {
    const transcript = `${f.dir}/transcript.jsonl`;
    const entry = (promptId: string, id: string, input: number) =>
      JSON.stringify({ type: "user", promptId, message: { role: "user", content: "x" } }) + "\n" +
      JSON.stringify({
        type: "assistant",
        message: { id, role: "assistant", usage: { input_tokens: input, output_tokens: 1 } },
      }) + "\n";
    await Deno.writeTextFile(transcript, entry("p1", "m1", 10) + entry("p2", "m2", 7));
    const withPath = { transcriptPath: transcript };
    await Deno.writeTextFile(
      f.hooks,
      [
        hook("2026-01-01T00:00:01.000Z", "SessionStart", withPath),
        hook("2026-01-01T00:00:02.000Z", "UserPromptSubmit", { prompt: "go", promptId: "p1" }),
        hook("2026-01-01T00:00:03.000Z", "Stop", { reply: "started", promptId: "p1", ...withPath }),
        hook("2026-01-01T00:00:09.000Z", "UserPromptSubmit", {
          prompt: "<task-notification>\n<task-id>b1</task-id>\n</task-notification>",
          promptId: "p2",
        }),
        hook("2026-01-01T00:00:10.000Z", "Stop", { reply: "done", promptId: "p2", ...withPath }),
        // A Stop with no turn open: a turn the agent took without a prompt hook.
        hook("2026-01-01T00:00:20.000Z", "Stop", { reply: "also done", ...withPath }),
      ].join(""),
    );
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      const turns = showSession(h, SESSION).turnList;
      deepStrictEqual(turns.map((t) => [t.trigger, t.reply]), [
        ["prompt", "started"],
        ["background", "done"],
        ["background", "also done"],
      ]);
      deepStrictEqual(turns.map((t) => t.usage?.inputTokens ?? null), [10, 7, null]);
      strictEqual(showSession(h, SESSION).usage?.inputTokens, 17);
      const listed = JSON.parse(listSessionsJson(h, {}).json);
      deepStrictEqual(listed[0].usage, {
        inputTokens: 17,
        outputTokens: 2,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      });
    });
    // A damaged transcript: the tokens are unknown, the ingestion goes on.
    await Deno.writeTextFile(transcript, "{damaged\n\u0000\n");
    await Deno.writeTextFile(
      f.hooks,
      hook("2026-01-01T00:00:30.000Z", "UserPromptSubmit", { prompt: "more", promptId: "p3" }) +
        hook("2026-01-01T00:00:31.000Z", "Stop", { reply: "ok", promptId: "p3", ...withPath }),
      { append: true },
    );
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      const turns = showSession(h, SESSION).turnList;
      strictEqual(turns.length, 4);
      strictEqual(turns[3].usage, null);
      strictEqual(turns[3].reply, "ok");
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("a hook log rewritten on the same inode (a compaction's new file given the old one's number) loses no turn", async () => {
  const f = await fixture();
  const turn = (i: number) =>
    hook(`2026-01-01T00:0${i}:02.000Z`, "UserPromptSubmit", { prompt: `q${i}` }) +
    hook(`2026-01-01T00:0${i}:05.000Z`, "Stop", { reply: `a${i}` });
  try {
    await Deno.writeTextFile(f.hooks, turn(1) + turn(2));
    await withHistory(f, (h) => ingestAll(h, f.deps));
    const ino = Deno.statSync(f.hooks).ino!;
    // What a compaction does when the file system hands its new file the old inode number: the
    // read lines are gone, the new file starts with unread ones, and the read mark moved to 0.
    const file = Deno.openSync(f.hooks, { write: true, truncate: true });
    file.writeSync(new TextEncoder().encode(turn(3) + turn(4)));
    file.close();
    strictEqual(Deno.statSync(f.hooks).ino, ino);
    writeNotes(lockPathFor(f.hooks), { read: { ino, offset: 0 } });
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      // The stored cursor's offset (the old file's end) used to be taken on the new file: the
      // turns before it were never read.
      deepStrictEqual(turnFacts(h).map(([q]) => q), ["q1", "q2", "q3", "q4"]);
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});

Deno.test("history show takes a run id: each run of a name spawned again is shown, not only the newest", async () => {
  const f = await fixture();
  try {
    const run = (id: string, minute: number, prompt: string) =>
      [
        hook(`2026-01-01T00:0${minute}:02.000Z`, "UserPromptSubmit", { prompt }),
        hook(`2026-01-01T00:0${minute}:05.000Z`, "Stop", { reply: "ok" }),
      ].map((l) => l.replace(`"runId":"${RUN}"`, `"runId":"${id}"`)).join("");
    // An earlier run of the name, then the run its meta names now.
    await Deno.writeTextFile(f.hooks, run("run-0", 1, "first run") + run(RUN, 2, "second run"));
    await withHistory(f, (h) => {
      ingestAll(h, f.deps);
      // By name: the newest run only.
      deepStrictEqual(showSession(h, SESSION).turnList.map((t) => t.prompt), ["second run"]);
      // The earlier run was in `history list` but nothing showed its turns.
      const first = showSession(h, "run-0");
      deepStrictEqual([first.runId, first.turnList.map((t) => t.prompt)], ["run-0", ["first run"]]);
      strictEqual(showSession(h, RUN).turnList[0].prompt, "second run");
    });
  } finally {
    await Deno.remove(f.dir, { recursive: true });
  }
});
