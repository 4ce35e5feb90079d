/**
 * History end to end with the fake agents: a turn sent with `send --wait` is in `history show`
 * and `session turns`; a session killed mid-turn is closed and its turn interrupted. (History by
 * name: history_names_test.ts.)
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, REPO_ROOT, waitFor, type World } from "../helpers/world.ts";
import { artifact, processesOf, readIf, spawn, waitDone } from "./lifecycle_helpers.ts";
import { openHistory } from "../../src/core/history/store.ts";

type Turn = { prompt: string; outcome: string; reply: string | null; tools: { tool: string }[] };

Deno.test("a killed session's running turn is interrupted and the session closed", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_TURN_SECONDS: "60" });
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "long job",
      "--enter",
    ]);
    strictEqual(sent.code, 0, sent.stderr);
    ok(
      await waitFor(() => (readIf(hooks) ?? "").includes("UserPromptSubmit") || undefined, 30_000),
    );
    const killed = await world.lisaInProcess(["session", "kill", "--session", s.session]);
    strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    strictEqual(readIf(hooks), undefined, "kill removed the hook file");
    const shown = await world.lisaInProcess(["history", "show", s.session, "--json"]);
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    const json = shown.json as { endedAt: string | null; finalState: string; turns: Turn[] };
    ok(json.endedAt !== null, "the session is closed");
    strictEqual(json.finalState, "killed");
    deepStrictEqual(json.turns.map((t) => [t.prompt, t.outcome]), [["long job", "interrupted"]]);
  } finally {
    await world.dispose();
  }
});

Deno.test("a turn interrupted by kill lasts until the kill, not 0 ms", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_TURN_SECONDS: "60" });
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "long job",
      "--enter",
    ]);
    strictEqual(sent.code, 0, sent.stderr);
    const startedAt = await waitFor(() => {
      const line = (readIf(hooks) ?? "").split("\n").find((l) => l.includes("UserPromptSubmit"));
      return line === undefined ? undefined : Date.parse(JSON.parse(line).at);
    }, 30_000);
    ok(startedAt !== undefined, "the turn started");
    // The turn runs (its tool child sleeps) for at least 2 s before the kill.
    ok(await waitFor(() => Date.now() - startedAt >= 2000, 10_000));
    const killed = await world.lisaInProcess(["session", "kill", "--session", s.session]);
    strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    const shown = await world.lisaInProcess(["history", "show", s.session, "--json"]);
    const turn = (shown.json as { turns: (Turn & { durationMs: number })[] }).turns[0];
    strictEqual(turn.outcome, "interrupted", shown.stdout);
    ok(turn.durationMs >= 2000, `durationMs ${turn.durationMs}`);
  } finally {
    await world.dispose();
  }
});

Deno.test("history show and session turns list a waited turn with its tool and reply", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_PERMISSION: "1" });
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    const first = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "touch it",
      "--wait",
      "--json",
    ]);
    strictEqual((first.json as { outcome: string }).outcome, "permission");
    // A person answers the dialog; the turn then ends with the tool run and the reply.
    const yes = await world.lisaInProcess(["session", "send", "--session", s.session, "--enter"]);
    strictEqual(yes.code, 0, yes.stderr);
    ok(await waitFor(() => (readIf(hooks) ?? "").includes('"Stop"') || undefined, 30_000));
    const turns = await world.lisaInProcess(["session", "turns", "--session", s.session, "--json"]);
    strictEqual(turns.code, 0, turns.stdout + turns.stderr);
    const list = (turns.json as { turns: Turn[] }).turns;
    strictEqual(list.length, 1);
    strictEqual(list[0].prompt, "touch it");
    strictEqual(list[0].outcome, "completed");
    strictEqual(list[0].reply, "fake reply");
    deepStrictEqual(list[0].tools.map((t) => t.tool), ["Bash"]);
    const listed = await world.lisaInProcess(["history", "list", "--json"]);
    strictEqual(listed.code, 0, listed.stdout + listed.stderr);
    const sessions = (listed.json as { sessions: { session: string; turns: number }[] }).sessions;
    deepStrictEqual(sessions.map((x) => [x.session, x.turns]), [[s.session, 1]]);
    const found = await world.lisaInProcess(["history", "search", "touch", "--json"]);
    strictEqual((found.json as { count: number }).count, 1, found.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("a spawn sweeps history: a session whose tmux session vanished is closed, recovered", async () => {
  const world = await makeWorld({ env: { LISA_HEARTBEAT_STALE_SECONDS: "1" } });
  try {
    const a = await spawn(world, ["--agent", "claude"]);
    const hooks = artifact(world, a, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    const listed = await world.lisaInProcess(["history", "list", "--json"]);
    strictEqual(listed.code, 0, listed.stdout + listed.stderr);
    // Gone behind lisa's back: no kill, no recorder; its heartbeat stops.
    const gone = await world.tmux(a.socketPath, ["kill-session", "-t", a.session]);
    strictEqual(gone.code, 0, gone.stderr);
    // Its processes (the heartbeat loop among them) end on tmux's hangup, which a busy machine
    // delivers late; then the heartbeat ages past LISA_HEARTBEAT_STALE_SECONDS.
    ok(await waitFor(async () => (await processesOf(a.runId)).length === 0, 10_000));
    await new Promise((r) => setTimeout(r, 1500));
    await spawn(world, ["--command", "sleep 30"]);
    const h = await openHistory({
      config: { historyDb: undefined } as never,
      env: { HOME: world.home },
      uid: Deno.uid() ?? 0,
    });
    try {
      const row = h.db.prepare(
        "SELECT ended_at, recovered, end_reason FROM sessions WHERE name = ?",
      )
        .get(a.session);
      ok(row?.ended_at !== null, JSON.stringify(row));
      deepStrictEqual([row?.recovered, row?.end_reason], [1, "gone"]);
    } finally {
      h.close();
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("a session killed during send --wait: the wait ends interrupted (exit 2), one turn in history", async () => {
  const world = await makeWorld();
  try {
    // A child deaf to SIGTERM holds kill in its grace period (2 s) between its SIGTERM, which
    // ends the pane (it reads crashed, pane_signaled:15), and its kill-session: the wait's
    // status reads (one a second) see that window.
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_TURN_SECONDS: "60",
      FAKE_BEHAVIOR: "stubborn-child",
    });
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    const waiting = world.lisa([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "long job",
      "--wait",
      "--json",
    ]);
    ok(
      await waitFor(() => (readIf(hooks) ?? "").includes("UserPromptSubmit") || undefined, 30_000),
    );
    const [killed, listed] = await Promise.all([
      world.lisa(["session", "kill", "--session", s.session]),
      world.lisa(["history", "list", "--json"]),
    ]);
    strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    strictEqual(listed.code, 0, listed.stdout + listed.stderr);
    const w = await waiting;
    strictEqual(w.code, 2, w.stdout + w.stderr);
    strictEqual((w.json as { outcome: string }).outcome, "interrupted", w.stdout);
    const shown = await world.lisa(["history", "show", s.session, "--json"]);
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    const json = shown.json as { endedAt: string | null; turns: Turn[] };
    ok(json.endedAt !== null, "the session is closed");
    deepStrictEqual(json.turns.map((t) => [t.prompt, t.outcome]), [["long job", "interrupted"]]);
  } finally {
    await world.dispose();
  }
});

/** A second writer holding the history database's write lock until `release()`. */
async function holdHistory(
  world: World,
  db: string,
): Promise<{ release: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-A", `${REPO_ROOT}/tests/fixtures/hold_history.ts`, db],
    env: world.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  ok(new TextDecoder().decode(value).includes("locked"), "the second writer holds the database");
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await child.stdin.close();
      reader.releaseLock();
      await child.stdout.cancel();
      await child.status;
    },
  };
}

