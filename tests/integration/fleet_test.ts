/**
 * Issue 11: `list`, `list --json` and `tree --with-state` classify every session live, with the
 * answer `status` gives, from one tmux invocation per server whatever the number of sessions.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { endStray, readIf, spawn, type Spawned, waitDone, waitPane } from "./lifecycle_helpers.ts";
import { CountingRunner, status } from "./status_helpers.ts";

type Row = Record<string, unknown> & {
  session: string;
  alias: string | null;
  state: string | null;
  waitingFor: string | null;
  classificationReason: string | null;
  exitCode: number | null;
};

async function listJson(world: World, runner?: CountingRunner): Promise<Row[]> {
  const r = await world.lisaInProcess(["session", "list", "--json"], { runner });
  strictEqual(r.code, 0, r.stdout + r.stderr);
  // The older Go tool's shape: `sessions` names them, `items` are the rows.
  const j = r.json as { sessions: string[]; items: Row[] };
  deepStrictEqual(j.items.map((i) => i.session), j.sessions);
  return j.items;
}

function hookSeen(world: World, s: Spawned, event: string): boolean {
  const text = readIf(
    `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-hooks.jsonl`,
  );
  return (text ?? "").split("\n").some((l) => l.includes(`"${event}"`));
}

Deno.test("list, list --json and tree --with-state show five sessions' live states as status does", async () => {
  const world = await makeWorld();
  try {
    const working = await spawn(world, ["--agent", "claude", "--tag", "working"], {
      FAKE_BEHAVIOR: "busy",
    });
    const idle = await spawn(world, ["--agent", "claude", "--tag", "idle", "--prompt", "hi"], {
      FAKE_BEHAVIOR: "idle",
    });
    const permission = await spawn(
      world,
      ["--agent", "claude", "--tag", "perm", "--no-dangerously-skip-permissions"],
      { FAKE_BEHAVIOR: "idle", FAKE_PERMISSION: "1" },
    );
    const ok0 = await spawn(world, ["--command", "echo done", "--tag", "zero"]);
    const three = await spawn(world, ["--command", "echo failing; exit 3", "--tag", "three"]);
    await waitPane(world, permission, "> ");
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      permission.session,
      "--text",
      "make a file",
      "--enter",
    ]);
    strictEqual(sent.code, 0, sent.stderr);
    await waitFor(() => hookSeen(world, permission, "Notification"), 30_000);
    await waitDone(world, ok0);
    await waitDone(world, three);
    await waitFor(() => hookSeen(world, idle, "Stop"), 30_000);
    // Past the grace window of every session, and no status call has been made.
    await new Promise((r) => setTimeout(r, world.graceSeconds * 1000 + 500));

    const runner = new CountingRunner();
    let rows = await listJson(world, runner);
    strictEqual(runner.count("tmux"), 1, JSON.stringify(runner.calls.map((c) => c.slice(0, 4))));
    strictEqual(runner.count("ps"), 0);
    // The busy fake's CPU is read over list's one 150 ms sample (no status call stored one). On
    // a loaded machine its loop may get no clock tick in it: then that reading's quiet answer is
    // the only other one allowed, and the next list, which has this one's sample (a longer
    // window), shows it busy.
    const first = rows.find((r) => r.session === working.session);
    if (first?.state !== "in_progress") {
      strictEqual(first?.classificationReason, "agent_quiet", JSON.stringify(first));
      const busy = await waitFor(async () => {
        const again = await listJson(world);
        return again.find((r) => r.session === working.session)?.state === "in_progress"
          ? again
          : undefined;
      }, 30_000);
      ok(busy !== undefined, "list never saw the busy agent's CPU");
      rows = busy;
    }
    const by = new Map(rows.map((r) => [r.session, r]));
    const expect: [Spawned, string, string | null, number | null][] = [
      [working, "in_progress", null, null],
      [idle, "waiting_input", "input", null],
      [permission, "waiting_input", "permission", null],
      [ok0, "completed", null, 0],
      [three, "crashed", null, 3],
    ];
    for (const [s, state, waitingFor, exitCode] of expect) {
      const row = by.get(s.session)!;
      ok(row !== undefined, s.session);
      strictEqual(row.state, state, `${s.session}: ${JSON.stringify(row)}`);
      strictEqual(row.waitingFor, waitingFor, s.session);
      strictEqual(row.exitCode, exitCode, s.session);
      strictEqual(row.alias, s.alias);
    }

    const tree = await world.lisaInProcess(["session", "tree", "--with-state", "--flat", "--json"]);
    strictEqual(tree.code, 0, tree.stderr);
    const treeRows = (tree.json as { rows: Row[] }).rows;
    // Every answer equals what status says now (status runs after list and tree).
    for (const [s] of expect) {
      const st = await status(world, s.session);
      const row = by.get(s.session)!;
      const node = treeRows.find((r) => r.session === s.session)!;
      for (const got of [row, node]) {
        strictEqual(got.state ?? null, st.sessionState, s.session);
        strictEqual(got.waitingFor ?? null, st.waitingFor, s.session);
        strictEqual(got.classificationReason, st.classificationReason, s.session);
        strictEqual(got.exitCode ?? null, st.exitCode, s.session);
      }
    }

    // The table: the permission dialog first, NEEDS says what each waits for.
    const table = await world.lisaInProcess(["session", "list"]);
    strictEqual(table.code, 0, table.stderr);
    const lines = table.stdout.trim().split("\n");
    ok(lines[0].startsWith("ALIAS"), lines[0]);
    for (const h of ["STATE", "NEEDS", "AGENT/MODE", "AGE", "LAST OUTPUT"]) {
      ok(lines[0].includes(h), lines[0]);
    }
    ok(lines[1].startsWith(permission.alias as string), table.stdout);
    ok(lines[1].includes("permission"), table.stdout);
    ok(lines[2].startsWith(idle.alias as string) && lines[2].includes("input"), table.stdout);
    ok(!table.stdout.includes("\x1b["), "no colour without a terminal");
    for (const [s, state, , exitCode] of expect) {
      const line = lines.find((l) => l.startsWith(`${s.alias} `)) ?? "";
      const shown = exitCode === null ? state : `${state} ${exitCode}`;
      ok(new RegExp(`^\\S+\\s+${shown}\\s`).test(line), `${shown}: ${line}`);
    }
    const wide = await world.lisaInProcess(["session", "list", "--wide"]);
    ok(wide.stdout.includes(working.session), wide.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("list costs one tmux call per server for 1 session and for 10", async () => {
  const world = await makeWorld();
  try {
    await spawn(world, ["--command", "sleep 120", "--tag", "s0"]);
    const one = new CountingRunner();
    strictEqual((await listJson(world, one)).length, 1);
    for (let i = 1; i < 10; i++) await spawn(world, ["--command", "sleep 120", "--tag", `s${i}`]);
    const ten = new CountingRunner();
    const rows = await listJson(world, ten);
    strictEqual(rows.length, 10);
    deepStrictEqual([one.count("tmux"), one.count("ps")], [1, 0]);
    deepStrictEqual([ten.count("tmux"), ten.count("ps")], [1, 0]);
    ok(
      rows.every((r) => r.state === "in_progress" || r.state === "just_started"),
      JSON.stringify(rows),
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});
