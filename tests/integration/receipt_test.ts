/**
 * Receipts with the fake agents (issue 23): a send with Enter says whether the agent took the
 * prompt, from its hook or its screen; an Enter the agent lost is `send_unconfirmed` (exit 1,
 * the text left where it is), `--retry-enter` presses once more; a `--command` session is not
 * looked at.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, paneText, readIf, spawn, type Spawned, waitPane } from "./lifecycle_helpers.ts";

async function send(world: World, s: Spawned, extra: string[]) {
  const r = await world.lisaInProcess(["session", "send", "--session", s.session, ...extra]);
  return { ...r, json: r.json as Record<string, unknown> };
}

/** Waits until the fake agent is at its prompt (hooks: its SessionStart is in). */
async function ready(world: World, s: Spawned, hooks: boolean): Promise<void> {
  if (hooks) {
    const seen = await waitFor(
      () => (readIf(artifact(world, s, "hooks.jsonl")) ?? "").includes("SessionStart") || undefined,
      30_000,
    );
    ok(seen, `no SessionStart: ${await paneText(world, s)}`);
  }
  await waitPane(world, s, "> ");
}

Deno.test("a hooked agent's receipt is its prompt hook, with its prompt id", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"]);
    await ready(world, s, true);
    const r = await send(world, s, ["--text", "hello receipt", "--enter", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(r.json.confirmed, true);
    strictEqual(r.json.confirmedBy, "hook");
    ok(String(r.json.promptId).startsWith("fake-prompt-"), r.stdout);
    strictEqual(r.json.enterRetried, false);
    // send --wait carries the same receipt under `sent` (sent once the first turn is over: to
    // a busy agent, the screen's sign counts at once).
    const stopped = await waitFor(
      () =>
        (readIf(artifact(world, s, "hooks.jsonl")) ?? "").includes('"event":"Stop"') || undefined,
      30_000,
    );
    ok(stopped, await paneText(world, s));
    await waitPane(world, s, "fake reply\n> ");
    const w = await send(world, s, ["--text", "and again", "--wait", "--json"]);
    strictEqual(w.code, 0, w.stdout + w.stderr);
    const sent = w.json.sent as Record<string, unknown>;
    strictEqual(sent.confirmed, true);
    strictEqual(sent.confirmedBy, "hook");
  } finally {
    await world.dispose();
  }
});

Deno.test("without hooks the screen says the agent took the text", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude", "--no-hooks"]);
    await ready(world, s, false);
    const r = await send(world, s, ["--text", "hello screen", "--enter", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(r.json.confirmed, true);
    strictEqual(r.json.confirmedBy, "screen");
    strictEqual(r.json.promptId, null);
  } finally {
    await world.dispose();
  }
});

Deno.test("an Enter the agent lost is send_unconfirmed, the text left typed; --retry-enter sends it", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_SWALLOW_ENTER: "1" });
    await ready(world, s, true);
    const r = await send(world, s, [
      "--text",
      "lost enter",
      "--enter",
      "--confirm-timeout",
      "2",
      "--json",
    ]);
    strictEqual(r.code, 1, r.stdout + r.stderr);
    strictEqual(r.json.ok, false);
    strictEqual(r.json.errorCode, "send_unconfirmed");
    strictEqual(r.json.confirmed, false);
    ok(String(r.json.error).includes("Nothing was re-sent"), String(r.json.error));
    // Left as it is: typed once, in the agent's input line, never submitted.
    const screen = await paneText(world, s);
    strictEqual(screen.split("lost enter").length - 1, 2, screen); // the paste's echo, the redraw
    ok(!(readIf(artifact(world, s, "hooks.jsonl")) ?? "").includes("lost enter"));
    // The Enter pressed by hand now submits it.
    const again = await send(world, s, ["--keys", "Enter", "--json"]);
    strictEqual(again.code, 0, again.stdout + again.stderr);
    strictEqual(again.json.confirmed, null);
    const submitted = await waitFor(
      () => (readIf(artifact(world, s, "hooks.jsonl")) ?? "").includes("lost enter") || undefined,
      30_000,
    );
    ok(submitted, await paneText(world, s));
    // --retry-enter: the agent loses the first Enter, the second one gets through.
    const t = await spawn(world, ["--agent", "claude"], { FAKE_SWALLOW_ENTER: "1" });
    await ready(world, t, true);
    const retried = await send(world, t, [
      "--text",
      "second chance",
      "--enter",
      "--confirm-timeout",
      "2",
      "--retry-enter",
      "--json",
    ]);
    strictEqual(retried.code, 0, retried.stdout + retried.stderr);
    strictEqual(retried.json.confirmed, true);
    strictEqual(retried.json.enterRetried, true);
  } finally {
    await world.dispose();
  }
});

Deno.test("a command session's send looks for no receipt", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "cat"]);
    const r = await send(world, s, ["--text", "plain", "--enter", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(r.json.confirmed, null);
    strictEqual(r.json.confirmedBy, null);
  } finally {
    await world.dispose();
  }
});
