/**
 * Turn truth with the fake agents emitting claude 2.1.197's payload shapes (issue 23): a turn
 * whose Stop lists a background task leaves the session working until the agent's own follow-up
 * turn; `send --wait` returns at the turn's own Stop and names the task; the follow-up is a turn
 * of its own (`trigger: "background"`); every turn carries its tokens, summed per session.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { status, statusUntil } from "./status_helpers.ts";
import { artifact, paneText, readIf, spawn, type Spawned } from "./lifecycle_helpers.ts";

type Usage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};
type Turn = { trigger: string; outcome: string; prompt: string; reply: string; usage: Usage };

/** Tokens the fake agents write for each turn (FAKE_USAGE "in,out,cacheRead,cacheWrite"). */
const FAKE_USAGE = "12,5,300,40";
const PER_TURN: Usage = {
  inputTokens: 12,
  outputTokens: 5,
  cacheReadTokens: 300,
  cacheWriteTokens: 40,
};

/** Waits until the session's hook log holds `event` of its run. */
async function hookSeen(world: World, s: Spawned, event: string): Promise<void> {
  const seen = await waitFor(
    () =>
      (readIf(artifact(world, s, "hooks.jsonl")) ?? "").includes(`"event":"${event}"`) ||
      undefined,
    30_000,
  );
  ok(seen, `no ${event}: ${await paneText(world, s)}`);
}

Deno.test(
  "a Stop listing a background task keeps the session working until the agent's own turn",
  async () => {
    const world = await makeWorld();
    try {
      const s = await spawn(world, ["--agent", "claude"], {
        FAKE_BACKGROUND: "4",
        FAKE_USAGE,
        FAKE_REPLY: "started it",
      });
      await hookSeen(world, s, "SessionStart");
      const sent = await world.lisaInProcess([
        "session",
        "send",
        "--session",
        s.session,
        "--text",
        "start the background job",
        "--wait",
        "--json",
      ]);
      strictEqual(sent.code, 0, sent.stdout + sent.stderr);
      const wait = sent.json as Record<string, unknown>;
      // The turn's own Stop: its reply, and the task still running.
      strictEqual(wait.outcome, "completed");
      strictEqual(wait.reply, "started it");
      deepStrictEqual(wait.backgroundTasks, [{
        id: "bgfake1",
        type: "shell",
        status: "running",
        description: "fake background job",
      }]);
      deepStrictEqual(wait.usage, PER_TURN);
      // At its idle prompt, yet working: the background job runs on.
      const busy = await status(world, s.session);
      strictEqual(busy.sessionState, "in_progress", JSON.stringify(busy));
      strictEqual(busy.classificationReason, "hook:background_tasks");
      strictEqual((busy.signals.backgroundTasks as unknown[]).length, 1);
      // watch and monitor wait for the agent's own turn, which reports the job: each returns
      // only once it has ended.
      const followedUp = () =>
        (readIf(artifact(world, s, "hooks.jsonl")) ?? "")
          .includes("background job done");
      const [watched, monitored] = await Promise.all([
        world.lisa([
          "session",
          "watch",
          "--session",
          s.session,
          "--until",
          "waiting_input",
          "--timeout-seconds",
          "60",
          "--json",
        ]).then((r) => ({ ...r, after: followedUp() })),
        world.lisa([
          "session",
          "monitor",
          "--session",
          s.session,
          "--poll-interval",
          "1",
          "--timeout-seconds",
          "60",
          "--json",
        ]).then((r) => ({ ...r, after: followedUp() })),
      ]);
      strictEqual(watched.code, 0, watched.stdout + watched.stderr);
      ok(watched.after, `watch returned before the follow-up turn: ${watched.stdout}`);
      strictEqual(monitored.json?.finalState, "waiting_input", monitored.stdout);
      ok(monitored.after, `monitor returned before the follow-up turn: ${monitored.stdout}`);
      const after = await status(world, s.session);
      strictEqual(after.sessionState, "waiting_input");
      deepStrictEqual(after.signals.backgroundTasks, []);
      // The follow-up is a turn of its own, with its reply and its tokens.
      const turns = await world.lisaInProcess([
        "session",
        "turns",
        "--session",
        s.session,
        "--json",
      ]);
      strictEqual(turns.code, 0, turns.stdout + turns.stderr);
      const list = turns.json?.turns as Turn[];
      deepStrictEqual(list.map((t) => [t.trigger, t.outcome]), [
        ["prompt", "completed"],
        ["background", "completed"],
      ]);
      strictEqual(list[1].reply, "background job done");
      ok(list[1].prompt.startsWith("<task-notification>"), list[1].prompt);
      deepStrictEqual(list[1].usage, PER_TURN);
      deepStrictEqual(turns.json?.usage, {
        inputTokens: 24,
        outputTokens: 10,
        cacheReadTokens: 600,
        cacheWriteTokens: 80,
      });
    } finally {
      await world.dispose();
    }
  },
);

