/**
 * `lisa session capture` against real tmux: sessions are created directly on the project's
 * socket (as lisa computes it), so these tests do not depend on spawn.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { canonicalProjectRoot, projectHash, projectSlug } from "../../src/core/session/identity.ts";
import { sessionPaths, socketPath } from "../../src/store/runtime_dir.ts";
import type { SessionMeta } from "../../src/base/types.ts";

interface Pane {
  socket: string;
  session: string;
  /** File whose creation lets the pane's script go on. */
  trigger: string;
}

function projectSocket(world: World): { socket: string; hash: string; root: string } {
  const root = canonicalProjectRoot(world.projectRoot, world.projectRoot);
  const hash = projectHash(root);
  return { socket: socketPath(world.socketDir, projectSlug(root), hash), hash, root };
}

/** Starts `script` (bash) in a new 80x10 session; `$T` in the script is the trigger file. */
async function startPane(world: World, session: string, script: string): Promise<Pane> {
  const { socket } = projectSocket(world);
  const trigger = `${world.base}/${session}.go`;
  const res = await world.tmux(socket, [
    "set-option",
    "-g",
    "remain-on-exit",
    "on",
    ";",
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "80",
    "-y",
    "10",
    "--",
    "bash",
    "--norc",
    "-c",
    `T='${trigger}'; ${script}`,
  ]);
  strictEqual(res.code, 0, res.stderr);
  return { socket, session, trigger };
}

async function paneText(world: World, pane: Pane): Promise<string> {
  const res = await world.tmux(pane.socket, [
    "capture-pane",
    "-p",
    "-J",
    "-t",
    `=${pane.session}:`,
    "-S",
    "-",
  ]);
  return res.stdout;
}

async function waitForText(world: World, pane: Pane, needle: RegExp): Promise<void> {
  ok(
    await waitFor(async () => needle.test(await paneText(world, pane)), 15000),
    `${needle} not in: ${await paneText(world, pane)}`,
  );
}

/**
 * Waits until the pane is dead and tmux has drawn its `Pane is dead` row. tmux 3.3a sometimes
 * loses SIGCHLD (DESIGN §4.7); a SIGCHLD to the server makes it notice the exit.
 */
async function waitForDeadRow(world: World, pane: Pane): Promise<void> {
  const pid = Number(
    (await world.tmux(pane.socket, ["display-message", "-p", "-t", `=${pane.session}:`, "#{pid}"]))
      .stdout.trim(),
  );
  const seen = await waitFor(async () => {
    if (/^Pane is dead/m.test(await paneText(world, pane))) return true;
    if (pid > 0) Deno.kill(pid, "SIGCHLD");
    return false;
  }, 15000);
  ok(seen, `no Pane is dead row in: ${await paneText(world, pane)}`);
}

