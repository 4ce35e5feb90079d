/** list, exists and kill-all against real tmux, across two projects' servers. */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import {
  artifactsOf,
  endStray,
  processesOf,
  spawn,
  type Spawned,
  waitDone,
} from "./lifecycle_helpers.ts";

interface Row {
  session: string;
  agent: string;
  mode: string;
  projectRoot: string;
  createdAt: string;
  alive: boolean;
}

async function list(
  world: World,
  args: string[] = [],
): Promise<{ sessions: Row[]; count: number }> {
  const r = await world.lisaInProcess(["session", "list", "--json", ...args]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  // `sessions` holds the names, `items` the rows (the older Go lisa's shape).
  const json = r.json as unknown as { sessions: string[]; items: Row[]; count: number };
  deepStrictEqual(json.sessions, json.items.map((i) => i.session));
  return { sessions: json.items, count: json.count };
}

async function twoProjects(world: World): Promise<{ here: Spawned[]; there: Spawned }> {
  const other = `${world.base}/other`;
  Deno.mkdirSync(other);
  const a = await spawn(world, ["--agent", "claude", "--session", "lisa-l-a"]);
  const b = await spawn(world, [
    "--agent",
    "codex",
    "--mode",
    "exec",
    "--prompt",
    "x",
    "--session",
    "lisa-l-b",
  ]);
  const there = await spawn(world, [
    "--command",
    "sleep 300",
    "--session",
    "lisa-l-there",
    "--project-root",
    other,
  ]);
  await waitDone(world, b);
  // The done file is written just before the wrapper exits; wait until tmux has the pane dead.
  await waitFor(
    async () => (await list(world)).sessions.some((s) => s.session === b.session && !s.alive),
    30_000,
  );
  return { here: [a, b], there };
}

Deno.test("list shows the project's sessions as objects, and a table for people", async () => {
  const world = await makeWorld();
  try {
    const empty = await list(world);
    deepStrictEqual(empty.sessions, []);
    strictEqual(empty.count, 0);
    const { here } = await twoProjects(world);
    const j = await list(world);
    strictEqual(j.count, 2);
    deepStrictEqual(j.sessions.map((s) => s.session), ["lisa-l-a", "lisa-l-b"]);
    const a = j.sessions[0];
    strictEqual(a.agent, "claude");
    strictEqual(a.mode, "interactive");
    strictEqual(a.projectRoot, world.projectRoot.replace(/\/$/, ""));
    strictEqual(a.alive, true);
    strictEqual(a.createdAt, here[0].createdAt);
    strictEqual(j.sessions[1].alive, false);
    const table = await world.lisa(["session", "list"]);
    strictEqual(table.code, 0, table.stderr);
    const lines = table.stdout.trim().split("\n");
    ok(/^ALIAS\s+STATE\s+NEEDS\s+AGENT\/MODE\s+AGE\s+LAST OUTPUT$/.test(lines[0]), lines[0]);
    // Sessions named with --session have no generated alias: the name shows in its place.
    const rowOf = (s: Spawned) => lines.find((l) => l.startsWith(`${s.session} `)) ?? "";
    ok(
      /^\S+\s+(just_started|in_progress|waiting_input)\s+(input\s+)?claude\/interactive\s+(just now|\d+s ago)/
        .test(rowOf(here[0])),
      table.stdout,
    );
    ok(/^\S+\s+completed 0\s+codex\/exec\s+/.test(rowOf(here[1])), table.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("list --all-sockets covers every project's server; --project-only keeps this project's", async () => {
  const world = await makeWorld();
  try {
    const { there } = await twoProjects(world);
    const all = await list(world, ["--all-sockets"]);
    deepStrictEqual(all.sessions.map((s) => s.session).sort(), [
      "lisa-l-a",
      "lisa-l-b",
      "lisa-l-there",
    ]);
    const mine = await list(world, ["--all-sockets", "--project-only"]);
    deepStrictEqual(mine.sessions.map((s) => s.session).sort(), ["lisa-l-a", "lisa-l-b"]);
    // A dead socket file left behind is skipped quietly.
    Deno.writeTextFileSync(`${world.socketDir}/lisa-tmux-dead-0badc0de.sock`, "");
    strictEqual((await list(world, ["--all-sockets"])).count, 3);
    const theirs = await list(world, ["--project-root", there.projectRoot]);
    deepStrictEqual(theirs.sessions.map((s) => s.session), ["lisa-l-there"]);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("exists exits 0 for a live session and 1 otherwise, from any directory", async () => {
  const world = await makeWorld();
  try {
    const { there } = await twoProjects(world);
    const yes = await world.lisa(["session", "exists", "--session", there.session]);
    strictEqual(yes.code, 0);
    strictEqual(yes.stdout, "true\n");
    const no = await world.lisa(["session", "exists", "--session", "lisa-nope", "--json"]);
    strictEqual(no.code, 1);
    strictEqual(no.json?.exists, false);
    strictEqual(no.json?.session, "lisa-nope");
    const j = await world.lisaInProcess(["session", "exists", "--session", "lisa-l-a", "--json"]);
    strictEqual(j.code, 0);
    strictEqual(j.json?.exists, true);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill-all --project-only ends this project's sessions and leaves the others", async () => {
  const world = await makeWorld();
  try {
    const { here, there } = await twoProjects(world);
    const r = await world.lisaInProcess(["session", "kill-all", "--project-only", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual((r.json!.killed as string[]).sort(), ["lisa-l-a", "lisa-l-b"]);
    strictEqual(r.json!.count, 2);
    for (const s of here) deepStrictEqual(await processesOf(s.runId), []);
    strictEqual((await list(world, ["--all-sockets"])).count, 1);
    ok((await processesOf(there.runId)).length > 0);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill-all ends every lisa session on every server and cleans the names under every hash", async () => {
  const world = await makeWorld();
  try {
    const { here, there } = await twoProjects(world);
    // A stale artifact of the same name under another hash.
    const stale = `${world.runtimeDir}/.lisa-0000beef-session-${here[0].session}-state.json`;
    Deno.writeTextFileSync(stale, "{}");
    const r = await world.lisa(["session", "kill-all", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual((r.json!.killed as string[]).sort(), ["lisa-l-a", "lisa-l-b", "lisa-l-there"]);
    strictEqual(r.json!.cleanupAllHashes, true);
    for (const s of [...here, there]) {
      deepStrictEqual(await processesOf(s.runId), []);
      deepStrictEqual(artifactsOf(world, s.session).filter((n) => !n.includes("events.jsonl")), []);
    }
    strictEqual((await list(world, ["--all-sockets"])).count, 0);
    const human = await world.lisaInProcess(["session", "kill-all"]);
    strictEqual(human.stdout, "killed 0 sessions\n");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("kill-all ends two projects' sessions of the same name, each on its own server", async () => {
  const world = await makeWorld();
  try {
    const other = `${world.base}/other`;
    Deno.mkdirSync(other);
    const mine = await spawn(world, ["--command", "sleep 300", "--session", "lisa-twin"]);
    const theirs = await spawn(world, [
      "--command",
      "sleep 300",
      "--session",
      "lisa-twin",
      "--project-root",
      other,
    ]);
    ok(mine.socketPath !== theirs.socketPath);
    const r = await world.lisa(["session", "kill-all", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual(r.json!.killed, ["lisa-twin", "lisa-twin"]);
    for (const s of [mine, theirs]) deepStrictEqual(await processesOf(s.runId), [], s.socketPath);
    strictEqual((await list(world, ["--all-sockets"])).count, 0);
  } finally {
    await endStray();
    await world.dispose();
  }
});
