/**
 * Issue 20 §3 against real tmux: an alias (and a unique prefix of one) keeps naming its session
 * after kill, for as long as its event log, its history row or its kept worktree is there.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor } from "../helpers/world.ts";
import { endStray, readIf, spawn } from "./lifecycle_helpers.ts";
import { gitIn, makeGitWorld, spawnWt } from "./worktree_helpers.ts";

/** The runtime dir's event logs (and their locks). */
function eventLogs(runtimeDir: string): string[] {
  return [...Deno.readDirSync(runtimeDir)].map((e) => e.name)
    .filter((n) => /-events\.jsonl(\.lock)?$/.test(n)).map((n) => `${runtimeDir}/${n}`);
}

Deno.test("after kill an alias and its prefix still name the session: status not_found, kill says gone, history show and turns", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "sleep 120"]);
    const alias = s.alias as string;
    const prefix = alias.slice(0, alias.lastIndexOf("-") + 2);
    const killed = await world.lisaInProcess(["session", "kill", "--session", alias, "--json"]);
    strictEqual(killed.code, 0, killed.stdout);

    // The full name too says which alias it had (it answered alias null).
    for (const value of [alias, prefix, s.session]) {
      const st = await world.lisaInProcess(["session", "status", "--session", value, "--json"]);
      strictEqual(st.code, 0, `${value}: ${st.stdout}`);
      strictEqual(st.json!.session, s.session);
      strictEqual(st.json!.alias, alias);
      strictEqual(st.json!.sessionState, "not_found");
      const ex = await world.lisaInProcess(["session", "exists", "--session", value, "--json"]);
      strictEqual(ex.json!.session, s.session, ex.stdout);
      strictEqual(ex.json!.exists, false);
    }
    const again = await world.lisaInProcess(["session", "kill", "--session", prefix, "--json"]);
    strictEqual(again.code, 1, again.stdout);
    strictEqual(again.json!.errorCode, "session_not_found");
    strictEqual(again.json!.session, s.session);
    ok(String(again.json!.error).includes("already gone"), again.stdout);

    const shown = await world.lisaInProcess(["history", "show", prefix, "--json"]);
    strictEqual(shown.code, 0, shown.stdout + shown.stderr);
    strictEqual(shown.json!.session, s.session);
    const turns = await world.lisaInProcess(["session", "turns", "--session", alias, "--json"]);
    strictEqual(turns.code, 0, turns.stdout + turns.stderr);
    strictEqual(turns.json!.session, s.session);

    // Once the event log is gone too, the history row still knows the alias.
    for (const path of eventLogs(world.runtimeDir)) Deno.removeSync(path);
    const late = await world.lisaInProcess(["session", "status", "--session", prefix, "--json"]);
    strictEqual(late.code, 0, late.stdout);
    strictEqual(late.json!.session, s.session);
    strictEqual(late.json!.sessionState, "not_found");
    // A value nothing knows is still refused, and says what a session value may be.
    const none = await world.lisaInProcess(["session", "status", "--session", "zzz-no", "--json"]);
    strictEqual(none.code, 1);
    strictEqual(none.json!.errorCode, "invalid_session_name");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a prefix a running and a killed session share is ambiguous: kill of it ends nothing", async () => {
  const world = await makeWorld();
  try {
    const live = await spawn(world, ["--command", "sleep 120", "--tag", "live"]);
    const gone = await spawn(world, ["--command", "sleep 120", "--tag", "gone"]);
    const k = await world.lisaInProcess(["session", "kill", "--session", gone.session, "--json"]);
    strictEqual(k.code, 0, k.stdout);
    // Every alias of the project starts with "project-".
    const amb = await world.lisaInProcess(["session", "kill", "--session", "project-", "--json"]);
    strictEqual(amb.code, 1, amb.stdout);
    strictEqual(amb.json!.errorCode, "session_ambiguous");
    deepStrictEqual(
      (amb.json!.candidates as { session: string }[]).map((c) => c.session).sort(),
      [live.session, gone.session].sort(),
    );
    const st = await world.lisaInProcess([
      "session",
      "status",
      "--session",
      live.session,
      "--json",
    ]);
    ok(["just_started", "in_progress"].includes(st.json!.sessionState as string), st.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("diff and merge of a killed worktree session by its alias, once only its worktree record knows it", async () => {
  const world = await makeGitWorld();
  try {
    const s = await spawnWt(world, "echo changed > f.txt; sleep 120");
    const alias = (s as unknown as { alias: string }).alias;
    await waitFor(() => readIf(`${s.worktree.path}/f.txt`) === "changed\n", 20_000);
    const killed = await world.lisaInProcess(["session", "kill", "--session", alias, "--json"]);
    strictEqual(killed.code, 0, killed.stdout);
    // Nothing of it left in the runtime dir or history: the record beside the worktree remains.
    for (const path of eventLogs(world.runtimeDir)) Deno.removeSync(path);
    Deno.removeSync(`${world.home}/.local/state/lisa/history.db`);
    const prefix = alias.slice(0, alias.lastIndexOf("-") + 2);
    const diff = await world.lisaInProcess(["session", "diff", prefix, "--json"]);
    strictEqual(diff.code, 0, diff.stdout + diff.stderr);
    strictEqual(diff.json!.session, s.session);
    ok(
      (diff.json!.files as { path: string }[]).some((f) => f.path === "f.txt"),
      diff.stdout,
    );
    const merged = await world.lisaInProcess(["session", "merge", alias, "--json"]);
    strictEqual(merged.code, 0, merged.stdout + merged.stderr);
    strictEqual(
      (await gitIn(world, world.projectRoot, ["show", "HEAD:f.txt"])).trim(),
      "changed",
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});
