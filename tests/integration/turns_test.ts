/**
 * `session send --wait` with the fake agents: the reply of the turn the send started (through
 * the agents' hooks, or the screen for a session without hooks). `permission` for a dialog,
 * `timeout`, and never the reply of a turn that was already running: turns_outcomes_test.ts.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { withLock } from "../../src/store/lock.ts";
import { status, statusUntil } from "./status_helpers.ts";
import { artifact, paneText, readIf, spawn, type Spawned, waitPane } from "./lifecycle_helpers.ts";
import { hooksReady, sendWait, type Wait } from "./turns_helpers.ts";

Deno.test("send --wait returns the reply of a hooks-driven claude turn, exit 0", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_REPLY_ECHO: "1" });
    await hooksReady(world, s);
    const r = await sendWait(world, s, "hello there");
    strictEqual(r.code, 0, r.raw);
    strictEqual(r.json.outcome, "completed");
    strictEqual(r.json.reply, "reply to: hello there");
    strictEqual(r.json.source, "hooks");
    ok(/^[0-9a-f]{16}$/.test(r.json.turnId ?? ""), `turnId ${r.json.turnId}`);
    deepStrictEqual(r.json.tools, []);
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait returns codex's reply from its notify", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "codex"], { FAKE_REPLY_ECHO: "1" });
    await waitPane(world, s, "> ");
    const r = await sendWait(world, s, "hi codex");
    strictEqual(r.code, 0, r.raw);
    strictEqual(r.json.outcome, "completed");
    strictEqual(r.json.reply, "reply to: hi codex");
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait without hooks returns the text that appeared on screen", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, [
      "--command",
      `while IFS= read -r l; do sleep 1; echo "answer: $l"; done`,
    ]);
    const r = await sendWait(world, s, "ping", ["--timeout-seconds", "60"]);
    strictEqual(r.code, 0, r.raw);
    strictEqual(r.json.outcome, "completed");
    strictEqual(r.json.source, "screen");
    ok(r.json.reply.includes("answer: ping"), r.json.reply);
  } finally {
    await world.dispose();
  }
});

Deno.test("two send --wait of the same text at once never both get the same turn", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_REPLY_ECHO: "1",
      FAKE_TURN_SECONDS: "2",
    });
    await hooksReady(world, s);
    const args = ["session", "send", "--session", s.session, "--text", "same", "--wait", "--json"];
    const [a, b] = await Promise.all([world.lisa(args), world.lisa(args)]);
    const done = [a, b].filter((r) => r.code === 0);
    const refused = [a, b].filter((r) => r.code !== 0);
    for (const r of refused) {
      strictEqual(r.json?.ok, false, r.stdout + r.stderr);
      strictEqual(r.json?.errorCode, "turn_busy", r.stdout);
    }
    ok(done.length >= 1, a.stdout + b.stdout);
    if (done.length === 2) {
      ok(a.json?.turnId !== b.json?.turnId, `both got turn ${a.json?.turnId}`);
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait never holds the hooks log's lock: hooks append freely while it waits", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_TURN_SECONDS: "120" });
    await hooksReady(world, s);
    const hooks = artifact(world, s, "hooks.jsonl");
    const args = ["session", "send", "--session", s.session, "--wait", "--json"];
    const waiting = world.lisa([...args, "--text", "long turn", "--timeout-seconds", "300"]);
    try {
      // The turn started and runs for minutes: the waiter holds its lock until it ends.
      ok(
        await waitFor(() => (readIf(hooks) ?? "").includes("long turn") || undefined, 30_000),
        await paneText(world, s),
      );
      // `lisa hook` appends under the log's lock: it must be free (a 0 ms try, no waiting).
      await withLock(`${hooks}.lock`, { timeoutMs: 0 }, () => {});
      // The waiter's own lock still keeps a second waiter off the session.
      const second = await world.lisaInProcess([...args, "--text", "another"]);
      strictEqual(second.code, 1, second.stdout + second.stderr);
      strictEqual(second.json?.errorCode, "turn_busy", second.stdout);
    } finally {
      await world.lisaInProcess(["session", "kill", "--session", s.session]);
      const w = await waiting;
      strictEqual(w.json?.outcome, "interrupted", w.stdout + w.stderr);
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait to codex never takes the running turn of a prompt with the same long start", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "codex"], {
      FAKE_REPLY_ECHO: "1",
      FAKE_TURN_SECONDS: "3",
    });
    await waitPane(world, s, "> ");
    // Orchestrators send templated prompts: the same long preamble, a different task at the end.
    const preamble = "You are working on the repository; follow the conventions, run the tests, " +
      "and report what you changed in one short paragraph. Task:";
    const first = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      `${preamble} one`,
      "--enter",
    ]);
    strictEqual(first.code, 0, first.stderr);
    await waitPane(world, s, "got: ");
    const r = await sendWait(world, s, `${preamble} two`);
    strictEqual(r.code, 0, r.raw);
    strictEqual(r.json.outcome, "completed");
    strictEqual(r.json.reply, `reply to: ${preamble} two`);
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait to a command that exits without printing ends with the session", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "read -r l; exit 0"]);
    const r = await sendWait(world, s, "quiet", ["--timeout-seconds", "30"]);
    strictEqual(r.json.source, "screen");
    ok(r.json.outcome !== "timeout", `waited out the timeout: ${r.raw}`);
    strictEqual(r.json.reply, "");
  } finally {
    await world.dispose();
  }
});

Deno.test("send --wait says when codex's reply was cut to fit its hook line", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "codex"], { FAKE_REPLY_ECHO: "1" });
    await waitPane(world, s, "> ");
    const text = "long ".repeat(600).trim();
    const r = await sendWait(world, s, text, ["--timeout-seconds", "60"]);
    strictEqual(r.code, 0, r.raw);
    strictEqual(r.json.outcome, "completed");
    const full = `reply to: ${text}`;
    const json = r.json as Wait & { replyCut?: boolean };
    if (json.reply !== full) {
      ok(full.startsWith(json.reply), "the reply is a prefix of the agent's");
      strictEqual(json.replyCut, true, "a cut reply is flagged");
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("send --keys 1 --wait after a permission outcome follows the turn the keys resumed", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_PERMISSION: "1",
      FAKE_REPLY_ECHO: "1",
      // The dialog (and its hook) stay a moment after the answer: not a new permission.
      FAKE_ANSWER_SECONDS: "1",
    });
    await hooksReady(world, s);
    const asked = await sendWait(world, s, "make a file");
    strictEqual(asked.json.outcome, "permission", asked.raw);
    // The answer types no prompt: the turn it resumes ends with the tool run and the reply.
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--keys",
      "1",
      "--wait",
      "--timeout-seconds",
      "60",
      "--json",
    ]);
    const json = r.json as unknown as Wait;
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(json.outcome, "completed", r.stdout);
    strictEqual(json.reply, "reply to: make a file");
    strictEqual(json.turnId, asked.json.turnId, "the same turn, under the same id");
    deepStrictEqual(json.tools.map((t) => t.tool), ["Bash"]);
    const turns = await world.lisaInProcess(["session", "turns", "--session", s.session, "--json"]);
    const list = (turns.json as { turns: { turnId: string; outcome: string }[] }).turns;
    deepStrictEqual(list.map((t) => [t.turnId, t.outcome]), [[json.turnId, "completed"]]);
  } finally {
    await world.dispose();
  }
});

type Listed = { turnId: string; outcome: string; reply: string | null; recovered: boolean };

/** `session turns --json` and `history show --json` of `s`: the turns each lists. */
async function bothViews(world: World, s: Spawned): Promise<Listed[][]> {
  const turns = await world.lisaInProcess(["session", "turns", "--session", s.session, "--json"]);
  const shown = await world.lisaInProcess(["history", "show", s.session, "--json"]);
  strictEqual(turns.code, 0, turns.stdout + turns.stderr);
  strictEqual(shown.code, 0, shown.stdout + shown.stderr);
  return [(turns.json as { turns: Listed[] }).turns, (shown.json as { turns: Listed[] }).turns];
}

