/**
 * Real-agent tier, claude: the pinned real `claude` CLI driven through lisa against the local
 * mock of the Anthropic API (see tier.ts). Skipped only when npm cannot install claude here.
 */
import { ok, strictEqual } from "node:assert/strict";
import {
  brief,
  hookRecords,
  kill,
  makeTier,
  meta,
  monitor,
  named,
  note,
  pollStatus,
  screen,
  SKIP,
  spawn,
  type Status,
  status,
} from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

Deno.test(named("claude -p with no credentials ends crashed"), opts, async () => {
  const tier = await makeTier({ credentials: false });
  try {
    const session = await spawn(tier, ["--agent", "claude", "--mode", "exec", "--prompt", "hi"]);
    const result = await monitor(tier, session, 90);
    strictEqual(result.json?.finalState, "crashed", result.stdout + result.stderr);
    strictEqual(result.code, 2);
    ok(result.json?.exitCode !== 0, `exit code ${result.json?.exitCode}`);
  } finally {
    await tier.dispose();
  }
});

Deno.test(
  named("claude -p against the mock API completes with exit 0 and fires hooks"),
  opts,
  async () => {
    const tier = await makeTier();
    try {
      const session = await spawn(tier, [
        "--agent",
        "claude",
        "--mode",
        "exec",
        "--prompt",
        "say hi",
      ]);
      const result = await monitor(tier, session, 90);
      strictEqual(
        result.json?.finalState,
        "completed",
        `${result.stdout} ${result.stderr}\n${await screen(tier, session)}`,
      );
      strictEqual(result.json?.exitCode, 0);
      strictEqual(result.code, 0);
      ok(tier.mock.requests.some((r) => r.path === "/v1/messages" && r.kind === "main"));
      const m = meta(tier, session);
      strictEqual(m?.hooks, true, "hooks injected at spawn");
      const events = hookRecords(tier, session).filter((r) => r.runId === m.runId)
        .map((r) => r.event);
      for (const event of ["SessionStart", "UserPromptSubmit", "Stop"]) {
        ok(events.includes(event), `hook ${event} recorded: ${events.join(",")}`);
      }
      const records = hookRecords(tier, session);
      strictEqual(records.find((r) => r.event === "Stop")?.agentSessionId, m.agentSessionId);
    } finally {
      await tier.dispose();
    }
  },
);

