/**
 * `lisa session watch` (issue 11) against real tmux: `--until` with `--any`/`--all`, sessions
 * that appear or disappear while watched, one control client per server instead of a tmux
 * process per round, Ctrl-C, and `list --watch` on a terminal.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { CountingRunner } from "./status_helpers.ts";
import { endStray, spawn, type Spawned } from "./lifecycle_helpers.ts";

async function watchLines(
  world: World,
  args: string[],
): Promise<{ code: number; lines: Record<string, unknown>[] }> {
  const r = await world.lisa(["session", "watch", "--json", ...args]);
  return {
    code: r.code,
    lines: r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)),
  };
}

Deno.test("watch --until waiting_input: --any exits at the first idle session, --all after the last", async () => {
  const world = await makeWorld();
  try {
    // Three busy agents that go idle after 2, 5 and 9 s of CPU (an interactive agent at rest):
    // the first past the world's 3 s grace window, each next one 3 s or more after the one
    // before (watch looks every 0.4 s).
    const s: Spawned[] = [];
    for (const [i, n] of [[0, 2], [1, 5], [2, 9]]) {
      s.push(
        await spawn(world, ["--agent", "codex", "--tag", `b${i}`], { FAKE_BEHAVIOR: `burst:${n}` }),
      );
    }
    const any = await watchLines(world, [
      "--until",
      "waiting_input",
      "--any",
      "--timeout-seconds",
      "60",
    ]);
    strictEqual(any.code, 0, JSON.stringify(any.lines));
    const met = any.lines.at(-1)!;
    strictEqual(met.type, "until_met");
    const metSessions = met.sessions as { session: string; state: string }[];
    deepStrictEqual(metSessions.map((m) => m.session), [s[0].session]);
    ok(any.lines.some((l) => l.type === "appeared" && l.session === s[2].session));
    const all = await watchLines(world, [
      "--until",
      "waiting_input",
      "--all",
      "--timeout-seconds",
      "60",
    ]);
    strictEqual(all.code, 0, JSON.stringify(all.lines));
    const last = all.lines.at(-1)!;
    strictEqual(last.type, "until_met");
    deepStrictEqual(
      (last.sessions as { session: string }[]).map((m) => m.session).sort(),
      s.map((x) => x.session).sort(),
    );
    // The last to go idle was reported changing to waiting_input during this watch.
    ok(
      all.lines.some((l) =>
        l.type === "changed" && l.session === s[2].session && l.to === "waiting_input"
      ),
      JSON.stringify(all.lines),
    );
    // A condition never met: exit 2 at the timeout.
    const timeout = await watchLines(world, ["--until", "crashed", "--timeout-seconds", "1"]);
    strictEqual(timeout.code, 2);
    strictEqual(timeout.lines.at(-1)!.type, "timeout");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("watch reads the servers over one control client: no tmux process per round", async () => {
  const world = await makeWorld();
  try {
    const a = await spawn(world, ["--command", "sleep 120", "--tag", "w1"]);
    await spawn(world, ["--command", "sleep 120", "--tag", "w2"]);
    const before = await world.tmux(a.socketPath, [
      "display-message",
      "-p",
      "-t",
      `=${a.session}:`,
      "#{window_width}x#{window_height}",
    ]);
    const runner = new CountingRunner();
    // About five rounds; nothing changes, so it ends at the timeout (exit 2).
    const r = await world.lisaInProcess(
      ["session", "watch", "--json", "--until", "crashed", "--timeout-seconds", "2"],
      { runner },
    );
    strictEqual(r.code, 2, r.stdout + r.stderr);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    strictEqual(lines.filter((l) => l.type === "appeared").length, 2);
    strictEqual(lines.at(-1).type, "timeout");
    // Only the first round forked tmux; the later ones went over the control client.
    strictEqual(runner.count("tmux"), 1, JSON.stringify(runner.calls));
    // The client never resized the session's window, and it is gone afterwards.
    const after = await world.tmux(a.socketPath, [
      "display-message",
      "-p",
      "-t",
      `=${a.session}:`,
      "#{window_width}x#{window_height}",
    ]);
    strictEqual(after.stdout, before.stdout);
    const clients = await waitFor(async () => {
      const c = await world.tmux(a.socketPath, ["list-clients"]);
      return c.stdout.trim() === "" ? "none" : "";
    }, 5_000);
    strictEqual(clients, "none");
  } finally {
    await endStray();
    await world.dispose();
  }
});

/** Reads a child's stream into `sink.text` as it comes; resolves when the stream ends. */
async function collect(stream: ReadableStream<Uint8Array>, sink: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink.text += decoder.decode(chunk, { stream: true });
  sink.text += decoder.decode();
}

/**
 * Runs `lisa session list …` on a pseudo-terminal (script(1)). Once its output satisfies `ready`
 * (within `ms`; a busy machine can take seconds to start lisa), or once `ms` ran out, Ctrl-C is
 * typed, unless it has ended by itself already.
 */