function writeMeta(world: World, session: string, prompt: string): void {
  const { socket, hash, root } = projectSocket(world);
  const meta: SessionMeta = {
    session,
    parentSession: null,
    agent: "claude",
    mode: "interactive",
    projectRoot: root,
    projectHash: hash,
    socketPath: socket,
    startCmd: "bash",
    prompt,
    createdAt: new Date().toISOString(),
    runId: "run-test",
    agentSessionId: null,
    hooks: false,
  };
  const path = sessionPaths(world.runtimeDir, hash, session).meta;
  Deno.writeTextFileSync(path, JSON.stringify(meta), { mode: 0o600 });
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

async function captureJson(world: World, args: string[]): Promise<Record<string, unknown>> {
  const res = await world.lisaInProcess(["session", "capture", ...args, "--json"]);
  strictEqual(res.code, 0, res.stdout + res.stderr);
  ok(res.json, res.stdout);
  return res.json;
}

Deno.test("capture --lines 50 returns exactly the last 50 of 2000 lines, most from history", async () => {
  const world = await makeWorld();
  try {
    const pane = await startPane(world, "lisa-cap-lines", "seq 1 2000; exec sleep 600");
    await waitForText(world, pane, /^2000$/m);
    const json = await captureJson(world, ["--session", pane.session, "--lines", "50"]);
    strictEqual(json.capture, range(1951, 2000).join("\n"));
    strictEqual(json.lines, 50);
    strictEqual(json.paneDead, false);
    ok(typeof json.nextOffset === "string" && /^o2\.\d+\./.test(json.nextOffset));
    const plain = await world.lisa(["session", "capture", "--session", pane.session]);
    strictEqual(plain.stdout, range(1801, 2000).join("\n") + "\n");
  } finally {
    await world.dispose();
  }
});

Deno.test("capture --delta-from returns exactly the 300 lines printed after the offset, although the screen scrolled", async () => {
  const world = await makeWorld();
  try {
    const pane = await startPane(
      world,
      "lisa-cap-delta",
      'seq 1 1000; while [ ! -e "$T" ]; do sleep 0.05; done; seq 1001 1300; exec sleep 600',
    );
    await waitForText(world, pane, /^1000$/m);
    const first = await captureJson(world, ["--session", pane.session]);
    Deno.writeTextFileSync(pane.trigger, "");
    await waitForText(world, pane, /^1300$/m);
    const delta = await captureJson(world, [
      "--session",
      pane.session,
      "--delta-from",
      String(first.nextOffset),
    ]);
    strictEqual(delta.capture, range(1001, 1300).join("\n"));
    strictEqual(delta.lines, 300);
    deepStrictEqual(delta.delta, { from: first.nextOffset, reset: false, source: "flag" });
    const again = await captureJson(world, [
      "--session",
      pane.session,
      "--delta-from",
      String(delta.nextOffset),
    ]);
    strictEqual(again.capture, "");
    strictEqual(again.nextOffset, delta.nextOffset);
  } finally {
    await world.dispose();
  }
});

Deno.test("capture offsets never point into trailing blank rows: text landing in them is returned", async () => {
  const world = await makeWorld();
  try {
    const pane = await startPane(
      world,
      "lisa-cap-blank",
      'printf "a\\n"; while [ ! -e "$T" ]; do sleep 0.05; done; printf "b\\n"; exec sleep 600',
    );
    await waitForText(world, pane, /^a$/m);
    const first = await captureJson(world, ["--session", pane.session]);
    strictEqual(first.capture, "a");
    Deno.writeTextFileSync(pane.trigger, "");
    await waitForText(world, pane, /^b$/m);
    const delta = await captureJson(world, [
      "--session",
      pane.session,
      "--delta-from",
      String(first.nextOffset),
    ]);
    strictEqual(delta.capture, "b");
  } finally {
    await world.dispose();
  }
});

Deno.test("capture reads a dead pane's short output without tmux's Pane is dead row", async () => {
  const world = await makeWorld();
  try {
    // The short sleep lets tmux read the output before the exit: tmux 3.3a can drop the last
    // output of a command that exits at once (lisa's wrapper always does more work after it).
    const pane = await startPane(
      world,
      "lisa-cap-dead",
      "echo hello; echo world; sleep 0.3; exit 3",
    );
    await waitForDeadRow(world, pane);
    const json = await captureJson(world, ["--session", pane.session]);
    strictEqual(json.capture, "hello\nworld");
    strictEqual(json.paneDead, true);
    const raw = await captureJson(world, ["--session", pane.session, "--raw"]);
    strictEqual(raw.capture, "hello\nworld");
    strictEqual(raw.source, "pane");
    const verbatim = await captureJson(world, ["--session", pane.session, "--verbatim"]);
    strictEqual(verbatim.capture, "hello\nworld");
  } finally {
    await world.dispose();
  }
});

Deno.test("capture --markers counts markers, but not in a line that only echoes the prompt", async () => {
  const world = await makeWorld();
  try {
    const prompt = "Say hello and then print MARK_OK on its own line";
    const session = "lisa-cap-markers";
    writeMeta(world, session, prompt);
    const pane = await startPane(
      world,
      session,
      `printf '> ${prompt}\\n\\n'; while [ ! -e "$T" ]; do sleep 0.05; done; ` +
        "printf 'hello\\nMARK_OK\\n'; exec sleep 600",
    );
    await waitForText(world, pane, /^> Say hello/m);
    const before = await captureJson(world, ["--session", session, "--markers", "MARK_OK,NOPE"]);
    // The older Go lisa's marker fields, and (unlike it) the text beside them.
    deepStrictEqual(
      [before.foundMarkers, before.missingMarkers, before.markerCounts, before.markerMatches],
      [[], ["MARK_OK", "NOPE"], { MARK_OK: 0, NOPE: 0 }, { MARK_OK: false, NOPE: false }],
    );
    deepStrictEqual(before.markers, ["MARK_OK", "NOPE"]);
    ok(String(before.capture).includes("> Say hello"), JSON.stringify(before));
    // A cursor file read with markers moves past what it returned, so it returns the text too:
    // it used to move past lines it never gave, and the next read started after them.
    const cursor = `${world.base}/cursor`;
    await captureJson(world, ["--session", session, "--cursor-file", cursor]);
    Deno.writeTextFileSync(pane.trigger, "");
    await waitForText(world, pane, /^MARK_OK$/m);
    const marked = await captureJson(world, [
      "--session",
      session,
      "--cursor-file",
      cursor,
      "--markers",
      "MARK_OK",
    ]);
    deepStrictEqual(marked.foundMarkers, ["MARK_OK"]);
    ok(/hello\nMARK_OK/.test(String(marked.capture)), JSON.stringify(marked));
    const snap = await world.lisaInProcess([
      "session",
      "snapshot",
      "--session",
      session,
      "--markers",
      "MARK_OK",
      "--json",
    ]);
    ok(/hello\nMARK_OK/.test(String(snap.json?.capture)), snap.stdout);
    deepStrictEqual(snap.json?.foundMarkers, ["MARK_OK"]);
    await waitForText(world, pane, /^MARK_OK$/m);
    const after = await captureJson(world, ["--session", session, "--markers", "MARK_OK,NOPE"]);
    deepStrictEqual(
      [after.foundMarkers, after.missingMarkers, after.markerCounts, after.markerMatches],
      [["MARK_OK"], ["NOPE"], { MARK_OK: 1, NOPE: 0 }, { MARK_OK: true, NOPE: false }],
    );
    const human = await world.lisaInProcess([
      "session",
      "capture",
      "--session",
      session,
      "--markers",
      "MARK_OK,NOPE",
    ]);
    ok(human.stdout.endsWith("markers: found=MARK_OK missing=NOPE counts=MARK_OK:1,NOPE:0\n"));
  } finally {
    await world.dispose();
  }
});

Deno.test("capture --cursor-file keeps the offset between calls", async () => {
  const world = await makeWorld();
  try {
    const pane = await startPane(
      world,
      "lisa-cap-cursor",
      'seq 1 5; while [ ! -e "$T" ]; do sleep 0.05; done; seq 6 8; exec sleep 600',
    );
    await waitForText(world, pane, /^5$/m);
    const cursor = `${world.base}/cursor.txt`;
    const args = ["--session", pane.session, "--cursor-file", cursor];
    const first = await captureJson(world, args);
    strictEqual(first.capture, range(1, 5).join("\n"));
    strictEqual(Deno.readTextFileSync(cursor).trim(), first.nextOffset);
    strictEqual((Deno.statSync(cursor).mode ?? 0) & 0o777, 0o600);
    Deno.writeTextFileSync(pane.trigger, "");
    await waitForText(world, pane, /^8$/m);
    const second = await captureJson(world, args);
    strictEqual(second.capture, "6\n7\n8");
    deepStrictEqual(second.delta, { from: first.nextOffset, reset: false, source: "cursor_file" });
    strictEqual(Deno.readTextFileSync(cursor).trim(), second.nextOffset);
    const third = await captureJson(world, args);
    strictEqual(third.capture, "");

    const link = `${world.base}/link.txt`;
    Deno.symlinkSync(cursor, link);
    const refused = await world.lisaInProcess([
      "session",
      "capture",
      "--session",
      pane.session,
      "--cursor-file",
      link,
      "--json",
    ]);
    strictEqual(refused.code, 1);
    strictEqual(refused.json?.errorCode, "cursor_file_unsafe");
  } finally {
    await world.dispose();
  }
});

Deno.test("capture of a missing session fails with session_not_found", async () => {
  const world = await makeWorld();
  try {
    const res = await world.lisaInProcess([
      "session",
      "capture",
      "--session",
      "lisa-cap-nothing",
      "--json",
    ]);
    strictEqual(res.code, 1);
    strictEqual(res.json?.errorCode, "session_not_found");
  } finally {
    await world.dispose();
  }
});

Deno.test("offsets of capture, snapshot and monitor place a delta exactly in repetitive output longer than their window", async () => {
  const world = await makeWorld();
  try {
    const pane = await startPane(
      world,
      "lisa-cap-ticks",
      'for i in $(seq 1 400); do echo tick; done; while [ ! -e "$T" ]; do sleep 0.05; done; ' +
        "echo tock1; exec sleep 600",
    );
    await waitForText(world, pane, /(^tick\n){400}/m);
    const base = ["--session", pane.session];
    const fromCapture = String((await captureJson(world, base)).nextOffset);
    const snap = await world.lisaInProcess(["session", "snapshot", ...base, "--json"]);
    strictEqual(snap.code, 0, snap.stdout + snap.stderr);
    const fromSnapshot = String(snap.json?.nextOffset);
    const mon = await world.lisaInProcess([
      "session",
      "monitor",
      ...base,
      "--max-polls",
      "1",
      "--stop-on-waiting",
      "false",
      "--json",
    ]);
    ok(mon.json, mon.stdout + mon.stderr);
    const fromMonitor = String(mon.json.nextOffset);
    const offsets = { capture: fromCapture, snapshot: fromSnapshot, monitor: fromMonitor };

    for (const [kind, offset] of Object.entries(offsets)) {
      const quiet = await captureJson(world, [...base, "--delta-from", offset]);
      deepStrictEqual([kind, quiet.capture, quiet.lines], [kind, "", 0]);
    }
    Deno.writeTextFileSync(pane.trigger, "");
    await waitForText(world, pane, /^tock1$/m);
    for (const [kind, offset] of Object.entries(offsets)) {
      const after = await captureJson(world, [...base, "--delta-from", offset]);
      deepStrictEqual([kind, after.capture, after.delta], [kind, "tock1", {
        from: offset,
        reset: false,
        source: "flag",
      }]);
      const snapDelta = await world.lisaInProcess([
        "session",
        "snapshot",
        ...base,
        "--delta-from",
        offset,
        "--json",
      ]);
      strictEqual(snapDelta.json?.capture, "tock1", kind);
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("capture deltas across a pager: back from the alternate screen, nothing of the normal screen again", async () => {
  const world = await makeWorld();
  try {
    // Two triggers: $T opens the pager (the alternate screen, fewer rows than the normal one),
    // $T.2 closes it; then one more line.
    const pane = await startPane(
      world,
      "lisa-cap-pager",
      "printf 'start\\na 1\\na 2\\na 3\\na 4\\na 5\\n'; " +
        'while [ ! -e "$T" ]; do sleep 0.05; done; ' +
        "printf '\\033[?1049h\\033[Hpager row 1\\npager row 2\\n'; " +
        'while [ ! -e "$T.2" ]; do sleep 0.05; done; ' +
        "printf '\\033[?1049l'; echo after-pager; exec sleep 600",
    );
    await waitForText(world, pane, /^a 5$/m);
    const first = await captureJson(world, ["--session", pane.session]);
    Deno.writeTextFileSync(pane.trigger, "");
    await waitForText(world, pane, /^pager row 2$/m);
    const inPager = await captureJson(world, [
      "--session",
      pane.session,
      "--delta-from",
      String(first.nextOffset),
    ]);
    ok(String(inPager.nextOffset).includes("~"), String(inPager.nextOffset));
    Deno.writeTextFileSync(`${pane.trigger}.2`, "");
    await waitForText(world, pane, /^after-pager$/m);
    const back = await captureJson(world, [
      "--session",
      pane.session,
      "--delta-from",
      String(inPager.nextOffset),
    ]);
    strictEqual((back.delta as { reset: boolean }).reset, false);
    const got = [...String(back.capture).split("\n"), ...(back.live as string[] ?? [])];
    ok(!got.some((l) => /^(start|a \d)$/.test(l)), `repeated: ${JSON.stringify(back)}`);
    ok(got.includes("after-pager"), JSON.stringify(back));
  } finally {
    await world.dispose();
  }
});

Deno.test("capture deltas across a pager: lines that scrolled up just before it come once", async () => {
  const world = await makeWorld();
  try {
    const pane = await startPane(
      world,
      "lisa-cap-pager2",
      'seq 1 30; while [ ! -e "$T" ]; do sleep 0.05; done; seq 101 120; ' +
        "printf '\\033[?1049h\\033[Hpager row 1\\npager row 2\\n'; " +
        'while [ ! -e "$T.2" ]; do sleep 0.05; done; ' +
        "printf '\\033[?1049l'; echo after-pager; exec sleep 600",
    );
    await waitForText(world, pane, /^30$/m);
    const first = await captureJson(world, ["--session", pane.session]);
    Deno.writeTextFileSync(pane.trigger, "");
    await waitForText(world, pane, /^pager row 2$/m);
    const got: string[] = [];
    const take = (view: Record<string, unknown>) => {
      const text = String(view.capture);
      if (text !== "") got.push(...text.split("\n"));
      return view;
    };
    const inPager = take(
      await captureJson(world, [
        "--session",
        pane.session,
        "--delta-from",
        String(first.nextOffset),
      ]),
    );
    Deno.writeTextFileSync(`${pane.trigger}.2`, "");
    await waitForText(world, pane, /^after-pager$/m);
    const back = take(
      await captureJson(world, [
        "--session",
        pane.session,
        "--delta-from",
        String(inPager.nextOffset),
      ]),
    );
    got.push(...(back.live as string[] ?? []));
    // 101..120 scrolled into history as the pager opened: each comes exactly once; nothing of
    // 1..30 comes again.
    const numbers = got.filter((l) => /^\d+$/.test(l));
    deepStrictEqual(numbers, range(101, 120), JSON.stringify({ inPager, back }));
    ok(got.includes("after-pager"), JSON.stringify(back));
  } finally {
    await world.dispose();
  }
});
