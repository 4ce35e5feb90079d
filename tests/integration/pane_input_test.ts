/**
 * Issue 20 §1: tmux 3.3a crashes (and every session of the server with it) on a bracketed
 * paste into a pane kept dead by `remain-on-exit`. The hazard is shown on a private server
 * driven directly; lisa's one write path (`pasteText` / `sendKeys`, tmux checks `#{pane_dead}`
 * right before the write) refuses such a pane even on a server without lisa's `pane-died`
 * hook; `send` in every form answers `session_not_running` with the session's final state,
 * and the server's live session is still there afterwards.
 */
import { ok, strictEqual } from "node:assert/strict";
import { DenoRunner } from "../../src/proc/runner.ts";
import { pasteText, sendKeys } from "../../src/tmux/sessions.ts";
import { isNoServer, paneTarget, Tmux } from "../../src/tmux/tmux.ts";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { endStray, spawn, type Spawned, waitDone } from "./lifecycle_helpers.ts";

/** Waits until tmux shows `target`'s pane dead (the done file comes just before that). */
async function waitDead(world: World, socket: string, target: string): Promise<void> {
  const dead = await waitFor(async () => {
    const r = await world.tmux(socket, ["display-message", "-p", "-t", target, "#{pane_dead}"]);
    return r.stdout.trim() === "1";
  }, 30_000);
  ok(dead, `${target} never died`);
}

Deno.test("a paste into a dead pane crashes tmux 3.3a; lisa's guarded writes refuse it and the server lives", async () => {
  const world = await makeWorld();
  const socket = `${world.socketDir}/hazard.sock`;
  try {
    // A plain server: remain-on-exit, and none of lisa's own options or hooks.
    for (
      const [name, cmd] of [["live", "sleep 600"], ["fin", "true"], ["twin", "true"]] as const
    ) {
      const r = await world.tmux(socket, [
        ...(name === "live" ? ["set-option", "-g", "remain-on-exit", "on", ";"] : []),
        "new-session",
        "-d",
        "-s",
        name,
        "--",
        "bash",
        "-c",
        cmd,
      ]);
      strictEqual(r.code, 0, r.stderr);
    }
    await waitDead(world, socket, "=fin:");
    await waitDead(world, socket, "=twin:");
    const tmux = new Tmux(new DenoRunner(20_000), socket);
    const fin = paneTarget("fin", undefined);
    strictEqual(await pasteText(tmux, fin, "hi\nthere"), "dead");
    strictEqual(await sendKeys(tmux, fin, ["Enter"]), "dead");
    strictEqual(await sendKeys(tmux, fin, ["C-c", "y"]), "dead");
    // The server and its live session are still there, and no buffer was left behind.
    strictEqual((await world.tmux(socket, ["has-session", "-t", "=live:"])).code, 0);
    strictEqual((await world.tmux(socket, ["list-buffers"])).stdout, "");
    // The same paste without the check (what `send` did before): the server dies with every
    // session on it. This is the hazard the guard exists for, on this machine's tmux.
    const raw = await world.tmux(socket, [
      "set-buffer",
      "-b",
      "raw",
      "hi",
      ";",
      "paste-buffer",
      "-p",
      "-b",
      "raw",
      "-t",
      "=twin:",
    ]);
    const after = await waitFor(async () => {
      const r = await world.tmux(socket, ["has-session", "-t", "=live:"]);
      return r.code !== 0 ? r : undefined;
    }, 10_000);
    ok(after !== undefined && isNoServer(after.stderr), `${raw.stderr} / ${after?.stderr}`);
  } finally {
    await world.dispose();
  }
});

/** `lisa session send …` of `fin` refused with its final state. */
async function refused(world: World, s: Spawned, args: string[], exitCode: number) {
  const r = await world.lisaInProcess([
    "session",
    "send",
    "--session",
    s.session,
    ...args,
    "--json",
  ]);
  const what = `send ${args.join(" ")}: ${r.stdout}${r.stderr}`;
  strictEqual(r.code, 1, what);
  strictEqual(r.json?.ok, false, what);
  strictEqual(r.json?.errorCode, "session_not_running", what);
  strictEqual(r.json?.session, s.session, what);
  strictEqual(r.json?.state, exitCode === 0 ? "completed" : "crashed", what);
  strictEqual(r.json?.exitCode, exitCode, what);
  const error = String(r.json?.error);
  ok(error.includes(`${s.session} finished (exit ${exitCode}); it takes no more input`), error);
  ok(error.includes("lisa session spawn") && error.includes("lisa session capture"), error);
}