Deno.test("kill while another writer holds history keeps the session's files; the next read has its turns", async () => {
  const world = await makeWorld();
  const db = `${world.base}/state/history.db`;
  const env = { LISA_HISTORY_DB: db };
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_REPLY_ECHO: "1" });
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    // History exists (and has read the session) before the turn that only the hook file holds.
    strictEqual((await world.lisaInProcess(["history", "list", "--json"], { env })).code, 0);
    const sent = await world.lisaInProcess(
      ["session", "send", "--session", s.session, "--text", "remember me", "--wait", "--json"],
      { env },
    );
    strictEqual((sent.json as { outcome: string }).outcome, "completed", sent.stdout);
    const holder = await holdHistory(world, db);
    let killed;
    try {
      const args = ["session", "kill", "--session", s.session, "--json"];
      killed = await world.lisaInProcess(args, { env });
      strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    } finally {
      await holder.release();
    }
    // The next read ingests what the kill kept: the turn, and the facts of the gone meta.
    const shown = await world.lisaInProcess(["history", "show", s.session, "--json"], { env });
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    const json = shown.json as { projectRoot: string | null; finalState: string; turns: Turn[] };
    deepStrictEqual(json.turns.map((t) => [t.prompt, t.outcome, t.reply]), [
      ["remember me", "completed", "reply to: remember me"],
    ]);
    strictEqual(json.projectRoot, s.projectRoot);
    // The kill said so in its JSON, not only on stderr.
    const history = killed.json!.history as {
      recorded: boolean;
      keptFiles: string[];
      errorCode?: string;
    };
    strictEqual(history.recorded, false, killed.stdout);
    strictEqual(history.errorCode, "history_busy", killed.stdout);
    ok(history.keptFiles.includes(hooks), killed.stdout);
    ok(/history not recorded/.test(killed.stderr), killed.stderr);
    strictEqual(json.finalState, "killed");
  } finally {
    await world.dispose();
  }
});

