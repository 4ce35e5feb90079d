/**
 * Records what the real agents show when their model API fails, as screen fixtures for the
 * blocked-agent rules (`src/agents/rules/`): for each agent and each failure of the mock
 * (`auth` 401, `rate_limit` 429, `usage_limit` 429, `overloaded` 529/503), an interactive session
 * is spawned through lisa in a hermetic tier, one prompt is sent, and once the screen has settled
 * its visible rows (blank runs squeezed) and pane title are written to
 * `tests/fixtures/screens/real_<agent>_<failure>.txt` / `.title`, under a `#!` header that says
 * how they were recorded (the rule tests drop `#!` rows).
 *
 * Run: `deno run -A tests/agents/record_screens.ts [claude|codex] [failure…]` (heavy: real
 * agents; a few minutes).
 */
import { MOCK_FAILURES, type MockFailure } from "./mock_api.ts";
import { hookRecords, INSTALL, kill, makeTier, note, spawn, status } from "./tier.ts";

const OUT = new URL("../fixtures/screens/", import.meta.url);

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

async function record(agent: "claude" | "codex", fail: MockFailure): Promise<void> {
  const tier = await makeTier({ fail: null });
  let session = "";
  try {
    session = await spawn(tier, ["--agent", agent, "--mode", "interactive"]);
    // Let the agent boot against a working API, then make every call fail and send a prompt.
    for (let i = 0; i < 30; i++) {
      const s = await status(tier, session);
      if (s.sessionState === "waiting_input") break;
      await sleep(1000);
    }
    tier.mock.set({ fail });
    const sent = await tier.lisa([
      "session",
      "send",
      "--session",
      session,
      "--text",
      "say hello",
      "--enter",
      "--json",
    ]);
    if (sent.code !== 0) throw new Error(`send failed: ${sent.stdout} ${sent.stderr}`);
    let last = "";
    let stable = 0;
    let text = "";
    let title = "";
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && stable < 5) {
      await sleep(1000);
      // The raw capture of a live pane is its visible screen (what status classifies).
      const cap = await tier.lisa(["session", "capture", "--session", session, "--raw"]);
      const s = await status(tier, session);
      text = cap.stdout.split("\n").map((r) => r.trimEnd()).join("\n").replace(/^\n+/, "")
        .replace(/\n{3,}/g, "\n\n").trimEnd();
      title = String(s.paneTitle ?? "");
      const key = `${title}\n${text}`;
      const failed = tier.mock.requests.some((r) => r.answer.startsWith("fail:"));
      stable = failed && key === last ? stable + 1 : 0;
      last = key;
    }
    const name = `real_${agent}_${fail}`;
    const version = agent === "claude"
      ? INSTALL.ok ? INSTALL.agents.claude.version : "?"
      : INSTALL.ok
      ? INSTALL.agents.codex.version
      : "?";
    const header = [
      `#! Recorded ${new Date().toISOString().slice(0, 10)} by tests/agents/record_screens.ts:`,
      `#! real ${agent} ${version}, interactive, through lisa in a hermetic tier; the local mock`,
      `#! API answered every model request with "${fail}" (see mock_api.ts); the visible screen`,
      `#! (\`lisa session capture --raw\`) once it had settled, runs of blank rows squeezed.`,
      `#! "#!" rows are not screen.`,
    ].join("\n");
    Deno.writeTextFileSync(new URL(`${name}.txt`, OUT), `${header}\n${text}\n`);
    Deno.writeTextFileSync(new URL(`${name}.title`, OUT), `${title}\n`);
    if (Deno.env.get("RECORD_DEBUG")) {
      const full = await tier.lisa(["session", "capture", "--session", session, "--raw"]);
      Deno.writeTextFileSync(`/tmp/${name}.full.txt`, full.stdout);
      await tier.lisa(["session", "send", "--session", session, "--keys", "F2"]);
      await sleep(2000);
      const f2 = await tier.lisa(["session", "capture", "--session", session, "--raw"]);
      Deno.writeTextFileSync(`/tmp/${name}.f2.txt`, f2.stdout);
    }
    const answers = tier.mock.requests.map((r) => `${r.path}:${r.answer}`).join(" ");
    note(`${name}: title=${JSON.stringify(title)} requests=${answers}`);
    note(`${name}: hooks=${JSON.stringify(hookRecords(tier, session).slice(-4))}`);
    note(`${name}: status=${JSON.stringify(await status(tier, session))}`);
  } finally {
    if (session) await kill(tier, session);
    await tier.dispose();
  }
}

if (import.meta.main) {
  const agents = Deno.args.filter((a) => a === "claude" || a === "codex") as (
    | "claude"
    | "codex"
  )[];
  const fails = Deno.args.filter((a) =>
    (MOCK_FAILURES as readonly string[]).includes(a)
  ) as MockFailure[];
  for (const agent of agents.length > 0 ? agents : ["claude", "codex"] as const) {
    for (const fail of fails.length > 0 ? fails : MOCK_FAILURES) {
      try {
        await record(agent, fail);
      } catch (error) {
        note(`${agent}/${fail}: ${(error as Error).message}`);
      }
    }
  }
}
