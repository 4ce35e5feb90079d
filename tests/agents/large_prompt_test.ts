/**
 * Real-agent tier, both agents: an exec prompt too long for one argv word (over 128 KiB) reaches
 * the real `claude -p` and `codex exec -` on stdin, and the model request carries all of it.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeTier, monitor, named, screen, SKIP, spawn } from "./tier.ts";

const opts = { ignore: SKIP, sanitizeOps: false, sanitizeResources: false };

/** A prompt of about 200 KB whose last line is a marker the request must carry. */
function bigPrompt(marker: string): string {
  const lines = ["Say hi. The text below is filler."];
  for (let i = 0; lines.join("\n").length < 200_000; i++) {
    lines.push(`filler ${i} ${"z".repeat(60)}`);
  }
  lines.push(marker);
  return lines.join("\n");
}

for (const agent of ["claude", "codex"]) {
  Deno.test(named(`${agent} exec gets a 200 KB --prompt-file whole, on stdin`), opts, async () => {
    const tier = await makeTier();
    try {
      const marker = `END-OF-PROMPT-${agent}-${crypto.randomUUID()}`;
      const file = `${tier.world.base}/prompt.txt`;
      Deno.writeTextFileSync(file, bigPrompt(marker));
      const session = await spawn(tier, [
        "--agent",
        agent,
        "--mode",
        "exec",
        "--prompt-file",
        file,
      ]);
      const result = await monitor(tier, session, 120);
      strictEqual(
        result.json?.finalState,
        "completed",
        `${result.stdout} ${result.stderr}\n${await screen(tier, session)}`,
      );
      const bodies = tier.mock.requests.filter((r) => r.kind === "main")
        .map((r) => JSON.stringify(r.body));
      ok(
        bodies.some((b) => b.includes(marker) && b.includes("filler 0 ")),
        "prompt not in request",
      );
    } finally {
      await tier.dispose();
    }
  });
}
