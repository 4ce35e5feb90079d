/**
 * lisa reads tmux right whatever the caller's locale: a lisa run over ssh, from cron or from a
 * bare service environment often has no UTF-8 `LANG`, and a tmux client then prints control
 * characters (lisa's `-F` field separator) and non-ASCII text as `_` unless it is told to write
 * UTF-8 (`tmux -u`). The last two tests run the CLI with no locale variable at all and with
 * `LC_ALL=C` (its tmux server started from that environment too): it sees the session, and
 * non-ASCII text goes in (a paste, a turn of `send --wait`) and comes out byte for byte.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, readIf, type Spawned, waitPane } from "./lifecycle_helpers.ts";

const C_LOCALE = { LANG: "C", LC_ALL: "C", LC_CTYPE: "C" };

Deno.test("status, list and capture read the pane under the C locale (no UTF-8 in LANG/LC_*)", async () => {
  const world = await makeWorld();
  try {
    const spawned = await world.lisa([
      "session",
      "spawn",
      "--command",
      "printf '✳ naïve 日本 ready\\n'; sleep 60",
      "--json",
    ], { env: C_LOCALE });
    strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
    const session = String(spawned.json?.session);
    const shown = await waitFor(async () => {
      const r = await world.lisa(["session", "capture", "--session", session, "--json"], {
        env: C_LOCALE,
      });
      return String(r.json?.capture ?? "").includes("ready") ? r : undefined;
    }, 30_000);
    ok(shown, "capture never showed the pane's text");
    ok(String(shown.json?.capture).includes("✳ naïve 日本 ready"), String(shown.json?.capture));
    const status = await world.lisa(["session", "status", "--session", session, "--json"], {
      env: C_LOCALE,
    });
    strictEqual(status.code, 0, status.stderr);
    strictEqual(status.json?.sessionState, "in_progress", status.stdout);
    const list = await world.lisa(["session", "list", "--json"], { env: C_LOCALE });
    const rows = list.json?.items as { session: string; state: string }[];
    strictEqual(rows.find((r) => r.session === session)?.state, "in_progress", list.stdout);
  } finally {
    await world.dispose();
  }
});

const TEXT = "grüße ●";
// claude's reply and tool-result rows, as the real one draws them.
const ROWS = ["● the reply", "  ⎿  Done · 2 files"];

/** A world whose lisa runs without LANG / LC_* (and with `locale` added). */
async function localeWorld(locale: Record<string, string>): Promise<World> {
  const world = await makeWorld();
  // world.env is the environment every world.lisa / world.tmux call gets (with clearEnv).
  for (const key of Object.keys(world.env)) {
    if (key === "LANG" || key === "LANGUAGE" || key.startsWith("LC_")) delete world.env[key];
  }
  Object.assign(world.env, locale);
  return world;
}

async function lisaJson(
  world: World,
  args: string[],
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const r = await world.lisa([...args, "--json"], { env });
  strictEqual(r.code, 0, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
  ok(r.json !== undefined, r.stdout);
  return r.json;
}

async function spawnCli(
  world: World,
  args: string[],
  env: Record<string, string> = {},
): Promise<Spawned> {
  return await lisaJson(world, ["session", "spawn", ...args], env) as unknown as Spawned;
}

async function checkLocale(locale: Record<string, string>): Promise<void> {
  const world = await localeWorld(locale);
  try {
    // The first spawn starts the project's tmux server from this environment.
    const record = `${world.base}/recorded`;
    const rec = await spawnCli(world, ["--agent", "claude"], { FAKE_BEHAVIOR: `record:${record}` });
    await waitPane(world, rec, "recording");
    const st = await lisaJson(world, ["session", "status", "--session", rec.session]);
    strictEqual(st.paneStatus, "alive", JSON.stringify(st));
    ok(st.sessionState !== "not_found", JSON.stringify(st));
    const list = await lisaJson(world, ["session", "list"]);
    deepStrictEqual(list.sessions, [rec.session]);

    // Text in: exactly the UTF-8 bytes sent, inside one bracketed paste, then Enter.
    // --force: the recording fake never draws an idle prompt, and readiness is not the point;
    // it shows nothing of what it got either, so no receipt is waited for.
    const send = [
      "session",
      "send",
      "--session",
      rec.session,
      "--text",
      TEXT,
      "--enter",
      "--force",
      "--confirm-timeout",
      "0",
    ];
    await lisaJson(world, send);
    const want = new TextEncoder().encode(`\x1b[200~${TEXT}\x1b[201~\r`);
    await waitFor(() => (readIf(record) ?? "").endsWith("\r"), 30_000);
    deepStrictEqual(Deno.readFileSync(record), want);

    // Text out: claude's rows as the pane shows them.
    const cmd = await spawnCli(world, [
      "--command",
      `printf '%s\\n' ${ROWS.map((r) => `'${r}'`).join(" ")}; sleep 60`,
    ]);
    await waitPane(world, cmd, "Done");
    const cap = await lisaJson(world, ["session", "capture", "--session", cmd.session, "--raw"]);
    const lines = String(cap.capture).split("\n");
    for (const row of ROWS) ok(lines.includes(row), `${JSON.stringify(row)} in ${cap.capture}`);

    // A whole turn: the reply comes back as the agent wrote it.
    const agent = await spawnCli(world, ["--agent", "claude"], { FAKE_REPLY_ECHO: "1" });
    await waitFor(
      () => (readIf(artifact(world, agent, "hooks.jsonl")) ?? "").includes("SessionStart"),
      30_000,
    );
    const turn = await lisaJson(world, [
      "session",
      "send",
      "--session",
      agent.session,
      "--text",
      TEXT,
      "--wait",
      "--force",
    ]);
    strictEqual(turn.outcome, "completed", JSON.stringify(turn));
    strictEqual(turn.reply, `reply to: ${TEXT}`);
  } finally {
    // Ending the server ends every pane's processes (SIGHUP).
    await world.dispose();
  }
}

Deno.test("with no locale variable at all, the CLI sees a live session and non-ASCII text round-trips", async () => {
  await checkLocale({});
});

Deno.test("under LC_ALL=C, the CLI sees a live session and non-ASCII text round-trips", async () => {
  await checkLocale({ LC_ALL: "C" });
});