async function listOnTty(
  world: World,
  args: string[],
  env: Record<string, string>,
  ready: (out: string) => boolean,
  ms = 30_000,
): Promise<{ code: number; out: string }> {
  const quote = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;
  // `exec`: script(1) runs the command through $SHELL -c (or /bin/sh), and dash does not exec a
  // lone command; that shell would then take the Ctrl-C itself and die of it (exit 130) however
  // lisa ended. With exec, script's exit code is lisa's own.
  const command = `exec ${[...LISA_ARGV, "session", "list", ...args].map(quote).join(" ")}`;
  const child = new Deno.Command("script", {
    args: ["-qfec", command, "/dev/null"],
    cwd: world.projectRoot,
    env: { ...env, SHELL: "/bin/sh" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = { text: "" };
  const err = { text: "" };
  const reading = Promise.all([collect(child.stdout, out), collect(child.stderr, err)]);
  let ended = false;
  const status = child.status.then((s) => {
    ended = true;
    return s;
  });
  const writer = child.stdin.getWriter();
  await waitFor(() => ended || ready(out.text), ms);
  if (!ended) {
    await writer.write(new Uint8Array([3])).catch(() => {});
  }
  await writer.close().catch(() => {});
  const { code } = await status;
  await reading;
  return { code, out: out.text };
}

Deno.test("list --watch redraws on a terminal until Ctrl-C and restores the cursor; colour only without NO_COLOR", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "sleep 120", "--tag", "tty"]);
    const env = { ...world.env, TERM: "xterm" };
    delete (env as Record<string, string | undefined>).NO_COLOR;
    // Ctrl-C once three frames are out (each starts with home + clear).
    const frames = (out: string) => out.split("\x1b[H\x1b[2J").length - 1;
    const r = await listOnTty(world, ["--watch", "0.3"], env, (out) => frames(out) >= 3);
    strictEqual(r.code, 0, r.out);
    ok(r.out.startsWith("\x1b[?25l"), JSON.stringify(r.out.slice(0, 40)));
    ok(r.out.split("\x1b[H\x1b[2J").length >= 3, "redrawn at least twice");
    ok(r.out.includes(s.alias as string));
    ok(r.out.includes("\x1b[1mALIAS"), "bold header in colour mode");
    ok(r.out.trimEnd().endsWith("\x1b[?25h"), JSON.stringify(r.out.slice(-40)));
    // Without --watch the list ends by itself (Ctrl-C only if it has not within the deadline).
    const plain = await listOnTty(world, [], { ...env, NO_COLOR: "1" }, () => false);
    strictEqual(plain.code, 0, plain.out);
    ok(plain.out.includes(s.alias as string), plain.out);
    ok(!new RegExp("\x1b\\[\\d*m").test(plain.out), JSON.stringify(plain.out));
  } finally {
    await endStray();
    await world.dispose();
  }
});

/**
 * Starts `lisa session watch --json …` as a process; `done` gives its exit code and lines,
 * `seen(pred)` waits (up to 30 s) until a line printed so far satisfies `pred`.
 */
