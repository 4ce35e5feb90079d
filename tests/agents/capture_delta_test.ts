/**
 * Real-agent tier, capture deltas: the real claude and codex UIs keep an input box and a status
 * line at the bottom, redrawn in place while the reply is inserted above them. A reader polling
 * `capture --delta-from` during a turn gets each line of the reply exactly once, and the input
 * box in `live`, never in the deltas again.
 */
import { ok, strictEqual } from "node:assert/strict";
import { kill, makeTier, named, pollStatus, screen, SKIP, spawn } from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };
const REPLY = ["ALPHA one", "BRAVO two", "CHARLIE three"];

for (const agent of ["claude", "codex"] as const) {
  Deno.test(
    named(`${agent}: deltas during a turn return each reply line once; the input box is live`),
    opts,
    async () => {
      const tier = await makeTier();
      let session = "";
      try {
        session = await spawn(tier, ["--agent", agent, "--mode", "interactive"]);
        const idle = await pollStatus(
          tier,
          session,
          (s) => s.sessionState === "waiting_input",
          60_000,
        );
        ok(idle.ok, `never idle: ${idle.seen.join(" → ")}\n${await screen(tier, session)}`);
        const capture = async (args: string[]) => {
          const r = await tier.lisa([
            "session",
            "capture",
            "--session",
            session,
            // The pane (a claude session's default capture is its transcript).
            "--raw",
            "--json",
            ...args,
          ]);
          strictEqual(r.code, 0, r.stdout + r.stderr);
          return r.json!;
        };
        let token = String((await capture([])).nextOffset);
        tier.mock.set({ delayMs: 3000, replyText: REPLY.join("\n\n") });
        const sent = await tier.lisa([
          "session",
          "send",
          "--session",
          session,
          "--text",
          "tell me three things",
          "--enter",
        ]);
        strictEqual(sent.code, 0, sent.stdout + sent.stderr);
        const received: string[] = [];
        let live = "";
        const deadline = Date.now() + 60_000;
        let quietAfterReply = 0;
        while (Date.now() < deadline && quietAfterReply < 3) {
          await new Promise((r) => setTimeout(r, 400));
          const d = await capture(["--delta-from", token]);
          strictEqual((d.delta as { reset: boolean }).reset, false, JSON.stringify(d.delta));
          token = String(d.nextOffset);
          const text = String(d.capture);
          if (text !== "") received.push(...text.split("\n"));
          live = String(d.live);
          const done = REPLY.every((r) => received.some((l) => l.includes(r)));
          quietAfterReply = done && text === "" ? quietAfterReply + 1 : 0;
        }
        const stream = received.join("\n");
        for (const line of REPLY) {
          strictEqual(
            received.filter((l) => l.includes(line)).length,
            1,
            `"${line}" once in:\n${stream}\n--- live:\n${live}`,
          );
        }
        const prompt = agent === "claude" ? "❯" : "›";
        ok(live.split("\n").some((l) => l.startsWith(prompt)), `input box live:\n${live}`);
        strictEqual(
          received.filter((l) => l.trim() === prompt || l.startsWith(`${prompt} Ask`)).length,
          0,
          `the empty input box is not in the deltas:\n${stream}`,
        );
      } finally {
        if (session !== "") await kill(tier, session);
        await tier.dispose();
      }
    },
  );
}
