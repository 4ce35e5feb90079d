/**
 * Helpers shared by the lifecycle integration tests (spawn, send, list, kill): spawning through
 * lisa in-process, reading artifacts, and a safety net that ends any process a failed test
 * left behind (found by its session's LISA_RUN_ID, never by name).
 */
import { strictEqual } from "node:assert/strict";
import { pidsCarrying, processTable, type ProcRow } from "../../src/core/kill/terminate.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { hasProcFs } from "../../src/proc/table.ts";
import { waitFor, type World } from "../helpers/world.ts";

/** What `spawn --json` printed. */
export interface Spawned {
  session: string;
  runId: string;
  socketPath: string;
  projectHash: string;
  projectRoot: string;
  command: string;
  parentSession: string | null;
  [key: string]: unknown;
}

/** Run ids spawned by the current test file (for {@link endStray}). */
const spawnedRunIds = new Set<string>();

/** Spawns through lisa in-process and returns the JSON payload (asserting exit 0). */
export async function spawn(
  world: World,
  args: string[],
  env: Record<string, string> = {},
): Promise<Spawned> {
  const r = await world.lisaInProcess(["session", "spawn", ...args, "--json"], { env });
  strictEqual(r.code, 0, `spawn failed: ${r.stdout}${r.stderr}`);
  const json = r.json as unknown as Spawned;
  spawnedRunIds.add(json.runId);
  return json;
}

/** Path of one artifact of a spawned session. */
export function artifact(world: World, s: Spawned, kind: string): string {
  return `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-${kind}`;
}

/** Reads a file, or undefined when it does not exist. */
export function readIf(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** Waits for the done file and returns its content (trimmed). */
export async function waitDone(world: World, s: Spawned, timeoutMs = 30_000): Promise<string> {
  const done = await waitFor(() => readIf(artifact(world, s, "done.txt")), timeoutMs);
  if (done === undefined) throw new Error(`no done file for ${s.session}`);
  return done.trim();
}

/** The whole pane text, history included. */
export async function paneText(world: World, s: Spawned): Promise<string> {
  const r = await world.tmux(s.socketPath, [
    "capture-pane",
    "-p",
    "-J",
    "-S",
    "-",
    "-t",
    `=${s.session}:`,
  ]);
  return r.stdout;
}

/** Waits until the pane shows `needle`. */
export async function waitPane(world: World, s: Spawned, needle: string): Promise<string> {
  const text = await waitFor(async () => {
    const t = await paneText(world, s);
    return t.includes(needle) ? t : undefined;
  }, 30_000);
  if (text === undefined) {
    throw new Error(
      `pane of ${s.session} never showed ${JSON.stringify(needle)}:\n${await paneText(world, s)}`,
    );
  }
  return text;
}

/**
 * Running processes (zombies excluded) that carry `runId` in their environment. Read from
 * `/proc` where there is one (lisa's own procfs path): tests poll this every 100 ms, and a `ps`
 * and a `grep` over every process's environment per look cost a busy 2-core machine dearly.
 */
export async function processesOf(runId: string): Promise<ProcRow[]> {
  const runner = new DenoRunner(20_000);
  const procfs = hasProcFs();
  const table = (await processTable(runner, procfs)).filter((p) => p.state !== "Z");
  const pids = new Set(await pidsCarrying(runner, "LISA_RUN_ID", runId, table, procfs));
  return table.filter((p) => pids.has(p.pid));
}

/** Names of the runtime dir's files that belong to `session`. */
export function artifactsOf(world: World, session: string): string[] {
  return [...Deno.readDirSync(world.runtimeDir)].map((e) => e.name).filter((n) =>
    n.includes(`-${session}-`) || n.endsWith(`-${session}.txt`)
  ).sort();
}

/** Safety net for `finally`: SIGKILL every process of a session this file spawned. */
export async function endStray(): Promise<void> {
  // A snapshot: callers that do not await must not reach sessions spawned after the call.
  const runIds = [...spawnedRunIds];
  spawnedRunIds.clear();
  for (const runId of runIds) {
    for (const { pid } of await processesOf(runId)) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* already gone */ }
    }
  }
}
