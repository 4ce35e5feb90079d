/**
 * `session snapshot` (status + pane text, nextOffset, markers, deltas) and `session explain`
 * (status + recent events) against real tmux.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld } from "../helpers/world.ts";
import { endStray, spawn, waitPane } from "./lifecycle_helpers.ts";
import { CountingRunner } from "./status_helpers.ts";

Deno.test("snapshot returns status, text, nextOffset and markers from one tmux call", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "echo alpha; echo MARK_1; sleep 60"]);
    await waitPane(world, s, "MARK_1");
    const runner = new CountingRunner();
    const r = await world.lisaInProcess(["session", "snapshot", "--session", s.session, "--json"], {
      runner,
    });
    strictEqual(r.code, 0, r.stderr);
    strictEqual(runner.calls.length, 1);
    const j = r.json!;
    // A running command is busy evidence, inside the grace window too.
    strictEqual(j.sessionState, "in_progress");
    strictEqual(j.classificationReason, "command_running:sleep");
    // `capture` is the text (the older Go lisa's shape), its facts beside it.
    const capture = j.capture as string;
    ok(capture.includes("alpha\nMARK_1"), capture);
    strictEqual(typeof j.nextOffset, "string");
    strictEqual(typeof j.captureLines, "number");
    const m = await world.lisaInProcess(
      ["session", "snapshot", "--session", s.session, "--markers", "MARK_1,MARK_2", "--json"],
      { runner },
    );
    strictEqual(runner.calls.length, 2);
    deepStrictEqual(m.json!.foundMarkers, ["MARK_1"]);
    deepStrictEqual(m.json!.missingMarkers, ["MARK_2"]);

    // A delta from that offset holds only what came after it.
    await world.tmux(s.socketPath, ["send-keys", "-t", `=${s.session}:`, "C-c"]);
    const d = await world.lisaInProcess([
      "session",
      "snapshot",
      "--session",
      s.session,
      "--delta-from",
      String(j.nextOffset),
      "--json",
    ]);
    strictEqual(d.code, 0, d.stderr);
    strictEqual((d.json!.delta as { reset: boolean }).reset, false);
    strictEqual(String(d.json!.capture).includes("alpha"), false);

    const missing = await world.lisaInProcess([
      "session",
      "snapshot",
      "--session",
      "lisa-absent",
      "--json",
    ]);
    strictEqual(missing.code, 0);
    strictEqual(missing.json!.sessionState, "not_found");
    strictEqual(missing.json!.capture, null);
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("explain shows the status and the session's recent events", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "exit 5"]);
    const r = await world.lisaInProcess([
      "session",
      "explain",
      "--session",
      s.session,
      "--events",
      "5",
      "--json",
    ]);
    strictEqual(r.code, 0, r.stderr);
    const events = r.json!.events as { type: string; reason: string }[];
    ok(events.length >= 2, JSON.stringify(events));
    strictEqual(events[0].type, "lifecycle");
    strictEqual(events[0].reason, "spawn_success");
    strictEqual(events[events.length - 1].reason, r.json!.classificationReason);

    const text = await world.lisaInProcess(["session", "explain", "--session", s.session]);
    ok(text.stdout.includes("events:"), text.stdout);
    ok(text.stdout.includes("spawn_success"));

    const none = await world.lisaInProcess([
      "session",
      "explain",
      "--session",
      s.session,
      "--since",
      "2099-01-01T00:00:00Z",
      "--json",
    ]);
    deepStrictEqual(none.json!.events, []);
    const bad = await world.lisaInProcess([
      "session",
      "explain",
      "--session",
      s.session,
      "--since",
      "soon",
      "--json",
    ]);
    strictEqual(bad.code, 1);
    strictEqual(bad.json!.errorCode, "invalid_argument");
  } finally {
    endStray();
    await world.dispose();
  }
});

Deno.test("explain refuses a symlinked or non-file event log with events_file_unsafe", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "sleep 60"]);
    const events = `${world.runtimeDir}/.lisa-${s.projectHash}-session-${s.session}-events.jsonl`;
    const elsewhere = `${world.base}/elsewhere.jsonl`;
    Deno.writeTextFileSync(
      elsewhere,
      '{"at":"2026-01-01T00:00:00Z","type":"x","reason":"planted"}\n',
    );
    for (const plant of ["symlink", "directory"] as const) {
      Deno.removeSync(events, { recursive: true });
      if (plant === "symlink") Deno.symlinkSync(elsewhere, events);
      else Deno.mkdirSync(events);
      const r = await world.lisaInProcess(["session", "explain", "--session", s.session, "--json"]);
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, "events_file_unsafe", r.stdout);
      strictEqual(r.json?.eventsFile, events);
      ok(String(r.json?.error).includes(plant === "symlink" ? "symlink" : "not a regular file"));
      ok(!r.stdout.includes("planted"));
      const text = await world.lisaInProcess(["session", "explain", "--session", s.session]);
      strictEqual(text.code, 1);
      ok(text.stderr.startsWith("lisa: "), text.stderr);
      ok(!text.stderr.includes("internal"), text.stderr);
    }
  } finally {
    endStray();
    await world.dispose();
  }
});