Deno.test(
  named(
    "interactive claude: idle, busy during a slow reply, done, a permission, then Esc at it",
  ),
  opts,
  async (t) => {
    const tier = await makeTier();
    let session = "";
    const waiting = (s: Status, what: string) =>
      s.sessionState === "waiting_input" && s.waitingFor === what;
    try {
      // Without the bypass flag, a tool call must ask for permission.
      session = await spawn(tier, [
        "--agent",
        "claude",
        "--mode",
        "interactive",
        "--no-dangerously-skip-permissions",
      ]);

      await t.step("idle at its prompt it is waiting_input", async () => {
        const r = await pollStatus(
          tier,
          session,
          (s) => s.sessionState === "waiting_input",
          60_000,
        );
        note(`${session}: ${r.seen.join(" → ")}`);
        ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
        const m = meta(tier, session);
        strictEqual(m?.hooks, true, "hooks injected at spawn");
        const hooks = await pollStatus(
          tier,
          session,
          (s) => (s.signals?.hooks as { active?: boolean } | null)?.active === true,
          15_000,
        );
        ok(hooks.ok, `hooks never active: ${hooks.seen.join(" → ")}`);
      });

      await t.step("during a 10 s reply it is in_progress", async () => {
        tier.mock.set({ delayMs: 10_000, toolCall: false });
        const sent = await tier.lisa([
          "session",
          "send",
          "--session",
          session,
          "--text",
          "say something slowly",
          "--enter",
          "--json",
        ]);
        strictEqual(sent.code, 0, sent.stdout + sent.stderr);
        const r = await pollStatus(
          tier,
          session,
          (s) => s.sessionState === "in_progress",
          8_000,
          500,
        );
        note(`${session}: ${r.seen.join(" → ")}`);
        ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
      });

      await t.step("after the reply it is waiting_input for input", async () => {
        const r = await pollStatus(tier, session, (s) => waiting(s, "input"), 45_000);
        note(`${session}: ${r.seen.join(" → ")}`);
        ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
        ok(
          tier.mock.requests.some((q) => q.kind === "main"),
          "claude called the mock",
        );
      });

      await t.step(
        "capture reads the turn from claude's transcript; --raw reads the pane",
        async () => {
          // Claude writes the transcript of the --session-id lisa gave it; the older Go lisa's
          // skill reads capture's messages from there.
          const r = await tier.lisa(["session", "capture", "--session", session, "--json"]);
          strictEqual(r.code, 0, r.stdout + r.stderr);
          strictEqual(r.json?.source, "transcript", r.stdout);
          strictEqual(r.json?.claudeSession, meta(tier, session)?.agentSessionId);
          const messages = r.json?.messages as { role: string; text: string }[];
          ok(
            messages.some((m) => m.role === "user" && m.text.includes("say something slowly")),
            r.stdout,
          );
          ok(
            messages.some((m) => m.role === "assistant" && m.text.includes("MOCK_REPLY_OK")),
            r.stdout,
          );
          const raw = await tier.lisa([
            "session",
            "capture",
            "--session",
            session,
            "--raw",
            "--json",
          ]);
          strictEqual(raw.json?.source, "pane", raw.stdout);
          ok(String(raw.json?.capture).includes("MOCK_REPLY_OK"), raw.stdout);
        },
      );

      await t.step("a tool call without bypass is waiting_input for permission", async () => {
        tier.mock.set({ delayMs: 0, toolCall: true, toolCommand: "touch lisa-tier-file.txt" });
        const sent = await tier.lisa([
          "session",
          "send",
          "--session",
          session,
          "--text",
          "create the file",
          "--enter",
          "--json",
        ]);
        strictEqual(sent.code, 0, sent.stdout + sent.stderr);
        const r = await pollStatus(tier, session, (s) => waiting(s, "permission"), 45_000);
        note(`${session}: ${r.seen.join(" → ")}`);
        ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
        ok(tier.mock.requests.some((q) => q.answer === "tool"), "the mock sent a tool call");
        const last: Status = r.last;
        ok(brief(last).length > 0);
      });

      await t.step("Esc at the dialog is waiting_input for input within 10 s", async () => {
        // The real dialog matches the screen rules (the title stays `✳ Claude Code`).
        const shown = await pollStatus(
          tier,
          session,
          (s) =>
            (s.signals?.screenRules as string[] | undefined)?.includes(
              "claude_permission_question",
            ) === true,
          5_000,
          500,
        );
        ok(shown.ok, `dialog rules never matched: ${JSON.stringify(shown.last.signals)}`);
        // Esc fires no claude hook, so the hooks still say "permission"; the dialog is gone from
        // the screen, which the classifier takes as a dismissed permission.
        const sent = await tier.lisa([
          "session",
          "send",
          "--session",
          session,
          "--keys",
          "Escape",
          "--json",
        ]);
        strictEqual(sent.code, 0, sent.stdout + sent.stderr);
        const r = await pollStatus(tier, session, (s) => waiting(s, "input"), 10_000, 500);
        note(`${session}: ${r.seen.join(" → ")}`);
        ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
        strictEqual(r.last.classificationReason, "hook:permission_dismissed", brief(r.last));
        strictEqual(r.last.signals?.hooksActive, true);
        ok(
          !(await screen(tier, session)).includes("Do you want to proceed?"),
          "the dialog is gone",
        );
        // The moment status said so, the turn's record says the turn is over too.
        const turns = await tier.lisa(["session", "turns", "--session", session, "--json"]);
        strictEqual(turns.code, 0, turns.stdout + turns.stderr);
        const last = (turns.json!.turns as { outcome: string }[]).at(-1);
        strictEqual(last?.outcome, "interrupted", turns.stdout);
        const after = await status(tier, session);
        strictEqual(after.sessionState, "waiting_input", brief(after));
      });
    } finally {
      if (session !== "") await kill(tier, session);
      await tier.dispose();
    }
  },
);