Deno.test("send to a finished session is session_not_running with its final state, and the server's live session lives on", async () => {
  const world = await makeWorld();
  try {
    const live = await spawn(world, ["--command", "sleep 600", "--tag", "live"]);
    const fin = await spawn(world, ["--command", "echo done", "--tag", "fin"]);
    const failed = await spawn(world, ["--command", "exit 3", "--tag", "failed"]);
    await waitDone(world, fin);
    await waitDone(world, failed);
    await waitDead(world, fin.socketPath, `=${fin.session}:`);
    await waitDead(world, failed.socketPath, `=${failed.session}:`);

    await refused(world, fin, ["--text", "hi", "--enter"], 0);
    await refused(world, fin, ["--text", "hi"], 0);
    // Keys used to answer ok:true having delivered nothing.
    await refused(world, fin, ["--keys", "C-c"], 0);
    await refused(world, fin, ["--enter"], 0);
    await refused(world, fin, ["--text", "hi", "--wait", "--timeout-seconds", "5"], 0);
    await refused(world, failed, ["--keys", "Enter", "--force"], 3);
    await refused(world, failed, ["--text", "again", "--force", "--enter"], 3);

    // The server is alive, and so is the other session on it.
    const status = await world.lisaInProcess(["session", "status", "--session", live.session]);
    strictEqual(status.code, 0, status.stdout);
    const report = await world.lisaInProcess([
      "session",
      "status",
      "--session",
      live.session,
      "--json",
    ]);
    ok(["just_started", "in_progress"].includes(String(report.json?.sessionState)), report.stdout);
    // What a person's client does with `prefix ]` (a paste not checked by lisa) cannot crash
    // the server either: lisa's servers turn a dead pane's input off. The pane-died hook runs
    // after tmux marks the pane dead, so it is waited for.
    const off = await waitFor(async () => {
      const r = await world.tmux(fin.socketPath, [
        "display-message",
        "-p",
        "-t",
        `=${fin.session}:`,
        "#{pane_input_off}",
      ]);
      return r.stdout.trim() === "1" || undefined;
    }, 10_000);
    ok(off, "the pane-died hook never turned the dead pane's input off");
    await world.tmux(fin.socketPath, [
      "set-buffer",
      "-b",
      "person",
      "typed",
      ";",
      "paste-buffer",
      "-p",
      "-b",
      "person",
      "-t",
      `=${fin.session}:`,
    ]);
    strictEqual(
      (await world.tmux(live.socketPath, ["has-session", "-t", `=${live.session}:`])).code,
      0,
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("send after the done file, while the wrapper still holds the pane open, is session_not_running and writes nothing", async () => {
  const world = await makeWorld();
  try {
    // The wrapper adopts the daemon (child subreaper) and stays until it ends: the command has
    // finished and its done file is there, but tmux shows the pane alive (the same window a
    // wrapper is in between writing the done file and exiting, held open here).
    const s = await spawn(world, ["--command", "setsid -f sleep 300; echo finished; exit 0"]);
    strictEqual(await waitDone(world, s), `${s.runId}:0`);
    const target = `=${s.session}:`;
    const pane = async () =>
      (await world.tmux(s.socketPath, ["display-message", "-p", "-t", target, "#{pane_dead}"]))
        .stdout.trim();
    strictEqual(await pane(), "0", "the wrapper should hold the pane open (perl subreaper)");
    await refused(world, s, ["--text", "typed-after-done", "--enter"], 0);
    await refused(world, s, ["--keys", "x y z"], 0);
    await refused(world, s, ["--enter"], 0);
    await refused(world, s, ["--text", "waited-after-done", "--wait", "--timeout-seconds", "5"], 0);
    // Nothing reached the pane: its tty echoes whatever is typed, and shows none of it.
    strictEqual(await pane(), "0");
    const text = (await world.tmux(s.socketPath, ["capture-pane", "-p", "-t", target])).stdout;
    ok(text.includes("finished"), text);
    ok(!/after-done|x ?y ?z/.test(text), text);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("every printable key word reaches the agent byte for byte through the guarded write", async () => {
  const world = await makeWorld();
  try {
    const record = `${world.base}/recorded`;
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: `record:${record}` });
    await waitFor(async () => {
      const r = await world.tmux(s.socketPath, ["capture-pane", "-p", "-t", `=${s.session}:`]);
      return r.stdout.includes("recording");
    }, 30_000);
    // tmux re-reads the write as a command string (the if-shell branch): quotes, `;`, `#`,
    // `$`, `\`, `~`, braces and non-ASCII must come through as the keys they are.
    const ascii = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i));
    const keys = [...ascii, "é", "日", "M-x", "M-'", 'M-"', "M-;", "C-a", "Enter"];
    const r = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--keys",
      keys.join(" "),
      "--json",
    ]);
    strictEqual(r.code, 0, r.stdout + r.stderr);
    const expected = `${ascii.join("")}é日\x1bx\x1b'\x1b"\x1b;\x01\r`;
    const got = await waitFor(() => {
      const text = Deno.readTextFileSync(record);
      return text === expected ? text : undefined;
    }, 30_000);
    strictEqual(got ?? Deno.readTextFileSync(record), expected);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("send to a live pane whose input a person turned off is pane_input_off and writes nothing", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "cat"]);
    const target = `=${s.session}:`;
    const screen = async () =>
      (await world.tmux(s.socketPath, ["capture-pane", "-p", "-t", target])).stdout;
    // A person's `select-pane -d`: tmux drops whatever is written to the pane from now on.
    strictEqual((await world.tmux(s.socketPath, ["select-pane", "-d", "-t", target])).code, 0);
    for (const args of [["--text", "typed-while-off", "--enter"], ["--keys", "x y z"]]) {
      const r = await world.lisaInProcess([
        "session",
        "send",
        "--session",
        s.session,
        ...args,
        "--force",
        "--json",
      ]);
      const what = `send ${args.join(" ")}: ${r.stdout}${r.stderr}`;
      strictEqual(r.code, 1, what);
      strictEqual(r.json?.errorCode, "pane_input_off", what);
      strictEqual(r.json?.sent, false, what);
      ok(String(r.json?.error).includes("select-pane -e"), what);
    }
    strictEqual((await world.tmux(s.socketPath, ["list-buffers"])).stdout, "");
    // Turned on again, the same send goes through and cat echoes it.
    strictEqual((await world.tmux(s.socketPath, ["select-pane", "-e", "-t", target])).code, 0);
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      s.session,
      "--text",
      "typed-while-on",
      "--enter",
      "--force",
      "--json",
    ]);
    strictEqual(sent.code, 0, sent.stdout + sent.stderr);
    ok(await waitFor(async () => (await screen()).includes("typed-while-on") || undefined, 10_000));
    const text = await screen();
    ok(!/while-off|x ?y ?z/.test(text), text);
  } finally {
    await endStray();
    await world.dispose();
  }
});