Deno.test("every turn carries its tokens in history show and history list, codex too", async () => {
  const world = await makeWorld({ env: { CODEX_HOME: "" } });
  try {
    world.env.CODEX_HOME = `${world.home}/.codex`;
    const claude = await spawn(world, ["--agent", "claude"], { FAKE_USAGE });
    const codex = await spawn(world, ["--agent", "codex"], { FAKE_USAGE });
    await hookSeen(world, claude, "SessionStart");
    for (const s of [claude, codex]) {
      for (const text of ["first", "second"]) {
        const r = await world.lisaInProcess([
          "session",
          "send",
          "--session",
          s.session,
          "--text",
          text,
          "--wait",
          "--json",
        ]);
        strictEqual(r.code, 0, r.stdout + r.stderr);
        deepStrictEqual(r.json?.usage, PER_TURN, `${s.agent}: ${r.stdout}`);
      }
    }
    for (const s of [claude, codex]) {
      const shown = await world.lisaInProcess(["history", "show", s.session, "--json"]);
      strictEqual(shown.code, 0, shown.stdout + shown.stderr);
      const turns = shown.json?.turns as Turn[];
      deepStrictEqual(turns.map((t) => t.usage), [PER_TURN, PER_TURN], `${s.agent}`);
      deepStrictEqual(shown.json?.usage, {
        inputTokens: 24,
        outputTokens: 10,
        cacheReadTokens: 600,
        cacheWriteTokens: 80,
      });
      const text = await world.lisaInProcess(["history", "show", s.session]);
      ok(text.stdout.includes("tokens: in 12, out 5, cache read 300, cache write 40"), text.stdout);
    }
    const listed = await world.lisaInProcess(["history", "list", "--json"]);
    const sessions = listed.json?.sessions as { session: string; usage: Usage | null }[];
    for (const s of [claude, codex]) {
      deepStrictEqual(sessions.find((x) => x.session === s.session)?.usage?.inputTokens, 24);
    }
    // list --wide: a TOKENS column with each session's turns so far (24 + 10 + 600 + 80).
    const wide = await world.lisaInProcess(["session", "list", "--wide"]);
    strictEqual(wide.code, 0, wide.stdout + wide.stderr);
    const header = wide.stdout.split("\n")[0];
    ok(header.includes("TOKENS"), wide.stdout);
    const row = wide.stdout.split("\n").find((l) => l.includes(claude.session)) ?? "";
    strictEqual(row.slice(header.indexOf("TOKENS")).split(/\s+/)[0], "714", wide.stdout);
    const wideJson = await world.lisaInProcess(["session", "list", "--wide", "--json"]);
    const rows = wideJson.json?.items as { session: string; usage: Usage | null }[];
    strictEqual(rows.find((x) => x.session === codex.session)?.usage?.outputTokens, 10);
    const narrow = await world.lisaInProcess(["session", "list", "--json"]);
    ok(!("usage" in (narrow.json?.items as Record<string, unknown>[])[0]), narrow.stdout);
    // A session whose agent wrote no log: its turns' tokens are unknown, never an error.
    const bare = await spawn(world, ["--agent", "claude"]);
    await hookSeen(world, bare, "SessionStart");
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      bare.session,
      "--text",
      "hello",
      "--wait",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(r.json?.usage, null);
    const table = await world.lisaInProcess(["history", "list"]);
    ok(/TOKENS/.test(table.stdout), table.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("a compaction is work, never a stall; an MCP elicitation waits for input", async () => {
  const world = await makeWorld();
  // A stall after 2 s without progress: the compaction (no CPU, no child, no output for 6 s)
  // must not read as one.
  const env = { LISA_STALL_SECONDS: "2" };
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_COMPACT_SECONDS: "6", ...env });
    await hookSeen(world, s, "SessionStart");
    const sent = await world.lisaInProcess(
      ["session", "send", "--session", s.session, "--text", "/compact", "--enter", "--json"],
      { env },
    );
    strictEqual(sent.code, 0, sent.stdout + sent.stderr);
    await hookSeen(world, s, "PreCompact");
    const compacting = await statusUntil(
      world,
      s.session,
      (r) => (r.signals.progressQuietSeconds as number) >= 3 || r.sessionState !== "in_progress",
    );
    strictEqual(compacting.sessionState, "in_progress", JSON.stringify(compacting));
    strictEqual(compacting.classificationReason, "hook:compacting");
    await hookSeen(world, s, "PostCompact");
    const after = await statusUntil(world, s.session, (r) => r.sessionState !== "in_progress");
    strictEqual(after.sessionState, "waiting_input", JSON.stringify(after));
    // The elicitation: the turn waits for the person's input, not for an approval.
    const asked = await world.lisaInProcess(
      ["session", "send", "--session", s.session, "--text", "/elicit a token", "--enter", "--json"],
      { env },
    );
    strictEqual(asked.code, 0, asked.stdout + asked.stderr);
    await hookSeen(world, s, "Elicitation");
    const waiting = await statusUntil(world, s.session, (r) => r.sessionState === "waiting_input");
    strictEqual(waiting.waitingFor, "input");
    strictEqual(waiting.classificationReason, "hook:elicitation");
    const answered = await world.lisaInProcess(
      ["session", "send", "--session", s.session, "--text", "tok-123", "--enter", "--json"],
      { env },
    );
    strictEqual(answered.code, 0, answered.stdout + answered.stderr);
    await hookSeen(world, s, "ElicitationResult");
    // Answered: the turn ends (its Stop), and the session waits for its next prompt, no longer
    // for the elicitation's input. (The answer is no prompt: no UserPromptSubmit follows it, so
    // status calls the end agent_quiet rather than hook:turn_done.)
    await hookSeen(world, s, "Stop");
    const done = await statusUntil(
      world,
      s.session,
      (r) => r.sessionState === "waiting_input" && r.classificationReason !== "hook:elicitation",
      10_000,
    );
    strictEqual(done.sessionState, "waiting_input", JSON.stringify(done));
    ok(done.classificationReason !== "hook:elicitation", JSON.stringify(done));
    const turns = await world.lisaInProcess(["session", "turns", "--session", s.session, "--json"]);
    const list = turns.json?.turns as { prompt: string; outcome: string }[];
    deepStrictEqual(
      list.filter((t) => t.prompt?.startsWith("/elicit")).map((t) => t.outcome),
      ["completed"],
      turns.stdout,
    );
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait counts a claude turn's last message written to the transcript after its Stop", async () => {
  const world = await makeWorld();
  try {
    // claude at times runs its Stop hook before the transcript holds the turn's last message:
    // send --wait read the tokens at the Stop and missed it (null here, one request of two live).
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_USAGE,
      FAKE_TRANSCRIPT_LATE: "0.3",
    });
    await hookSeen(world, s, "SessionStart");
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "late transcript",
      "--wait",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual(r.json?.usage, PER_TURN, r.stdout);
  } finally {
    await world.dispose();
  }
});