Deno.test("a turn that ends without Stop is over in session turns and history once status says waiting_input", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_SILENT_END: "1",
      FAKE_CLAUDE_TITLE: "1",
      FAKE_REPLY_ECHO: "1",
    });
    await hooksReady(world, s);
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hi there",
      "--enter",
    ]);
    strictEqual(sent.code, 0, sent.stderr);
    await waitPane(world, s, "reply to: hi there");
    const r = await statusUntil(world, s.session, (x) => x.sessionState === "waiting_input");
    strictEqual(r.waitingFor, "input", JSON.stringify(r));
    // The same moment: no turn is still running in either view, and they say the same.
    for (const turns of await bothViews(world, s)) {
      strictEqual(turns.length, 1, JSON.stringify(turns));
      strictEqual(turns[0].outcome, "completed", JSON.stringify(turns));
      ok(turns[0].reply?.includes("reply to: hi there"), JSON.stringify(turns));
      strictEqual(turns[0].recovered, true);
    }
    // And status keeps saying so.
    const again = await status(world, s.session);
    strictEqual(again.sessionState, "waiting_input", JSON.stringify(again));
  } finally {
    await world.dispose();
  }
});

Deno.test("a turn interrupted without a hook is interrupted in send --wait, status, session turns and history", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], {
      FAKE_SILENT_END: "interrupt",
      FAKE_CLAUDE_TITLE: "1",
    });
    await hooksReady(world, s);
    const r = await sendWait(world, s, "cut me short", ["--timeout-seconds", "60"]);
    strictEqual(r.json.outcome, "interrupted", r.raw);
    strictEqual(r.json.reply, "");
    const now = await status(world, s.session);
    strictEqual(now.sessionState, "waiting_input", JSON.stringify(now));
    for (const turns of await bothViews(world, s)) {
      deepStrictEqual(
        turns.map((t) => [t.turnId, t.outcome, t.reply]),
        [[r.json.turnId, "interrupted", null]],
      );
    }
  } finally {
    await world.dispose();
  }
});
