/**
 * Issue 20 §5: never the wrong pane. tmux calls the last window opened in a session its active
 * one; a window the agent or a person opens in a lisa session (`attach` from a shell inside
 * one did it) must not take the agent pane's place: status, capture, send, list and tree read
 * and write the pane spawn created (`=NAME:.%P`, ids kept in the meta), and `attach` never
 * creates a window in a lisa server.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { shellJoin } from "../../src/base/shell_quote.ts";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { CountingRunner } from "./status_helpers.ts";
import {
  artifact,
  endStray,
  readIf,
  spawn,
  type Spawned,
  waitDone,
  waitPane,
} from "./lifecycle_helpers.ts";

/** The meta's pane ids of `s`. */
function idsOf(world: World, s: Spawned): { windowId: string; paneId: string } {
  const meta = JSON.parse(readIf(artifact(world, s, "meta.json"))!);
  return { windowId: meta.windowId, paneId: meta.paneId };
}

/** The text of one exact pane (history included). */
async function textOf(world: World, s: Spawned, target: string): Promise<string> {
  return (await world.tmux(s.socketPath, ["capture-pane", "-p", "-J", "-S", "-", "-t", target]))
    .stdout;
}

async function lisaJson(world: World, args: string[]): Promise<Record<string, unknown>> {
  const r = await world.lisaInProcess([...args, "--json"]);
  strictEqual(r.code, 0, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return r.json!;
}

/** Checks that status, capture, send, list and tree of `s` hit its agent's pane. */
async function agentPaneServes(world: World, s: Spawned, agentPane: string, word: string) {
  const status = await lisaJson(world, ["session", "status", "--session", s.session]);
  // The window tmux calls active is dead: read there, the session would be `completed`.
  ok(!["completed", "crashed"].includes(String(status.sessionState)), JSON.stringify(status));
  strictEqual(status.exitCode, null);
  const capture = await lisaJson(world, ["session", "capture", "--session", s.session, "--raw"]);
  ok(String(capture.capture).includes("fake claude (interactive)"), String(capture.capture));
  ok(!String(capture.capture).includes("OTHER-WINDOW"), String(capture.capture));
  const list = await lisaJson(world, ["session", "list"]);
  const row = (list.items as Record<string, unknown>[]).find((r) => r.session === s.session);
  ok(
    row !== undefined && row.state !== "completed" && row.alive === true,
    `row: ${JSON.stringify(row)}`,
  );
  const tree = await world.lisaInProcess(["session", "tree", "--json"]);
  ok(tree.stdout.includes(`"alive":true`), tree.stdout);
  const sent = await lisaJson(world, [
    "session",
    "send",
    "--session",
    s.session,
    "--text",
    word,
    "--enter",
    "--force",
  ]);
  strictEqual(sent.ok, true);
  const got = await waitFor(
    async () => (await textOf(world, s, agentPane)).includes(`got: ${word}`),
    30_000,
  );
  ok(got, await textOf(world, s, agentPane));
}

Deno.test("a window opened in a lisa session never takes the agent pane's place", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    await waitPane(world, s, "> ");
    // The pane spawn created, as tmux names it (the session's only one so far).
    const listed = await world.tmux(s.socketPath, [
      "list-panes",
      "-s",
      "-t",
      `=${s.session}:`,
      "-F",
      "#{window_id} #{pane_id}",
    ]);
    const [windowId, paneId] = listed.stdout.trim().split(" ");
    const agentPane = `=${s.session}:${windowId}.${paneId}`;

    // Another window in the session, dead at once (kept by remain-on-exit): tmux's active one.
    const other = await world.tmux(s.socketPath, [
      "new-window",
      "-t",
      `=${s.session}:`,
      "--",
      "bash",
      "-c",
      "echo OTHER-WINDOW",
    ]);
    strictEqual(other.code, 0, other.stderr);
    const active = await waitFor(async () => {
      const r = await world.tmux(s.socketPath, [
        "display-message",
        "-p",
        "-t",
        `=${s.session}:`,
        "#{pane_id} #{pane_dead}",
      ]);
      const [pane, dead] = r.stdout.trim().split(" ");
      return pane !== paneId && dead === "1";
    }, 30_000);
    ok(active, "the new window did not become the session's active one");

    await agentPaneServes(world, s, agentPane, "exact-pane");
    // Through the ids spawn kept in the meta.
    deepStrictEqual(idsOf(world, s), { windowId, paneId });

    // A meta written before the ids: the session's first pane, still never the active one.
    const metaPath = artifact(world, s, "meta.json");
    const { windowId: _w, paneId: _p, ...older } = JSON.parse(readIf(metaPath)!);
    Deno.writeTextFileSync(metaPath, JSON.stringify(older));
    await agentPaneServes(world, s, agentPane, "first-pane");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("the agent's pane moved to another window of its session (break-pane, prefix !) is still the agent's", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    await waitPane(world, s, "> ");
    const { windowId, paneId } = idsOf(world, s);
    // A person splits the agent's window and breaks the agent's pane out into a window of its
    // own (tmux's `prefix !`): same pane, same process, another window id. status and list
    // said not_found and send session_not_found while the agent ran on.
    const split = await world.tmux(s.socketPath, ["split-window", "-d", "-t", paneId, "sleep 300"]);
    strictEqual(split.code, 0, split.stderr);
    const broken = await world.tmux(s.socketPath, [
      "break-pane",
      "-d",
      "-s",
      paneId,
      "-t",
      `=${s.session}:`,
    ]);
    strictEqual(broken.code, 0, broken.stderr);
    const moved = await world.tmux(s.socketPath, [
      "display-message",
      "-p",
      "-t",
      paneId,
      "#{window_id}",
    ]);
    ok(moved.stdout.trim() !== windowId, `the pane stayed in ${windowId}`);
    const status = await lisaJson(world, ["session", "status", "--session", s.session]);
    ok(
      ["just_started", "waiting_input", "in_progress"].includes(String(status.sessionState)),
      JSON.stringify(status),
    );
    await agentPaneServes(world, s, paneId, "moved-pane");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("status, capture, snapshot and send by alias give tmux the session's own pane, never the alias", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "cat"]);
    await waitPane(world, s, "__LISA_SESSION_START__");
    const { paneId } = idsOf(world, s);
    const pane = `=${s.session}:.${paneId}`;
    const alias = String(s.alias);
    const runner = new CountingRunner();
    const since = `@${Math.floor(Date.now() / 1000) - 3600}`;
    for (
      const args of [
        ["status"],
        ["capture"],
        ["snapshot", "--delta-from", since],
        ["capture", "--delta-from", since],
        ["send", "--text", "typed", "--enter"],
      ]
    ) {
      const r = await world.lisaInProcess([
        "session",
        args[0],
        "--session",
        alias,
        ...args.slice(1),
        "--json",
      ], {
        runner,
      });
      strictEqual(r.code, 0, `${args.join(" ")}: ${r.stdout}`);
    }
    const targets = runner.calls.filter((c) => c[0] === "tmux").flatMap((argv) =>
      argv.flatMap((word, i) => {
        // Direct `-t` words, and those inside the guarded write's command strings.
        if (argv[i - 1] === "-t") return [word];
        return [...word.matchAll(/'-t' '([^']*)'/g)].map((m) => m[1]);
      })
    );
    ok(targets.length >= 8, targets.join(" "));
    for (const t of targets) strictEqual(t, pane, targets.join(" "));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("attach from a shell inside a lisa session opens no window there; attaching itself is refused", async () => {
  const world = await makeWorld();
  try {
    const agent = await spawn(world, ["--agent", "claude", "--tag", "agent"], {
      FAKE_BEHAVIOR: "idle",
    });
    await waitPane(world, agent, "> ");
    const agentPane = (() => {
      const ids = idsOf(world, agent);
      return `=${agent.session}:${ids.windowId}.${ids.paneId}`;
    })();
    // The caller: a lisa session whose command is `lisa session attach` (TMUX points at lisa's
    // own server in its pane, as in any shell there).
    const shell = await spawn(world, [
      "--command",
      shellJoin([...LISA_ARGV, "session", "attach", agent.session]),
      "--tag",
      "shell",
    ]);
    const shellIds = idsOf(world, shell);
    const shellPane = `=${shell.session}:${shellIds.windowId}.${shellIds.paneId}`;
    const attached = await waitFor(async () => {
      const r = await world.tmux(agent.socketPath, ["list-clients", "-F", "#{session_name}"]);
      return r.stdout.split("\n").includes(agent.session);
    }, 30_000);
    ok(attached, "no client attached to the agent's session");
    // No window was created in the lisa server: one per session.
    const windows = await world.tmux(agent.socketPath, [
      "list-windows",
      "-a",
      "-F",
      "#{session_name}",
    ]);
    deepStrictEqual(
      windows.stdout.trim().split("\n").sort(),
      [agent.session, shell.session].sort(),
    );
    // It attaches in its own terminal: the agent's screen shows inside the shell's pane.
    const shown = await waitFor(async () => {
      const t = await textOf(world, shell, shellPane);
      return t.includes("fake claude (interactive)") ? t : undefined;
    }, 30_000);
    ok(shown, await textOf(world, shell, shellPane));
    // The agent is still driven at its own pane.
    const sent = await lisaJson(world, [
      "session",
      "send",
      "--session",
      agent.session,
      "--text",
      "via-attach",
      "--enter",
      "--force",
    ]);
    strictEqual(sent.ok, true);
    ok(
      await waitFor(
        async () => (await textOf(world, agent, agentPane)).includes("got: via-attach"),
        30_000,
      ),
    );

    // Without a terminal (an orchestrator's exec), TMUX pointing into lisa's server: no window
    // there either, a clear error instead.
    const noTty = await world.lisaInProcess(["session", "attach", agent.session, "--json"], {
      env: { TMUX: `${agent.socketPath},1,0` },
    });
    strictEqual(noTty.code, 1, noTty.stdout);
    strictEqual(noTty.json?.errorCode, "not_a_terminal");
    const still = await world.tmux(agent.socketPath, [
      "list-windows",
      "-a",
      "-F",
      "#{session_name}",
    ]);
    strictEqual(still.stdout.trim().split("\n").length, 2, still.stdout);

    // A session attaching itself would show itself inside itself: refused.
    const self = await spawn(world, [
      "--session",
      "lisa-self-attach",
      "--command",
      shellJoin([...LISA_ARGV, "session", "attach", "lisa-self-attach", "--json"]),
    ]);
    strictEqual(await waitDone(world, self), `${self.runId}:1`);
    const said = await textOf(world, self, `=${self.session}:`);
    ok(said.includes(`"errorCode":"attach_self"`), said);
    const windowsAfter = await world.tmux(self.socketPath, [
      "list-windows",
      "-a",
      "-F",
      "#{session_name}",
    ]);
    strictEqual(windowsAfter.stdout.trim().split("\n").length, 3, windowsAfter.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});
