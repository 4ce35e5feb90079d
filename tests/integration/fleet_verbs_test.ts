/**
 * Issue 11 against real tmux: aliases and resolve through the CLI, `attach` in a real tmux
 * client (from a plain terminal and from inside another tmux), `prune`, and `watch --until`.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { CountingRunner } from "./status_helpers.ts";
import {
  artifact,
  endStray,
  readIf,
  spawn,
  type Spawned,
  waitDone,
  waitPane,
} from "./lifecycle_helpers.ts";

Deno.test("spawn gives each session a unique alias; every --session verb accepts it or a prefix of it", async () => {
  const world = await makeWorld();
  try {
    const a = await spawn(world, ["--command", "sleep 120", "--tag", "one"]);
    const b = await spawn(world, ["--command", "sleep 120", "--tag", "two"]);
    const slug = "project";
    ok(typeof a.alias === "string" && (a.alias as string).startsWith(`${slug}-`), String(a.alias));
    ok(a.alias !== b.alias);
    const meta = JSON.parse(readIf(artifact(world, a, "meta.json"))!);
    strictEqual(meta.alias, a.alias);

    const byAlias = await world.lisaInProcess([
      "session",
      "status",
      "--session",
      a.alias as string,
      "--json",
    ]);
    strictEqual(byAlias.code, 0, byAlias.stdout);
    strictEqual(byAlias.json!.session, a.session);
    strictEqual(byAlias.json!.alias, a.alias);
    const prefix = (a.alias as string).slice(0, (a.alias as string).lastIndexOf("-") + 2);
    const unique = [a.alias, b.alias].filter((x) => (x as string).startsWith(prefix)).length === 1;
    if (unique) {
      const byPrefix = await world.lisaInProcess([
        "session",
        "exists",
        "--session",
        prefix,
        "--json",
      ]);
      strictEqual(byPrefix.json!.session, a.session, byPrefix.stdout);
    }
    // A full name is never matched by prefix, by any verb: a shortened name names no session
    // (status says not_found, exists and capture fail), never a's or b's.
    const shortened = a.session.slice(0, a.session.lastIndexOf("-"));
    for (const verb of ["status", "exists", "capture"]) {
      const r = await world.lisaInProcess(["session", verb, "--session", shortened, "--json"]);
      strictEqual(r.code, verb === "status" ? 0 : 1, `${verb}: ${r.stdout}`);
      ok(r.json!.session !== a.session && r.json!.session !== b.session, r.stdout);
      if (verb === "status") strictEqual(r.json!.sessionState, "not_found");
    }
    // "project-" prefixes both aliases: ambiguous, exit 1, candidates listed, nothing killed.
    for (const [verb, value] of [["status", "project-"], ["kill", "project-"]]) {
      const amb = await world.lisaInProcess(["session", verb, "--session", value, "--json"]);
      strictEqual(amb.code, 1, amb.stdout);
      strictEqual(amb.json!.errorCode, "session_ambiguous");
      deepStrictEqual(
        (amb.json!.candidates as { session: string }[]).map((c) => c.session).sort(),
        [a.session, b.session].sort(),
      );
    }
    // Status or attach without a session and two running: never a prompt, an error.
    for (const verb of ["status", "attach"]) {
      const omitted = await world.lisaInProcess(["session", verb, "--json"]);
      strictEqual(omitted.code, 1, omitted.stdout);
      strictEqual(omitted.json!.errorCode, "session_ambiguous");
      ok(String(omitted.json!.error).includes(a.alias as string), omitted.stdout);
    }
    const none = await world.lisaInProcess(["session", "status", "--session", "zzz-no", "--json"]);
    strictEqual(none.code, 1);
    strictEqual(none.json!.errorCode, "invalid_session_name");
    // kill by alias ends exactly that session.
    const killed = await world.lisaInProcess([
      "session",
      "kill",
      "--session",
      b.alias as string,
      "--json",
    ]);
    strictEqual(killed.code, 0, killed.stdout);
    const left = await world.lisaInProcess(["session", "list", "--json"]);
    deepStrictEqual(
      left.json!.sessions,
      [a.session],
    );
    // One running session left: status may leave it out.
    const only = await world.lisaInProcess(["session", "status", "--json"]);
    strictEqual(only.code, 0, only.stdout);
    strictEqual(only.json!.session, a.session);
  } finally {
    await endStray();
    await world.dispose();
  }
});

/** argv of lisa run with the world's environment spelled out (for a pane of an outer tmux). */
function lisaInPane(world: World, args: string[], keepTmux: boolean): string[] {
  const env = Object.entries(world.env).filter(([k]) =>
    ["PATH", "HOME", "DENO_DIR", "LISA_RUNTIME_DIR", "LISA_TMUX_SOCKET_DIR", "NO_COLOR"].includes(k)
  ).map(([k, v]) => `${k}=${v}`);
  return ["env", ...(keepTmux ? [] : ["-u", "TMUX"]), ...env, "TERM=xterm", ...LISA_ARGV, ...args];
}

