/**
 * Real-agent tier, turn truth (issue 23), against the mock API: real claude 2.1.197 running a
 * Bash command in the background stays `in_progress` after its turn's Stop until the follow-up
 * turn it takes itself; a send's receipt comes from claude's prompt hook; the tokens of real
 * claude and real codex turns are the ones the mock reported.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  brief,
  hookRecords,
  kill,
  makeTier,
  named,
  note,
  pollStatus,
  screen,
  SKIP,
  spawn,
  status,
  type Tier,
} from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

/** What the mock reports for every main reply of these tests (distinct counts per field). */
const USAGE = { inputTokens: 11, outputTokens: 7, cacheReadTokens: 300, cacheWriteTokens: 40 };

type Usage = typeof USAGE;
const times = (u: Usage, n: number): Usage => ({
  inputTokens: u.inputTokens * n,
  outputTokens: u.outputTokens * n,
  cacheReadTokens: u.cacheReadTokens * n,
  cacheWriteTokens: u.cacheWriteTokens * n,
});

async function idleWithHooks(tier: Tier, session: string): Promise<void> {
  const idle = await pollStatus(
    tier,
    session,
    (s) =>
      s.sessionState === "waiting_input" &&
      (s.signals?.hooks as { active?: boolean } | null)?.active === true,
    60_000,
  );
  ok(idle.ok, `never idle with hooks: ${idle.seen.join(" → ")}\n${await screen(tier, session)}`);
}

Deno.test(
  named("claude: a background Bash keeps it in_progress until its own follow-up turn"),
  opts,
  async () => {
    const tier = await makeTier();
    let session = "";
    try {
      session = await spawn(tier, ["--agent", "claude", "--mode", "interactive"]);
      await idleWithHooks(tier, session);
      tier.mock.set({
        usage: USAGE,
        toolCall: true,
        toolCalls: [{
          name: "Bash",
          input: {
            command: "sleep 6; echo bg-done > bg.txt",
            description: "background sleep",
            run_in_background: true,
          },
        }],
      });
      const r = await tier.lisa([
        "session",
        "send",
        "--session",
        session,
        "--text",
        "start the background job",
        "--wait",
        "--timeout-seconds",
        "90",
        "--json",
      ]);
      note(`claude background send --wait: ${r.stdout.slice(0, 400)}`);
      strictEqual(r.code, 0, `${r.stdout}${r.stderr}\n${await screen(tier, session)}`);
      // Later requests (the follow-up turn) answer with text.
      tier.mock.set({ toolCall: false });
      const wait = r.json as Record<string, unknown>;
      strictEqual(wait.outcome, "completed");
      const tasks = wait.backgroundTasks as Record<string, unknown>[];
      strictEqual(tasks.length, 1, JSON.stringify(wait));
      strictEqual(tasks[0].type, "shell");
      strictEqual(tasks[0].status, "running");
      strictEqual(tasks[0].description, "background sleep");
      // One tool call, then text: two main requests.
      deepStrictEqual(wait.usage, times(USAGE, 2));
      strictEqual((wait.sent as Record<string, unknown>).confirmedBy, "hook");
      // At its idle prompt, working: until the follow-up turn the job's end brings.
      const during = await status(tier, session);
      strictEqual(during.sessionState, "in_progress", brief(during));
      strictEqual(during.classificationReason, "hook:background_tasks", brief(during));
      const done = await pollStatus(
        tier,
        session,
        (s) => s.sessionState === "waiting_input",
        90_000,
        500,
      );
      ok(done.ok, `${done.seen.join(" → ")}\n${await screen(tier, session)}`);
      ok(
        done.seen.every((b) => !b.startsWith("waiting_input")) ||
          done.seen.findIndex((b) => b.startsWith("waiting_input")) === done.seen.length - 1,
        `waiting_input before the follow-up: ${done.seen.join(" → ")}`,
      );
      const starts = hookRecords(tier, session).filter((h) => h.event === "UserPromptSubmit");
      strictEqual(starts.length, 2, "the follow-up turn ran before waiting_input");
      ok(Deno.statSync(`${tier.projectRoot}/bg.txt`).isFile, "the background job finished");
      const turns = await tier.lisa(["session", "turns", "--session", session, "--json"]);
      const list = turns.json?.turns as { trigger: string; prompt: string; reply: string }[];
      deepStrictEqual(list.map((t) => t.trigger), ["prompt", "background"], turns.stdout);
      ok(list[1].prompt.startsWith("<task-notification>"), list[1].prompt);
      strictEqual(list[1].reply.trim(), "MOCK_REPLY_OK");
    } finally {
      if (session !== "") await kill(tier, session);
      await tier.dispose();
    }
  },
);

