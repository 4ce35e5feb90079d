/**
 * Real-agent tier, codex: the pinned real `codex` CLI driven through lisa against the local mock
 * of the OpenAI Responses API (see tier.ts). Skipped only when npm cannot install codex here.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { waitFor } from "../helpers/world.ts";
import {
  codexPids,
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
} from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

Deno.test(named("codex exec against the mock API completes with exit 0"), opts, async () => {
  const tier = await makeTier();
  try {
    const session = await spawn(tier, ["--agent", "codex", "--mode", "exec", "--prompt", "say hi"]);
    const result = await monitor(tier, session, 90);
    strictEqual(
      result.json?.finalState,
      "completed",
      `${result.stdout} ${result.stderr}\n${await screen(tier, session)}`,
    );
    strictEqual(result.json?.exitCode, 0);
    strictEqual(result.code, 0);
    ok(tier.mock.requests.some((r) => r.path === "/v1/responses" && r.kind === "main"));
    const m = meta(tier, session);
    strictEqual(m?.hooks, true, "hooks injected at spawn");
    // lisa's notify recorded the turn and chained to the user's own notify.
    // codex does not wait for its notify command, so the record may land after it exits.
    const turns = await waitFor(
      () =>
        hookRecords(tier, session).some((r) =>
          r.runId === m.runId && r.event === "agent-turn-complete"
        ),
      10_000,
    );
    ok(turns, "agent-turn-complete recorded");
    const chained = await waitFor(() => {
      try {
        return Deno.readTextFileSync(tier.userNotifyLog).includes("agent-turn-complete");
      } catch {
        return false;
      }
    }, 10_000);
    ok(chained, "the user's notify still fired");
  } finally {
    await tier.dispose();
  }
});

Deno.test(
  named(
    "interactive codex: an approval is waiting_input for permission, Esc makes it wait for input, kill leaves no codex",
  ),
  opts,
  async (t) => {
    const tier = await makeTier({ toolCall: true });
    tier.mock.set({ toolCommand: "touch lisa-tier-codex.txt" });
    let session = "";
    try {
      session = await spawn(tier, [
        "--agent",
        "codex",
        "--mode",
        "interactive",
        "--prompt",
        "create the file",
      ]);

      await t.step("an approval request is waiting_input/permission", async () => {
        const r = await pollStatus(
          tier,
          session,
          (s) => s.sessionState === "waiting_input" && s.waitingFor === "permission",
          60_000,
        );
        note(`${session}: ${r.seen.join(" → ")}`);
        ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
        ok(tier.mock.requests.some((q) => q.answer === "tool"), "the mock sent a tool call");
      });

      await t.step("Esc at the approval is waiting_input for input", async () => {
        // The approval shows up within a second of spawn, so the answer after Esc is
        // just_started until the session's 8 s grace window ends; hence the bound of 15 s.
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
        const r = await pollStatus(
          tier,
          session,
          (s) => s.sessionState === "waiting_input" && s.waitingFor === "input",
          15_000,
          500,
        );
        note(`${session}: ${r.seen.join(" → ")}`);
        ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
      });

      await t.step("kill leaves no codex process behind", async () => {
        ok(codexPids(tier.codexHome).length > 0, "codex runs before the kill");
        const killed = await kill(tier, session);
        strictEqual(killed.code, 0, killed.stdout + killed.stderr);
        session = "";
        const gone = await waitFor(() => codexPids(tier.codexHome).length === 0, 15_000, 250);
        deepStrictEqual(gone ? [] : codexPids(tier.codexHome), []);
      });
    } finally {
      if (session !== "") await kill(tier, session);
      await tier.dispose();
    }
  },
);
