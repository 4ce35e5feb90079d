/**
 * Helpers of the `send --wait` integration tests: the wait's JSON, a `send --wait` call, and a
 * wait for a fake claude that reads input.
 */
import { ok } from "node:assert/strict";
import { waitFor, type World } from "../helpers/world.ts";
import { artifact, paneText, readIf, type Spawned } from "./lifecycle_helpers.ts";

/** What `send --wait --json` printed (the fields the tests read). */
export type Wait = {
  turnId: string | null;
  outcome: string;
  reply: string;
  durationMs: number;
  tools: { tool: string; input: string | null }[];
  waitingFor?: string;
  source: string;
};

/** `session send --session S --text TEXT --wait --json` in-process (asserting a JSON answer). */
export async function sendWait(
  world: World,
  s: Spawned,
  text: string,
  extra: string[] = [],
): Promise<{ code: number; json: Wait; raw: string }> {
  const r = await world.lisaInProcess([
    "session",
    "send",
    "--session",
    s.session,
    "--text",
    text,
    "--wait",
    "--json",
    ...extra,
  ]);
  ok(r.json !== undefined, `no JSON: ${r.stdout}${r.stderr}`);
  return { code: r.code, json: r.json as unknown as Wait, raw: r.stdout + r.stderr };
}

/** Waits until the session's hooks recorded SessionStart (the fake is reading input then). */
export async function hooksReady(world: World, s: Spawned): Promise<void> {
  const ready = await waitFor(
    () => (readIf(artifact(world, s, "hooks.jsonl")) ?? "").includes("SessionStart") || undefined,
    30_000,
  );
  ok(ready, `no SessionStart: ${await paneText(world, s)}`);
}
