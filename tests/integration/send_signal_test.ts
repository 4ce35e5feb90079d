/**
 * A signal to `send` between its paste and its Enter (issue 20 §7): an orchestrator's time limit
 * (`timeout 5 lisa session send …`) or a Ctrl-C. The text used to stay in the agent's input box
 * without its Enter, and the next send's text was submitted with it: two sends merged into one
 * submission. A send that has begun to write finishes (text and Enter), then answers
 * `interrupted` (128 + the signal) saying so.
 */
import { ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { endStray, readIf, spawn, waitPane } from "./lifecycle_helpers.ts";

/** Starts `lisa …args` as a process of its own in the world. */
function startLisa(world: World, args: string[]): Deno.ChildProcess {
  return new Deno.Command(LISA_ARGV[0], {
    args: [...LISA_ARGV.slice(1), ...args],
    cwd: world.projectRoot,
    env: world.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("SIGTERM or SIGINT to send after its paste: the send finishes with its Enter, answers interrupted, and the next send is a submission of its own", async () => {
  const world = await makeWorld();
  try {
    const record = `${world.base}/recorded`;
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: `record:${record}` });
    await waitPane(world, s, "recording");
    let expected = "";
    for (const [i, signal] of (["SIGTERM", "SIGINT", "SIGTERM"] as const).entries()) {
      const text = `msg-${i}`;
      const before = readIf(record) ?? "";
      const child = startLisa(world, [
        "session",
        "send",
        "--session",
        s.session,
        "--text",
        text,
        "--enter",
        "--force",
        "--json",
      ]);
      // The signal comes once the paste is in: inside the 150 ms before claude's Enter.
      ok(
        await waitFor(() => (readIf(record) ?? "") !== before, 30_000, 2),
        "the paste never came",
      );
      Deno.kill(child.pid, signal);
      const out = await child.output();
      const json = JSON.parse(new TextDecoder().decode(out.stdout));
      strictEqual(out.code, signal === "SIGINT" ? 130 : 143, JSON.stringify(json));
      strictEqual(json.errorCode, "interrupted");
      strictEqual(json.sent, true, JSON.stringify(json));
      expected += `\x1b[200~${text}\x1b[201~\r`;
      const got = await waitFor(() => readIf(record) === expected, 10_000);
      strictEqual(got, true, `${signal}: ${JSON.stringify(readIf(record))}`);
    }
  } finally {
    await endStray();
    await world.dispose();
  }
});
