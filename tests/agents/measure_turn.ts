/**
 * Measures what `send --wait` costs a real claude turn (DESIGN §7: "send --wait adds < 0.5 s to a
 * turn; hooks never wait on lisa"), against the tier's mock API: each of N turns whose reply the
 * mock holds 1 s is sent from an idle agent with `send --wait`, and
 *
 * - every hook claude runs is timed by a wrapper around `lisa hook` (start to exit, as claude
 *   waits for it), and
 * - the turn is timed end to end: from the `send --wait` call to its answer.
 *
 * Not a test (timings belong in figures, not assertions): `deno run -A tests/agents/measure_turn.ts
 * [turns]` prints the figures. Needs the real agents (scripts/install_agents.ts).
 */
import { LISA_ARGV } from "../helpers/world.ts";
import { kill, makeTier, pollStatus, screen } from "./tier.ts";

const turns = Number(Deno.args[0] ?? 5);
const tier = await makeTier({ delayMs: 1000 });
let session = "";
const out = (text: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${text}\n`));
try {
  // `lisa hook` behind a timer: claude runs the hook command lisa gives it, i.e. this script.
  const log = `${tier.world.base}/hook-times.log`;
  const timer = `${tier.world.base}/lisa-timed.sh`;
  const lisa = LISA_ARGV.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");
  Deno.writeTextFileSync(
    timer,
    [
      "#!/bin/bash",
      "start=$(date +%s%N)",
      `${lisa} "$@"`,
      "code=$?",
      `echo "$start $(date +%s%N) $*" >> '${log}'`,
      "exit $code",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  const spawned = await tier.world.lisaInProcess(
    ["session", "spawn", "--agent", "claude", "--mode", "interactive", "--json"],
    { selfCommand: [timer] },
  );
  session = String(spawned.json?.session ?? "");
  if (spawned.code !== 0 || session === "") throw new Error(spawned.stdout + spawned.stderr);
  const idle = () =>
    pollStatus(
      tier,
      session,
      (s) =>
        s.sessionState === "waiting_input" &&
        (s.signals?.hooks as { active?: boolean } | null)?.active === true,
      90_000,
      250,
    );
  if (!(await idle()).ok) throw new Error(`never idle:\n${await screen(tier, session)}`);
  const hooksMs: number[] = [];
  const turnMs: number[] = [];
  for (let i = 0; i < turns; i++) {
    const before = (() => {
      try {
        return Deno.readTextFileSync(log).split("\n").filter(Boolean).length;
      } catch {
        return 0;
      }
    })();
    const t0 = performance.now();
    const r = await tier.lisa([
      "session",
      "send",
      "--session",
      session,
      "--text",
      `say ok ${i}`,
      "--wait",
      "--timeout-seconds",
      "60",
      "--json",
    ]);
    const took = performance.now() - t0;
    if (r.json?.outcome !== "completed") throw new Error(`turn ${i}: ${r.stdout}${r.stderr}`);
    turnMs.push(took);
    // The hooks of this turn (its Stop's hook may still be finishing when the wait answers).
    await new Promise((res) => setTimeout(res, 500));
    const lines = Deno.readTextFileSync(log).split("\n").filter(Boolean).slice(before);
    for (const line of lines) {
      const [start, end] = line.split(" ").map(Number);
      hooksMs.push((end - start) / 1e6);
    }
    if (!(await idle()).ok) throw new Error(`turn ${i} left it busy`);
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
  const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  out(`turns: ${turns} (mock reply held 1 s each), sent from an idle claude with send --wait`);
  out(`turn end to end: median ${fmt(median(turnMs))}, max ${fmt(Math.max(...turnMs))}`);
  out(`  each: ${turnMs.map(fmt).join(", ")}`);
  out(
    `hooks during the waits: ${hooksMs.length}, median ${fmt(median(hooksMs))}, ` +
      `max ${fmt(Math.max(...hooksMs))}`,
  );
} finally {
  if (session !== "") await kill(tier, session);
  await tier.dispose();
}