function startWatch(world: World, args: string[]) {
  const child = new Deno.Command(LISA_ARGV[0], {
    args: [...LISA_ARGV.slice(1), "session", "watch", "--json", ...args],
    cwd: world.projectRoot,
    env: world.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = { text: "" };
  const err = { text: "" };
  const lines = () =>
    out.text.split("\n").slice(0, -1).filter(Boolean).map((l) =>
      JSON.parse(l) as Record<string, unknown>
    );
  const done = Promise.all([child.status, collect(child.stdout, out), collect(child.stderr, err)])
    .then(([status]) => ({ code: status.code, stderr: err.text, lines: lines() }));
  const seen = (pred: (line: Record<string, unknown>) => boolean) =>
    waitFor(() => lines().some(pred), 30_000);
  return { child, done, seen };
}

Deno.test("watch --until terminal --all: a watched session that disappears counts as not_found", async () => {
  const world = await makeWorld();
  try {
    const a = await spawn(world, ["--command", "sleep 120", "--tag", "a"]);
    const b = await spawn(world, ["--command", "sleep 120", "--tag", "b"]);
    const w = startWatch(world, ["--until", "terminal", "--all", "--timeout-seconds", "60"]);
    // Both listed by the watch, then a killed by lisa, b's tmux session closed by hand while
    // its command runs: both disappear from the listing.
    for (const x of [a, b]) {
      ok(await w.seen((l) => l.type === "appeared" && l.session === x.session), x.session);
    }
    const k = await world.lisaInProcess(["session", "kill", "--session", a.session, "--json"]);
    strictEqual(k.code, 0, k.stdout);
    strictEqual((await world.tmux(b.socketPath, ["kill-session", "-t", `=${b.session}`])).code, 0);
    const r = await w.done;
    strictEqual(r.code, 0, JSON.stringify(r.lines) + r.stderr);
    const last = r.lines.at(-1)!;
    strictEqual(last.type, "until_met", JSON.stringify(r.lines));
    const met = last.sessions as { session: string; state: string }[];
    deepStrictEqual(met.map((m) => m.session).sort(), [a.session, b.session].sort());
    // b disappeared while running: it met "terminal" as not_found, and its line says so.
    strictEqual(met.find((m) => m.session === b.session)!.state, "not_found");
    const gone = r.lines.find((l) => l.type === "disappeared" && l.session === b.session);
    deepStrictEqual(
      [gone?.to, gone?.waitingFor, gone?.reason],
      ["not_found", null, null],
      JSON.stringify(r.lines),
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("watch --until waiting_input,terminal: --any returns at a worker that crashed, --all once each got to one of them", async () => {
  const world = await makeWorld();
  try {
    const idle = await spawn(world, ["--agent", "claude", "--tag", "idle"]);
    const busy = await spawn(world, ["--command", "sleep 120", "--tag", "busy"]);
    const crash = await spawn(world, [
      "--command",
      "while [ ! -e go ]; do sleep 0.1; done; exit 3",
      "--tag",
      "crash",
    ]);
    const until = ["--until", "waiting_input,terminal", "--timeout-seconds", "60"];
    // An orchestrator's "until one needs me or died": neither worker ever waits for input.
    const any = startWatch(world, [
      ...until,
      "--any",
      "--sessions",
      `${busy.session},${crash.session}`,
    ]);
    for (const x of [busy, crash]) {
      ok(await any.seen((l) => l.type === "appeared" && l.session === x.session), x.session);
    }
    Deno.writeTextFileSync(`${world.projectRoot}/go`, "");
    const r = await any.done;
    strictEqual(r.code, 0, JSON.stringify(r.lines) + r.stderr);
    const met = r.lines.at(-1)!;
    strictEqual(met.type, "until_met", JSON.stringify(r.lines));
    deepStrictEqual(met.sessions, [{
      session: crash.session,
      alias: crash.alias,
      state: "crashed",
    }]);
    // --all: each watched session reached one of the states, whichever.
    const all = startWatch(world, [
      ...until,
      "--all",
      "--sessions",
      `${idle.session},${crash.session}`,
    ]);
    const done = await all.done;
    strictEqual(done.code, 0, JSON.stringify(done.lines) + done.stderr);
    const last = done.lines.at(-1)!;
    strictEqual(last.type, "until_met", JSON.stringify(done.lines));
    const states = Object.fromEntries(
      (last.sessions as { session: string; state: string }[]).map((m) => [m.session, m.state]),
    );
    deepStrictEqual(states, { [idle.session]: "waiting_input", [crash.session]: "crashed" });
    // A state that is not one is refused, naming it.
    const bad = await world.lisa(["session", "watch", "--until", "waiting_input,idle", "--json"]);
    strictEqual(bad.code, 1, bad.stdout);
    strictEqual(bad.json?.errorCode, "invalid_argument", bad.stdout);
    ok(String(bad.json?.error).includes('"idle"'), bad.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("watch --until interrupted by Ctrl-C exits 130, not 0 (the condition was not met)", async () => {
  const world = await makeWorld();
  try {
    await spawn(world, ["--command", "sleep 120", "--tag", "a"]);
    const w = startWatch(world, ["--until", "completed", "--all", "--timeout-seconds", "60"]);
    // The first round printed (the handler is installed before it).
    ok(await w.seen((l) => l.type === "appeared"));
    w.child.kill("SIGINT");
    const r = await w.done;
    strictEqual(r.code, 130, JSON.stringify(r.lines));
    ok(!r.lines.some((l) => l.type === "until_met"), JSON.stringify(r.lines));
    strictEqual(r.lines.at(-1)!.type, "stopped", JSON.stringify(r.lines));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("watch --until started before the first spawn watches the sessions that appear", async () => {
  const world = await makeWorld();
  try {
    const w = startWatch(world, ["--until", "completed", "--any", "--timeout-seconds", "25"]);
    await new Promise((r) => setTimeout(r, 2500));
    const s = await spawn(world, ["--command", "sleep 2; echo done", "--tag", "late"]);
    const r = await w.done;
    strictEqual(r.code, 0, JSON.stringify(r.lines));
    const last = r.lines.at(-1)!;
    strictEqual(last.type, "until_met", JSON.stringify(r.lines));
    deepStrictEqual((last.sessions as { session: string }[]).map((m) => m.session), [s.session]);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("watch --timeout-seconds gives up at the deadline, not an interval before it (a state reached in the last 0.4 s counts)", async () => {
  const world = await makeWorld();
  try {
    await spawn(world, ["--command", "sleep 60"]);
    const started = performance.now();
    const r = await world.lisaInProcess([
      "session",
      "watch",
      "--json",
      "--until",
      "crashed",
      "--timeout-seconds",
      "1",
    ]);
    const elapsed = performance.now() - started;
    strictEqual(r.code, 2, r.stdout);
    strictEqual(JSON.parse(r.stdout.trim().split("\n").at(-1)!).type, "timeout");
    // It used to stop when less than one interval (400 ms) was left: after 0.6–1.0 s.
    ok(elapsed >= 1000, `timed out after ${Math.round(elapsed)} ms`);
  } finally {
    await endStray();
    await world.dispose();
  }
});
