/**
 * Issue 11 against real tmux: aliases and resolve through the CLI, `attach` in a real tmux
 * client (from a plain terminal and from inside another tmux), `prune` (`watch`:
 * watch_test.ts).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn, waitDone, waitPane } from "./lifecycle_helpers.ts";

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
    // A status of the finished session writes its state (under a lock) and its output file.
    await world.lisaInProcess(["session", "status", "--session", dead.session, "--json"]);
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
    // The dry run listed the very files the real run removed (it left out locks and the output
    // file).
    const files = (r: typeof dry) => (r.json!.pruned as { files: string[] }[])[0].files.sort();
    deepStrictEqual(files(dry), files(real));
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
