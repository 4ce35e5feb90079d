/**
 * A reader that closes lisa's stdout early (`lisa … | head -3`) ends lisa quietly: no "Broken
 * pipe", no stack trace on stderr, the command's work done and its own exit code; a streaming
 * monitor stops with exit 141 (issue 9, defect 10a).
 */
import { ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, type World } from "../helpers/world.ts";
import { endStray, spawn, waitPane } from "./lifecycle_helpers.ts";

interface Closed {
  code: number;
  stderr: string;
  /** What the reader got before it closed the pipe. */
  head: string;
}

/**
 * Runs lisa with its stdout on a pipe whose reader closes after `keepBytes` bytes (0: before
 * lisa writes anything).
 */
async function lisaWithClosedStdout(
  world: World,
  args: string[],
  keepBytes: number,
  afterClose?: () => Promise<void>,
) {
  const child = new Deno.Command(LISA_ARGV[0], {
    args: [...LISA_ARGV.slice(1), ...args],
    cwd: world.projectRoot,
    env: world.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrText = new Response(child.stderr).text();
  let head = "";
  if (keepBytes === 0) await child.stdout.cancel();
  else {
    const reader = child.stdout.getReader();
    const decoder = new TextDecoder();
    while (head.length < keepBytes) {
      const { value, done } = await reader.read();
      if (done) break;
      head += decoder.decode(value);
    }
    await reader.cancel();
  }
  await afterClose?.();
  const { code } = await child.status;
  return { code, stderr: await stderrText, head } satisfies Closed;
}

Deno.test("capture into a reader that closes after the first bytes exits 0 with nothing on stderr", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "seq 1 40000; sleep 60"]);
    await waitPane(world, s, "40000");
    const r = await lisaWithClosedStdout(world, [
      "session",
      "capture",
      "--session",
      s.session,
      "--lines",
      "50000",
    ], 10);
    ok(r.head.length > 0);
    strictEqual(r.stderr, "");
    strictEqual(r.code, 0);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("spawn --json whose stdout is already closed still creates and records its session", async () => {
  const world = await makeWorld();
  try {
    const session = "lisa-closed-stdout";
    const r = await lisaWithClosedStdout(world, [
      "session",
      "spawn",
      "--session",
      session,
      "--command",
      "sleep 60",
      "--json",
    ], 0);
    strictEqual(r.stderr, "");
    strictEqual(r.code, 0);
    const exists = await world.lisaInProcess(["session", "exists", "--session", session]);
    strictEqual(exists.code, 0, exists.stdout);
    const metas = [...Deno.readDirSync(world.runtimeDir)].filter((e) =>
      e.name.endsWith(`-${session}-meta.json`)
    );
    strictEqual(metas.length, 1);
    const list = await world.lisaInProcess(["session", "list", "--json"]);
    strictEqual(list.json?.count, 1, list.stdout);
  } finally {
    await world.lisaInProcess(["session", "kill", "--session", "lisa-closed-stdout"]);
    await world.dispose();
  }
});

Deno.test("a streaming monitor whose reader left after the first line stops with 141, quietly", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "sleep 60"]);
    const r = await lisaWithClosedStdout(world, [
      "session",
      "monitor",
      "--session",
      s.session,
      "--poll-interval",
      "0.2",
      "--max-polls",
      "1000",
      "--stream-json",
    ], 1);
    ok(r.head.startsWith("{"), r.head);
    strictEqual(r.stderr, "");
    strictEqual(r.code, 141);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a watch whose reader left stops with 141 instead of running to its timeout", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "sleep 60"]);
    // The kill makes the watch write a "disappeared" line into the closed pipe; without the
    // stop it would then run to its 60 s timeout and exit 2.
    const kill = async () => {
      const k = await world.lisaInProcess(["session", "kill", "--session", s.session]);
      strictEqual(k.code, 0, k.stdout);
    };
    const r = await lisaWithClosedStdout(
      world,
      [
        "session",
        "watch",
        "--json",
        "--session",
        s.session,
        "--timeout-seconds",
        "60",
      ],
      1,
      kill,
    );
    ok(r.head.startsWith("{"), r.head);
    strictEqual(r.stderr, "");
    strictEqual(r.code, 141);
  } finally {
    await endStray();
    await world.dispose();
  }
});
