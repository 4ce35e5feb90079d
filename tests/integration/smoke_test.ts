/**
 * `lisa session smoke`: the nested L1 → LN run through lisa itself, against real tmux.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, type World } from "../helpers/world.ts";

interface Node {
  session: string;
  parentSession: string | null;
  children: Node[];
}

/**
 * Smoke's levels are scripts of several lisa calls, and a level is polled until `completed`:
 * past its grace window, a poll that lands between two of those calls (only the shell in the
 * pane) reads `stuck`, which ends the run. The product's 8 s window outlasts a smoke run; the
 * tests' short one did not, on a busy machine.
 */
const SMOKE_WORLD = { windows: "product" } as const;

async function tmuxSessions(world: World): Promise<string[]> {
  const out: string[] = [];
  for (const e of Deno.readDirSync(world.socketDir)) {
    if (!e.name.endsWith(".sock")) continue;
    const r = await world.tmux(`${world.socketDir}/${e.name}`, [
      "list-sessions",
      "-F",
      "#{session_name}",
    ]);
    if (r.code === 0) out.push(...r.stdout.split("\n").filter((s) => s !== ""));
  }
  return out;
}

for (const levels of [1, 2, 3, 4]) {
  Deno.test(`smoke --levels ${levels} passes every marker up to L1 and cleans up`, async () => {
    const world = await makeWorld(SMOKE_WORLD);
    try {
      const r = await world.lisaInProcess([
        "session",
        "smoke",
        "--levels",
        String(levels),
        "--json",
      ]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      const s = r.json!;
      strictEqual(s.ok, true, r.stdout);
      strictEqual(s.levels, levels);
      strictEqual((s.sessions as string[]).length, levels);
      deepStrictEqual(
        s.markers,
        Array.from({ length: levels }, (_, i) => `LISA_SMOKE_L${i + 1}_DONE`),
      );
      deepStrictEqual(s.missingMarkers, []);
      ok(typeof s.durationMs === "number");
      strictEqual(s.stderrPolicy, "diagnostic");
      // Descendants first, L1 last.
      deepStrictEqual(s.killed, [...(s.sessions as string[])].reverse());
      deepStrictEqual(await tmuxSessions(world), []);
      // Nothing is left behind: no socket, no artifacts, no event logs.
      deepStrictEqual([...Deno.readDirSync(world.socketDir)], []);
      deepStrictEqual([...Deno.readDirSync(world.runtimeDir)].map((e) => e.name), []);
    } finally {
      await world.dispose();
    }
  });
}

Deno.test("smoke --keep-sessions leaves the chain linked parent to child", async () => {
  const world = await makeWorld(SMOKE_WORLD);
  try {
    const r = await world.lisaInProcess([
      "session",
      "smoke",
      "--levels",
      "3",
      "--keep-sessions",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    const sessions = r.json!.sessions as string[];
    strictEqual(r.json!.keptSessions, true);
    deepStrictEqual(r.json!.killed, []);
    deepStrictEqual((await tmuxSessions(world)).sort(), [...sessions].sort());

    const t = await world.lisaInProcess(["session", "tree", "--json", "--with-state"]);
    const roots = t.json!.roots as (Node & { state: string })[];
    strictEqual(roots.length, 1);
    strictEqual(roots[0].session, sessions[0]);
    strictEqual(roots[0].state, "completed");
    strictEqual(roots[0].children[0].session, sessions[1]);
    strictEqual(roots[0].children[0].children[0].session, sessions[2]);
    strictEqual(roots[0].children[0].children[0].parentSession, sessions[1]);

    const k = await world.lisaInProcess(["session", "kill", "--session", sessions[0], "--json"]);
    strictEqual(k.code, 0, k.stdout + k.stderr);
    deepStrictEqual(k.json!.killed, [...sessions].reverse());
    deepStrictEqual(await tmuxSessions(world), []);
  } finally {
    await world.dispose();
  }
});

Deno.test("smoke runs as a subprocess the way deno task smoke does", async () => {
  const world = await makeWorld(SMOKE_WORLD);
  try {
    const r = await world.lisa(["session", "smoke", "--levels", "2", "--json"]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    strictEqual(r.json!.ok, true);
    deepStrictEqual(r.json!.missingMarkers, []);
  } finally {
    await world.dispose();
  }
});

Deno.test("smoke refuses more than four levels", async () => {
  const world = await makeWorld(SMOKE_WORLD);
  try {
    const r = await world.lisaInProcess(["session", "smoke", "--levels", "5", "--json"]);
    strictEqual(r.code, 1);
    strictEqual(r.json!.ok, false);
    strictEqual(r.json!.errorCode, "invalid_argument");
  } finally {
    await world.dispose();
  }
});

Deno.test("a failed smoke's --report-min still says why: error and L1's last pane lines", async () => {
  const world = await makeWorld(SMOKE_WORLD);
  try {
    // L1 cannot start L2: its lisa is a program that fails.
    const r = await world.lisaInProcess(
      ["session", "smoke", "--levels", "2", "--timeout-seconds", "30", "--report-min", "--json"],
      { selfCommand: ["false"] },
    );
    strictEqual(r.code, 1, r.stdout + r.stderr);
    const s = r.json!;
    strictEqual(s.ok, false);
    strictEqual(s.errorCode, "smoke_failed");
    deepStrictEqual(s.missingMarkers, ["LISA_SMOKE_L1_DONE", "LISA_SMOKE_L2_DONE"]);
    ok(typeof s.error === "string" && s.error.startsWith("L1 ended"), String(s.error));
    const output = s.output as string[];
    ok(output.some((l) => l.includes("smoke L1: spawn of L2 failed")), output.join("\n"));
    // Nothing is left behind by the failed run either.
    deepStrictEqual(await tmuxSessions(world), []);
  } finally {
    await world.dispose();
  }
});

Deno.test("a passing smoke's --report-min stays compact", async () => {
  const world = await makeWorld(SMOKE_WORLD);
  try {
    const r = await world.lisaInProcess(
      ["session", "smoke", "--levels", "1", "--report-min", "--json"],
    );
    strictEqual(r.code, 0, r.stdout + r.stderr);
    deepStrictEqual(Object.keys(r.json!).sort(), [
      "errorCode",
      "finalState",
      "missingMarkers",
      "ok",
      "stderrPolicy",
    ]);
  } finally {
    await world.dispose();
  }
});