Deno.test("attach shows the agent's screen in a real tmux client, and refuses finished sessions", async () => {
  const world = await makeWorld();
  const outer = `${world.socketDir}/outer.sock`;
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    await waitPane(world, s, "> ");
    // A plain terminal: the pane of a private outer tmux, TMUX unset for the lisa inside it.
    const started = await world.tmux(outer, [
      "new-session",
      "-d",
      "-s",
      "outer",
      "-x",
      "100",
      "-y",
      "30",
      "-c",
      world.projectRoot,
      "--",
      ...lisaInPane(world, ["session", "attach", s.alias as string], false),
    ]);
    strictEqual(started.code, 0, started.stderr);
    const seen = await waitFor(async () => {
      const c = await world.tmux(outer, ["capture-pane", "-p", "-t", "=outer:"]);
      return c.stdout.includes("fake claude (interactive)") ? c.stdout : "";
    }, 30_000);
    ok(seen, (await world.tmux(outer, ["capture-pane", "-p", "-t", "=outer:"])).stdout);
    // The attached client counts as a client of the session's server.
    const clients = await world.tmux(s.socketPath, ["list-clients", "-F", "#{session_name}"]);
    ok(clients.stdout.includes(s.session), clients.stdout);

    // Inside tmux: a new window of the caller's tmux runs the attach (read-only here).
    const inner = await world.tmux(outer, [
      "new-window",
      "-d",
      "-n",
      "caller",
      "-c",
      world.projectRoot,
      "--",
      ...lisaInPane(world, ["session", "attach", s.session, "--read-only"], true),
    ]);
    strictEqual(inner.code, 0, inner.stderr);
    const window = await waitFor(async () => {
      const w = await world.tmux(outer, ["list-windows", "-t", "=outer:", "-F", "#{window_name}"]);
      return w.stdout.includes(s.alias as string) ? w.stdout : "";
    }, 30_000);
    ok(window, "no window named after the alias");
    const shown = await waitFor(async () => {
      const c = await world.tmux(outer, ["capture-pane", "-p", "-t", `=outer:${s.alias}`]);
      return c.stdout.includes("fake claude (interactive)");
    }, 30_000);
    ok(shown);
    const ro = await world.tmux(s.socketPath, ["list-clients", "-F", "#{client_readonly}"]);
    ok(ro.stdout.split("\n").includes("1"), ro.stdout);

    // A finished session does not attach.
    const fin = await spawn(world, ["--command", "true"]);
    await waitDone(world, fin);
    const refused = await world.lisaInProcess(["session", "attach", fin.session, "--json"]);
    strictEqual(refused.code, 1);
    strictEqual(refused.json!.errorCode, "session_not_running");
    // Without a terminal (and outside tmux): a clear error, never a hang.
    const noTty = await world.lisaInProcess(["session", "attach", s.session, "--json"]);
    strictEqual(noTty.code, 1);
    strictEqual(noTty.json!.errorCode, "not_a_terminal");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("prune --dry-run changes nothing; prune removes the dead session, never the live one", async () => {
  const world = await makeWorld();
  try {
    const live = await spawn(world, ["--command", "sleep 120", "--tag", "live"]);
    const dead = await spawn(world, ["--command", "echo bye", "--tag", "dead"]);
    await waitDone(world, dead);
    // The done file comes just before the wrapper exits: wait until tmux shows the pane dead.
    await waitFor(async () => {
      const r = await world.tmux(dead.socketPath, [
        "display-message",
        "-p",
        "-t",
        `=${dead.session}:`,
        "#{pane_dead}",
      ]);
      return r.stdout.trim() === "1";
    }, 30_000);
    const before = [...Deno.readDirSync(world.runtimeDir)].map((e) => e.name).sort();
    const dry = await world.lisaInProcess([
      "session",
      "prune",
      "--older-than",
      "0s",
      "--dry-run",
      "--json",
    ]);
    strictEqual(dry.code, 0, dry.stdout + dry.stderr);
    const after = [...Deno.readDirSync(world.runtimeDir)].map((e) => e.name).sort();
    deepStrictEqual(after, before);
    deepStrictEqual((dry.json!.pruned as { session: string }[]).map((p) => p.session), [
      dead.session,
    ]);
    ok(
      (dry.json!.kept as { session: string; reason: string }[]).some((k) =>
        k.session === live.session && k.reason === "live"
      ),
    );
    // Same age (0s) for both: only the finished one goes, its tmux session closed too.
    const real = await world.lisaInProcess(["session", "prune", "--older-than", "0s", "--json"]);
    strictEqual(real.code, 0, real.stdout);
    const pruned = real.json!.pruned as { session: string; closedTmuxSession: boolean }[];
    deepStrictEqual(pruned.map((p) => p.session), [dead.session]);
    strictEqual(pruned[0].closedTmuxSession, true);
    strictEqual(readIf(artifact(world, dead, "meta.json")), undefined);
    ok(readIf(artifact(world, live, "meta.json")) !== undefined);
    const has = await world.tmux(live.socketPath, ["has-session", "-t", `=${live.session}:`]);
    strictEqual(has.code, 0);
    // The default age keeps a fresh finished session.
    const fresh = await spawn(world, ["--command", "true", "--tag", "fresh"]);
    await waitDone(world, fresh);
    const kept = await world.lisaInProcess(["session", "prune", "--json"]);
    deepStrictEqual(kept.json!.pruned, []);
  } finally {
    await endStray();
    await world.dispose();
  }
});

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
    // Three busy agents that go idle after 4, 8 and 12 s of CPU (an interactive agent at rest).
    const s: Spawned[] = [];
    for (const [i, n] of [[0, 4], [1, 8], [2, 12]]) {
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
    // b disappeared while running: it met "terminal" as not_found.
    strictEqual(met.find((m) => m.session === b.session)!.state, "not_found");
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

Deno.test("tree --session accepts an alias or a unique prefix, as every --session verb does", async () => {
  const world = await makeWorld();
  try {
    const a = await spawn(world, ["--command", "sleep 120", "--tag", "a"]);
    await spawn(world, ["--command", "sleep 120", "--tag", "b"]);
    const alias = a.alias as string;
    for (const value of [a.session, alias, alias.slice(0, alias.lastIndexOf("-") + 3)]) {
      const r = await world.lisaInProcess(["session", "tree", "--session", value, "--json"]);
      strictEqual(r.code, 0, r.stdout);
      const roots = r.json!.roots as { session: string }[];
      deepStrictEqual(roots.map((n) => n.session), [a.session], `${value}: ${r.stdout}`);
      strictEqual(r.json!.session, a.session);
    }
    const amb = await world.lisaInProcess(["session", "tree", "--session", "project-", "--json"]);
    strictEqual(amb.code, 1, amb.stdout);
    strictEqual(amb.json!.errorCode, "session_ambiguous");
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("prune never closes a session whose first pane died while another of its panes still runs", async () => {
  const world = await makeWorld();
  try {
    // The agent (or a person attached) opened a second window in its session; then the first
    // pane's command ended. tmux's active pane is the dead one: the session still runs.
    const s = await spawn(world, ["--command", `tmux new-window -d "sleep 120"; exit 3`]);
    await waitDone(world, s);
    const panes = async () =>
      (await world.tmux(s.socketPath, [
        "list-panes",
        "-s",
        "-t",
        `=${s.session}:`,
        "-F",
        "#{pane_dead}",
      ])).stdout.trim().split("\n").sort();
    deepStrictEqual(
      await waitFor(async () => {
        const p = await panes();
        return p.join() === "0,1" ? p : undefined;
      }, 30_000),
      ["0", "1"],
    );
    for (const dry of [true, false]) {
      const r = await world.lisaInProcess([
        "session",
        "prune",
        "--older-than",
        "0s",
        "--json",
        ...(dry ? ["--dry-run"] : []),
      ]);
      strictEqual(r.code, 0, r.stdout + r.stderr);
      deepStrictEqual(r.json!.pruned, []);
      deepStrictEqual(r.json!.kept, [{ session: s.session, alias: s.alias, reason: "live" }]);
    }
    deepStrictEqual(await panes(), ["0", "1"]);
    ok(readIf(artifact(world, s, "meta.json")) !== undefined);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("capture and send --wait accept an alias: they read that session's pane and report its full name", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "echo CAP_$((40 + 2)); sleep 120"]);
    await waitPane(world, s, "CAP_42");
    for (const extra of [[], ["--raw"], ["--markers", "CAP_42"], ["--delta-from", "@1"]]) {
      const r = await world.lisaInProcess([
        "session",
        "capture",
        "--session",
        s.alias as string,
        ...extra,
        "--json",
      ]);
      strictEqual(r.code, 0, `${extra.join(" ")}: ${r.stdout}${r.stderr}`);
      strictEqual(r.json!.session, s.session, r.stdout);
      if (extra[0] === "--markers") deepStrictEqual(r.json!.foundMarkers, ["CAP_42"], r.stdout);
      else ok(String(r.json!.capture).includes("CAP_42"), r.stdout);
    }
    // send --wait reads a screen session's reply through capture: by alias as well.
    const echo = await spawn(world, ["--command", 'while read l; do echo "got:$l"; done']);
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      echo.alias as string,
      "--text",
      "hello",
      "--wait",
      "--timeout-seconds",
      "30",
      "--json",
    ]);
    strictEqual(sent.code, 0, sent.stdout + sent.stderr);
    strictEqual(sent.json!.session, echo.session, sent.stdout);
    strictEqual(sent.json!.outcome, "completed", sent.stdout);
    strictEqual(sent.json!.reply, "got:hello", sent.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});
