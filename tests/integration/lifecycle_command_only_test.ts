/**
 * A `--command` session without `--agent` is command-only: its name keeps the default agent
 * word, but status expects no agent, so claude's screen rules never read the command's output.
 * With an explicit `--agent` the agent's rules still apply.
 */
import { ok, strictEqual } from "node:assert/strict";
import type { SessionMeta } from "../../src/base/types.ts";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn, waitDone, waitPane } from "./lifecycle_helpers.ts";
import { status, statusUntil } from "./status_helpers.ts";

// Two leading spaces: claude's footer row, which its `claude_esc_to_interrupt` rule matches.
const COMMAND = "printf '  esc to interrupt\\n'; sleep 30";

Deno.test("a --command session without --agent is classified as a command, not by claude's screen", async () => {
  const world = await makeWorld();
  try {
    const plain = await spawn(world, ["--command", COMMAND]);
    const claude = await spawn(world, ["--agent", "claude", "--command", COMMAND]);
    strictEqual(plain.commandOnly, true);
    strictEqual(claude.commandOnly, false);
    ok(plain.session.includes("-claude-"), plain.session);
    const meta = JSON.parse(readIf(artifact(world, plain, "meta.json"))!) as SessionMeta;
    strictEqual(meta.commandOnly, true);
    strictEqual(meta.agent, "claude");
    await waitPane(world, plain, "esc to interrupt");
    await waitPane(world, claude, "esc to interrupt");

    const early = await status(world, plain.session);
    ok(!early.classificationReason.startsWith("screen:"), early.classificationReason);

    await new Promise((r) => setTimeout(r, world.graceSeconds * 1000 + 500));
    const r = await statusUntil(world, plain.session, (x) => x.signals.inGrace === false);
    strictEqual(r.sessionState, "in_progress", JSON.stringify(r.signals));
    strictEqual(r.classificationReason, "command_running:sleep");
    strictEqual(r.agent, "command", "a command session is shown as one, not as claude");
    strictEqual(r.mode, "interactive");
    const explicit = await status(world, claude.session);
    strictEqual(explicit.classificationReason, "screen:claude_esc_to_interrupt");
    strictEqual(explicit.agent, "claude");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("list, list --json, status --json and tree show a --command session as a command", async () => {
  const world = await makeWorld();
  try {
    const plain = await spawn(world, ["--command", "sleep 60", "--mode", "exec"]);
    const claude = await spawn(world, ["--agent", "codex", "--command", "sleep 60"]);

    const list = await world.lisaInProcess(["session", "list", "--json"]);
    const rows = new Map(
      (list.json!.items as { session: string; agent: string; mode: string }[]).map((x) => [
        x.session,
        x,
      ]),
    );
    strictEqual(rows.get(plain.session)?.agent, "command");
    strictEqual(rows.get(plain.session)?.mode, "exec");
    strictEqual(rows.get(claude.session)?.agent, "codex");

    const table = await world.lisaInProcess(["session", "list"]);
    const row = table.stdout.split("\n").find((l) => l.startsWith(plain.alias as string)) ?? "";
    ok(/^\S+\s+\S+( \d+)?\s+command\/exec\s/.test(row), table.stdout);

    const st = await status(world, plain.session);
    strictEqual(st.agent, "command");
    strictEqual(st.mode, "exec");
    const text = await world.lisaInProcess(["session", "status", "--session", plain.session]);
    ok(/^agent\s+command exec$/m.test(text.stdout), text.stdout);

    const tree = await world.lisaInProcess(["session", "tree", "--json"]);
    const nodes = new Map(
      (tree.json!.roots as { session: string; agent: string; mode: string }[]).map((x) => [
        x.session,
        x,
      ]),
    );
    strictEqual(nodes.get(plain.session)?.agent, "command");
    strictEqual(nodes.get(claude.session)?.agent, "codex");
    const drawn = await world.lisaInProcess(["session", "tree"]);
    ok(drawn.stdout.includes(`${plain.session} (command/exec,`), drawn.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("the done file comes only once tmux has the command's last output on its screen, even when tmux lags 4 s", async () => {
  const world = await makeWorld();
  let serverPid: number | null = null;
  try {
    const s = await spawn(world, [
      "--command",
      "while [ ! -e go ]; do sleep 0.1; done; echo the-last-words; : > ended; exit 3",
    ]);
    await waitPane(world, s, "__LISA_SESSION_START__");
    const pid = await world.tmux(s.socketPath, ["display-message", "-p", "#{pid}"]);
    serverPid = Number(pid.stdout.trim());
    ok(serverPid > 0, pid.stdout);
    // A tmux that lags behind the pty (stopped here; on a busy machine, slow): the command prints
    // and exits, but tmux has not read it yet. The done file must wait for it, also when the lag
    // is longer than the 3 s the wrapper once waited at most (a loaded machine's tmux was later).
    Deno.kill(serverPid, "SIGSTOP");
    Deno.writeTextFileSync(`${world.projectRoot}/go`, "");
    ok(await waitFor(() => readIf(`${world.projectRoot}/ended`) !== undefined, 30_000));
    await new Promise((r) => setTimeout(r, 4000));
    const early = readIf(artifact(world, s, "done.txt"));
    Deno.kill(serverPid, "SIGCONT");
    serverPid = null;
    strictEqual(early, undefined, "the done file was written before tmux read the output");
    await waitDone(world, s);
    const r = await status(world, s.session);
    strictEqual(r.sessionState, "crashed");
    strictEqual(r.exitCode, 3);
    ok(Deno.readTextFileSync(r.outputFile as string).includes("the-last-words"));
  } finally {
    if (serverPid !== null) Deno.kill(serverPid, "SIGCONT");
    await endStray();
    await world.dispose();
  }
});

Deno.test("the done-file barrier: Ctrl-S delays it LISA_DONE_BARRIER_SECONDS at most; typed-ahead text never shows the answer", async () => {
  const world = await makeWorld();
  try {
    const wait = "while [ ! -e go-$N ]; do sleep 0.1; done";
    // tmux never answers a query held by XOFF: the wrapper pays the whole bound (2 s here).
    const held = await spawn(world, ["--command", `${wait.replaceAll("$N", "a")}; exit 0`], {
      LISA_DONE_BARRIER_SECONDS: "2",
    });
    const typed = await spawn(world, [
      "--command",
      `${wait.replaceAll("$N", "b")}; echo the-last-line; exit 0`,
    ]);
    for (const s of [held, typed]) await waitPane(world, s, "__LISA_SESSION_START__");
    const send = async (session: string, args: string[]) => {
      const r = await world.lisaInProcess(["session", "send", "--session", session, ...args]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
    };
    // Output stopped (XOFF): the query cannot be written; the done file still comes.
    await send(held.session, ["--keys", "C-s"]);
    // Text the command never reads, with an R in it (the answer's last byte).
    await send(typed.session, ["--text", "Run it", "--enter"]);
    Deno.writeTextFileSync(`${world.projectRoot}/go-a`, "");
    Deno.writeTextFileSync(`${world.projectRoot}/go-b`, "");
    strictEqual(await waitDone(world, held, 10_000), `${held.runId}:0`);
    await waitDone(world, typed);
    const text = await waitPane(world, typed, "the-last-line");
    ok(!/\[\d+;\d+R/.test(text), `the cursor-position answer showed:\n${text}`);
  } finally {
    await endStray();
    await world.dispose();
  }
});
