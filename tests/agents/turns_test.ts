/**
 * Real-agent tier, turns: `send --wait` on real claude and real codex (against the mock API)
 * returns the mock's reply text, and history shows claude's turn with its prompt, the tool call
 * and the reply. Few and quick: one turn per agent.
 */
import { ok, strictEqual } from "node:assert/strict";
import {
  hookRecords,
  kill,
  makeTier,
  named,
  note,
  pollStatus,
  screen,
  SKIP,
  spawn,
} from "./tier.ts";
import { waitFor } from "../helpers/world.ts";
import { withLock } from "../../src/store/lock.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

type Wait = { outcome: string; reply: string; tools: { tool: string }[]; source: string };
type Shown = {
  turns: { prompt: string; outcome: string; reply: string; tools: { tool: string }[] }[];
};

Deno.test(
  named("claude: send --wait returns the mock's reply; history shows prompt, tool and reply"),
  opts,
  async () => {
    const tier = await makeTier();
    let session = "";
    try {
      session = await spawn(tier, ["--agent", "claude", "--mode", "interactive"]);
      const idle = await pollStatus(
        tier,
        session,
        (s) =>
          s.sessionState === "waiting_input" &&
          (s.signals?.hooks as { active?: boolean } | null)?.active === true,
        60_000,
      );
      ok(
        idle.ok,
        `never idle with hooks: ${idle.seen.join(" → ")}\n${await screen(tier, session)}`,
      );
      // The turn runs one Bash tool call (bypass is on by default), then answers with text; the
      // mock holds each reply a moment, so the turn is surely running while the lock is tried.
      tier.mock.set({ toolCall: true, toolCommand: "touch lisa-turn-file.txt", delayMs: 1500 });
      const waiting = tier.lisa([
        "session",
        "send",
        "--session",
        session,
        "--text",
        "create the file then say ok",
        "--wait",
        "--timeout-seconds",
        "90",
        "--json",
      ]);
      const started = await waitFor(
        () => hookRecords(tier, session).some((h) => h.event === "UserPromptSubmit") || undefined,
        60_000,
      );
      ok(started, `the turn never started:\n${await screen(tier, session)}`);
      // The waiter holds its own lock, never the hook log's: claude's hooks append at once.
      const hooksLog = [...Deno.readDirSync(tier.world.runtimeDir)]
        .find((e) => e.name.endsWith(`-session-${session}-hooks.jsonl`))!.name;
      await withLock(`${tier.world.runtimeDir}/${hooksLog}.lock`, { timeoutMs: 0 }, () => {});
      const r = await waiting;
      note(`claude send --wait: ${r.stdout.slice(0, 300)}`);
      strictEqual(r.code, 0, `${r.stdout}${r.stderr}\n${await screen(tier, session)}`);
      const wait = r.json as unknown as Wait;
      strictEqual(wait.outcome, "completed");
      strictEqual(wait.reply.trim(), "MOCK_REPLY_OK");
      strictEqual(wait.source, "hooks");
      ok(wait.tools.some((t) => t.tool === "Bash"), JSON.stringify(wait.tools));
      const shown = await tier.lisa(["history", "show", session, "--json"]);
      strictEqual(shown.code, 0, shown.stdout + shown.stderr);
      const turn = (shown.json as unknown as Shown).turns.at(-1)!;
      strictEqual(turn.prompt, "create the file then say ok");
      strictEqual(turn.outcome, "completed");
      strictEqual(turn.reply.trim(), "MOCK_REPLY_OK");
      ok(turn.tools.some((t) => t.tool === "Bash"), JSON.stringify(turn.tools));
    } finally {
      if (session !== "") await kill(tier, session);
      await tier.dispose();
    }
  },
);

Deno.test(named("codex: send --wait returns the mock's reply"), opts, async () => {
  const tier = await makeTier();
  let session = "";
  try {
    session = await spawn(tier, ["--agent", "codex", "--mode", "interactive"]);
    const idle = await pollStatus(tier, session, (s) => s.sessionState === "waiting_input", 60_000);
    ok(idle.ok, `never idle: ${idle.seen.join(" → ")}\n${await screen(tier, session)}`);
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
    note(`codex send --wait: ${r.stdout.slice(0, 300)}`);
    strictEqual(r.code, 0, `${r.stdout}${r.stderr}\n${await screen(tier, session)}`);
    const wait = r.json as unknown as Wait;
    strictEqual(wait.outcome, "completed");
    strictEqual(wait.reply.trim(), "MOCK_REPLY_OK");
    const shown = await tier.lisa(["history", "show", session, "--json"]);
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    const turn = (shown.json as unknown as Shown).turns.at(-1)!;
    strictEqual(turn.prompt, "say ok");
    strictEqual(turn.reply.trim(), "MOCK_REPLY_OK");
  } finally {
    if (session !== "") await kill(tier, session);
    await tier.dispose();
  }
});