Deno.test(
  named("claude: a send's receipt is its prompt hook, with claude's prompt id"),
  opts,
  async () => {
    const tier = await makeTier();
    let session = "";
    try {
      session = await spawn(tier, ["--agent", "claude", "--mode", "interactive"]);
      await idleWithHooks(tier, session);
      const started = Date.now();
      const r = await tier.lisa([
        "session",
        "send",
        "--session",
        session,
        "--text",
        "say ok",
        "--enter",
        "--json",
      ]);
      const took = Date.now() - started;
      note(`claude confirmed send: ${took} ms: ${r.stdout.slice(0, 300)}`);
      strictEqual(r.code, 0, `${r.stdout}${r.stderr}\n${await screen(tier, session)}`);
      strictEqual(r.json?.confirmed, true);
      strictEqual(r.json?.confirmedBy, "hook");
      const prompt = hookRecords(tier, session).find((h) => h.event === "UserPromptSubmit");
      strictEqual(r.json?.promptId, prompt?.promptId);
      ok(/^[0-9a-f-]{36}$/.test(String(r.json?.promptId)), String(r.json?.promptId));
    } finally {
      if (session !== "") await kill(tier, session);
      await tier.dispose();
    }
  },
);

Deno.test(
  named("claude and codex: each turn's tokens are the ones the API reported"),
  opts,
  async () => {
    const tier = await makeTier({});
    const sessions: string[] = [];
    try {
      tier.mock.set({ usage: USAGE });
      for (const agent of ["claude", "codex"]) {
        const session = await spawn(tier, ["--agent", agent, "--mode", "interactive"]);
        sessions.push(session);
        const idle = await pollStatus(
          tier,
          session,
          (s) => s.sessionState === "waiting_input",
          60_000,
        );
        ok(idle.ok, `${agent} never idle: ${idle.seen.join(" → ")}`);
        const r = await tier.lisa([
          "session",
          "send",
          "--session",
          session,
          "--text",
          "say ok",
          "--wait",
          "--timeout-seconds",
          "90",
          "--json",
        ]);
        note(`${agent} usage: ${JSON.stringify(r.json?.usage)}`);
        strictEqual(r.code, 0, `${r.stdout}${r.stderr}\n${await screen(tier, session)}`);
        // codex reports no cache writes: its log has none.
        const expected = agent === "codex" ? { ...USAGE, cacheWriteTokens: 0 } : USAGE;
        deepStrictEqual(r.json?.usage, expected, agent);
        // codex has no prompt hook: its receipt is its screen (or its turn's end, when quicker).
        strictEqual((r.json?.sent as Record<string, unknown>).confirmed, true, r.stdout);
        const shown = await tier.lisa(["history", "show", session, "--json"]);
        const turns = shown.json?.turns as { usage: Usage | null }[];
        deepStrictEqual(turns.at(-1)?.usage, expected, `${agent} history`);
        deepStrictEqual(shown.json?.usage, expected, `${agent} history sum`);
      }
    } finally {
      for (const s of sessions) {
        await kill(tier, s);
      }
      await tier.dispose();
    }
  },
);
