/**
 * Issue 20 §5: never the wrong pane. tmux calls the last window opened in a session its active
 * one; a window the agent or a person opens in a lisa session (`attach` from a shell inside
 * one did it) must not take the agent pane's place: status, capture, send, list and tree read
 * and write the pane spawn created (`=NAME:@W.%P`, ids kept in the meta), and `attach` never
 * creates a window in a lisa server.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn, type Spawned, waitPane } from "./lifecycle_helpers.ts";

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
