/**
 * A session whose meta lost facts (an older lisa's, a hand-edited or damaged one) is still
 * answered for, from any project: never an internal_error.
 */
import { ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";

Deno.test("a meta without its project root: status, explain, snapshot and capture from another project", async () => {
  const world = await makeWorld();
  try {
    const spawned = await world.lisa([
      "session",
      "spawn",
      "--session",
      "lisa-damaged",
      "--agent",
      "claude",
      "--command",
      "cat",
      "--json",
    ]);
    strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
    const hash = String(spawned.json!.projectHash);
    const path = `${world.runtimeDir}/.lisa-${hash}-session-lisa-damaged-meta.json`;
    const meta = JSON.parse(Deno.readTextFileSync(path));
    delete meta.projectRoot;
    // A claude session with a transcript id: capture would look for its transcript.
    Object.assign(meta, { commandOnly: false, agentSessionId: "abc", runId: 7 });
    Deno.writeTextFileSync(path, JSON.stringify(meta), { mode: 0o600 });
    // From another project: the session is found through its meta under the other hash.
    const elsewhere = await Deno.makeTempDir({ dir: world.base });
    for (
      const verb of [["status"], ["explain"], ["snapshot"], ["capture"], [
        "monitor",
        "--max-polls",
        "1",
      ]]
    ) {
      const r = await world.lisa(["session", ...verb, "--session", "lisa-damaged", "--json"], {
        cwd: elsewhere,
      });
      ok(!r.stdout.includes("internal_error"), `${verb[0]}: ${r.stdout}${r.stderr}`);
      ok(r.code === 0 || r.code === 2, `${verb[0]} exit ${r.code}: ${r.stdout}${r.stderr}`);
    }
  } finally {
    await world.dispose();
  }
});