Deno.test("kill with a corrupt, FIFO or symlinked history database keeps the hook file and says so", async () => {
  const world = await makeWorld();
  try {
    const kinds: [string, (db: string) => void][] = [
      ["corrupt", (db) => Deno.writeFileSync(db, crypto.getRandomValues(new Uint8Array(3000)))],
      ["fifo", (db) => {
        const r = new Deno.Command("mkfifo", { args: ["-m", "600", db] }).outputSync();
        strictEqual(r.code, 0, new TextDecoder().decode(r.stderr));
      }],
      ["symlink", (db) => {
        Deno.writeTextFileSync(`${db}.real`, "");
        Deno.chmodSync(`${db}.real`, 0o600);
        Deno.symlinkSync(`${db}.real`, db);
      }],
    ];
    for (const [kind, make] of kinds) {
      const dir = `${world.base}/state-${kind}`;
      Deno.mkdirSync(dir, { mode: 0o700 });
      const db = `${dir}/history.db`;
      make(db);
      const env = { LISA_HISTORY_DB: db };
      const s = await spawn(world, ["--agent", "claude"]);
      const hooks = artifact(world, s, "hooks.jsonl");
      ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
      const args = ["session", "kill", "--session", s.session, "--json"];
      const killed = await world.lisaInProcess(args, { env });
      strictEqual(killed.code, 0, `${kind}: ${killed.stdout}${killed.stderr}`);
      const history = killed.json!.history as {
        recorded: boolean;
        keptFiles: string[];
        errorCode?: string;
      };
      strictEqual(history.recorded, false, `${kind}: ${killed.stdout}`);
      ok(typeof history.errorCode === "string", `${kind}: ${killed.stdout}`);
      ok(history.keptFiles.includes(hooks), `${kind}: ${killed.stdout}`);
      ok((readIf(hooks) ?? "").includes("SessionStart"), `${kind}: the hook file is gone`);
      ok(/history not recorded/.test(killed.stderr), `${kind}: ${killed.stderr}`);
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("prune while another writer holds history keeps the hook file for the next read", async () => {
  const world = await makeWorld();
  const env = { LISA_HISTORY_DB: `${world.base}/state/history.db` };
  try {
    // History exists before the session runs: only its hook file holds its turn.
    strictEqual((await world.lisaInProcess(["history", "list", "--json"], { env })).code, 0);
    const s = await spawn(world, ["--agent", "claude", "--mode", "exec", "--prompt", "one job"]);
    await waitDone(world, s);
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionEnd") || undefined, 30_000));
    // The done file comes just before the wrapper exits: prune takes the pane once it is dead.
    const target = ["display-message", "-p", "-t", `=${s.session}:`, "#{pane_dead}"];
    ok(
      await waitFor(
        async () => (await world.tmux(s.socketPath, target)).stdout.trim() === "1",
        30_000,
      ),
    );
    const holder = await holdHistory(world, env.LISA_HISTORY_DB);
    try {
      const args = ["session", "prune", "--older-than", "0s", "--json"];
      const pruned = await world.lisaInProcess(args, { env });
      strictEqual(pruned.code, 0, pruned.stdout + pruned.stderr);
      ok(/history not recorded/.test(pruned.stderr), pruned.stderr);
    } finally {
      await holder.release();
    }
    const shown = await world.lisaInProcess(["history", "show", s.session, "--json"], { env });
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    const turns = (shown.json as { turns: Turn[] }).turns;
    deepStrictEqual(turns.map((t) => [t.prompt, t.outcome]), [["one job", "completed"]]);
  } finally {
    await world.dispose();
  }
});

Deno.test("cleanup while another writer holds history keeps a gone session's hook file", async () => {
  const world = await makeWorld();
  const env = { LISA_HISTORY_DB: `${world.base}/state/history.db` };
  try {
    strictEqual((await world.lisaInProcess(["history", "list", "--json"], { env })).code, 0);
    const live = await spawn(world, ["--command", "sleep 120", "--session", "lisa-live"]);
    // A session gone from its (live) server, files hours old: cleanup's to remove.
    const base = `${world.runtimeDir}/.lisa-${live.projectHash}-session-lisa-gone`;
    const old = new Date(Date.now() - 3 * 3600_000);
    const write = (path: string, text: string) => {
      Deno.writeTextFileSync(path, text, { mode: 0o600 });
      Deno.utimeSync(path, old, old);
    };
    write(
      `${base}-meta.json`,
      JSON.stringify({ session: "lisa-gone", socketPath: live.socketPath, runId: "gone-run" }),
    );
    const line = (event: string, extra: Record<string, string>) =>
      JSON.stringify({
        at: old.toISOString(),
        runId: "gone-run",
        agent: "claude",
        event,
        ...extra,
      });
    write(
      `${base}-hooks.jsonl`,
      [line("UserPromptSubmit", { prompt: "lost?" }), line("Stop", { reply: "no" })].join("\n") +
        "\n",
    );
    const holder = await holdHistory(world, env.LISA_HISTORY_DB);
    try {
      const cleaned = await world.lisaInProcess(["cleanup", "--json"], { env });
      strictEqual(cleaned.code, 0, cleaned.stdout + cleaned.stderr);
      ok(/history not recorded/.test(cleaned.stderr), cleaned.stderr);
    } finally {
      await holder.release();
    }
    const shown = await world.lisaInProcess(["history", "show", "lisa-gone", "--json"], { env });
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    const turns = (shown.json as { turns: Turn[] }).turns;
    deepStrictEqual(turns.map((t) => [t.prompt, t.reply]), [["lost?", "no"]]);
  } finally {
    await world.dispose();
  }
});
