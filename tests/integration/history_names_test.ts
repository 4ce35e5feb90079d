/**
 * History by name, end to end with the fake agents: a session respawned under the same name
 * after a kill keeps every turn of its new run, and `session turns` resolves an alias or a
 * unique prefix of one.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { artifact, readIf, spawn } from "./lifecycle_helpers.ts";

type Turn = { prompt: string; outcome: string; reply: string | null; tools: { tool: string }[] };

Deno.test("a session respawned under the same name after a kill has every turn in history", async () => {
  const world = await makeWorld();
  const send = (s: string, text: string) =>
    world.lisaInProcess(["session", "send", "--session", s, "--text", text, "--wait", "--json"]);
  try {
    const name = "lisa-again";
    const a = await spawn(world, ["--agent", "claude", "--session", name], {
      FAKE_REPLY_ECHO: "1",
    });
    const hooksA = artifact(world, a, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooksA) ?? "").includes("SessionStart") || undefined, 30_000));
    strictEqual((await send(name, "first run")).code, 0);
    const killed = await world.lisaInProcess(["session", "kill", "--session", name]);
    strictEqual(killed.code, 0, killed.stdout + killed.stderr);
    // Same name, same project: the new run's hook file has the old one's path (and on most
    // file systems, soon its inode too). History must read it from its start.
    const b = await spawn(world, ["--agent", "claude", "--session", name], {
      FAKE_REPLY_ECHO: "1",
    });
    const hooksB = artifact(world, b, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooksB) ?? "").includes("SessionStart") || undefined, 30_000));
    for (const text of ["second run one", "second run two", "second run three"]) {
      const r = await send(name, text);
      strictEqual(r.code, 0, r.stdout + r.stderr);
    }
    const shown = await world.lisaInProcess(["history", "show", name, "--json"]);
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    const json = shown.json as { runId: string; turns: Turn[] };
    strictEqual(json.runId, b.runId);
    deepStrictEqual(json.turns.map((t) => [t.prompt, t.outcome, t.reply]), [
      ["second run one", "completed", "reply to: second run one"],
      ["second run two", "completed", "reply to: second run two"],
      ["second run three", "completed", "reply to: second run three"],
    ]);
  } finally {
    await world.dispose();
  }
});

Deno.test("session turns accepts an alias or a unique prefix of one, as every --session verb", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_REPLY_ECHO: "1" });
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "hello",
      "--wait",
      "--json",
    ]);
    strictEqual((sent.json as { outcome: string }).outcome, "completed", sent.stdout);
    const alias = s.alias as string;
    for (const value of [s.session, alias, alias.slice(0, alias.length - 2)]) {
      const r = await world.lisaInProcess(["session", "turns", "--session", value, "--json"]);
      strictEqual(r.code, 0, `${value}: ${r.stdout}${r.stderr}`);
      strictEqual(r.json!.session, s.session, r.stdout);
      deepStrictEqual((r.json!.turns as Turn[]).map((t) => t.prompt), ["hello"]);
    }
  } finally {
    await world.dispose();
  }
});
