/**
 * Real-agent tier, issue 13: the real claude and codex against the mock answering 429 and 401
 * read `waiting_input` for `quota` / `auth`; real codex exec against an unreachable API reads
 * `stuck` within LISA_STALL_SECONDS (set low) with evidence; a real claude reply that streams
 * slowly for longer than that threshold stays `in_progress`.
 */
import { ok, strictEqual } from "node:assert/strict";
import {
  kill,
  makeTier,
  named,
  note,
  pollStatus,
  screen,
  SKIP,
  spawn,
  type Status,
  type Tier,
} from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

async function send(tier: Tier, session: string, text: string): Promise<void> {
  const r = await tier.lisa(["session", "send", "--session", session, "--text", text, "--enter"]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
}

const waitingFor = (what: string) => (s: Status) =>
  s.sessionState === "waiting_input" && s.waitingFor === what;

for (const agent of ["claude", "codex"] as const) {
  Deno.test(
    named(`real ${agent} against a mock answering 429 then 401 waits for quota, then auth`),
    opts,
    async (t) => {
      const tier = await makeTier();
      let session = "";
      try {
        session = await spawn(tier, ["--agent", agent, "--mode", "interactive"]);
        const ready = await pollStatus(tier, session, waitingFor("input"), 60_000);
        ok(ready.ok, `never idle: ${ready.seen.join(" → ")}\n${await screen(tier, session)}`);

        await t.step("429: waiting_input for quota", async () => {
          tier.mock.set({ fail: "rate_limit" });
          await send(tier, session, "say hello");
          const r = await pollStatus(tier, session, waitingFor("quota"), 60_000);
          note(`${agent} 429: ${r.seen.join(" → ")}`);
          ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
          ok(String(r.last.classificationReason).includes("quota"), r.last.classificationReason);
        });

        await t.step("401 after it: waiting_input for auth (the old 429 is stale)", async () => {
          tier.mock.set({ fail: "auth" });
          await send(tier, session, "say hello again");
          const r = await pollStatus(tier, session, waitingFor("auth"), 60_000);
          note(`${agent} 401: ${r.seen.join(" → ")}`);
          ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
        });
      } finally {
        if (session) await kill(tier, session);
        await tier.dispose();
      }
    },
  );
}

Deno.test(
  named("real codex exec against an unreachable API is stuck within LISA_STALL_SECONDS"),
  opts,
  async () => {
    const tier = await makeTier();
    let session = "";
    try {
      // Nothing listens on port 9 (discard); codex retries with its default retry counts.
      const cfg = `${tier.codexHome}/config.toml`;
      Deno.writeTextFileSync(
        cfg,
        Deno.readTextFileSync(cfg)
          .replace(/base_url = "[^"]+"/, 'base_url = "http://127.0.0.1:9/v1"')
          .replace(/^(request|stream)_max_retries = 0\n/gm, ""),
      );
      tier.world.env.LISA_STALL_SECONDS = "20";
      session = await spawn(tier, ["--agent", "codex", "--mode", "exec", "--prompt", "say hi"]);
      const r = await pollStatus(tier, session, (s) => s.sessionState === "stuck", 90_000, 2000);
      note(`codex exec unreachable: ${r.seen.join(" → ")}`);
      ok(r.ok, `states seen: ${r.seen.join(" → ")}\n${await screen(tier, session)}`);
      const stall = r.last.stall as { quietSeconds: number; evidence: string[] };
      ok(stall.quietSeconds >= 20, JSON.stringify(stall));
      ok(stall.evidence.some((e) => e.startsWith("cpu:")), JSON.stringify(stall));
      ok(stall.evidence.some((e) => e.startsWith("output:")), JSON.stringify(stall));
      ok(!tier.mock.requests.some((q) => q.path === "/v1/responses"), "the mock was not reached");
    } finally {
      if (session) await kill(tier, session);
      await tier.dispose();
    }
  },
);

Deno.test(
  named(
    "a real claude reply streaming slowly for longer than LISA_STALL_SECONDS stays in_progress",
  ),
  opts,
  async () => {
    const tier = await makeTier();
    let session = "";
    try {
      tier.world.env.LISA_STALL_SECONDS = "10";
      session = await spawn(tier, ["--agent", "claude", "--mode", "interactive"]);
      const ready = await pollStatus(tier, session, waitingFor("input"), 60_000);
      ok(ready.ok, ready.seen.join(" → "));
      // A word every 4 s for 36 s: more than three times the threshold.
      tier.mock.set({ drip: { everyMs: 4000, tokens: 9 }, replyText: "SLOW_DONE" });
      await send(tier, session, "answer slowly");
      const started = Date.now();
      const seen: string[] = [];
      let sawWork = false;
      while (Date.now() - started < 34_000) {
        const s = await pollStatus(tier, session, () => true, 0);
        const b = `${s.last.sessionState} (${s.last.classificationReason})`;
        if (seen.at(-1) !== b) seen.push(b);
        sawWork ||= s.last.sessionState === "in_progress";
        ok(s.last.sessionState !== "stuck", `stuck while streaming: ${seen.join(" → ")}`);
        await new Promise((r) => setTimeout(r, 2000));
      }
      note(`slow reply: ${seen.join(" → ")}`);
      ok(sawWork, seen.join(" → "));
      const end = await pollStatus(tier, session, waitingFor("input"), 60_000);
      ok(end.ok, end.seen.join(" → "));
      ok((await screen(tier, session, 60)).includes("SLOW_DONE"));
    } finally {
      if (session) await kill(tier, session);
      await tier.dispose();
    }
  },
);
