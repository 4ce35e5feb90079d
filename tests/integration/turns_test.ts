/**
 * `session send --wait` with the fake agents: the reply of the turn the send started (through
 * the agents' hooks, or the screen for a session without hooks). `permission` for a dialog,
 * `timeout`, and never the reply of a turn that was already running: turns_outcomes_test.ts;
 * turn records across the views: turns_records_test.ts.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { withLock } from "../../src/store/lock.ts";
import { artifact, paneText, readIf, spawn, waitPane } from "./lifecycle_helpers.ts";
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
