/**
 * spawn never reports a session it did not create: the socket directory is created and checked
 * like the runtime dir, and a tmux that prints an error but exits 0 is a spawn_tmux_error with
 * the startup script (the caller's environment) removed.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { CommandTimeoutError } from "../../src/base/errors.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import type { Runner, RunOptions } from "../../src/base/runner.ts";
import { makeWorld } from "../helpers/world.ts";
import { artifactsOf, endStray, readIf, spawn } from "./lifecycle_helpers.ts";

Deno.test("spawn creates a missing socket dir (0700) and the session is really there", async () => {
  const world = await makeWorld();
  try {
    const socketDir = `${world.base}/not-yet/sockets`;
    const s = await spawn(world, ["--command", "sleep 60"], { LISA_TMUX_SOCKET_DIR: socketDir });
    ok(s.socketPath.startsWith(`${socketDir}/`), s.socketPath);
    strictEqual(Deno.statSync(socketDir).mode! & 0o777, 0o700);
    const has = await world.tmux(s.socketPath, ["has-session", "-t", `=${s.session}`]);
    strictEqual(has.code, 0, has.stderr);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("an unsafe socket dir is refused with socket_dir_unsafe and nothing is written", async () => {
  const world = await makeWorld();
  const open = `${world.base}/open`;
  try {
    Deno.mkdirSync(open);
    // Others may create entries here (and plant a socket under lisa's predictable name).
    Deno.chmodSync(open, 0o777);
    const link = `${world.base}/link`;
    Deno.symlinkSync(world.socketDir, link);
    for (const dir of [open, link]) {
      const r = await world.lisaInProcess(
        ["session", "spawn", "--session", "lisa-unsafe", "--command", "true", "--json"],
        { env: { LISA_TMUX_SOCKET_DIR: dir, SECRET_TOKEN: "hunter2" } },
      );
      strictEqual(r.code, 1, r.stdout);
      strictEqual(r.json?.errorCode, "socket_dir_unsafe", r.stdout);
      strictEqual(r.json?.socketDir, dir);
    }
    deepStrictEqual([...Deno.readDirSync(world.runtimeDir)], []);
    deepStrictEqual([...Deno.readDirSync(open)], []);
  } finally {
    // Had spawn accepted the dir, its server would live outside the world's socket dir.
    for (const e of Deno.readDirSync(open)) await world.tmux(`${open}/${e.name}`, ["kill-server"]);
    await world.dispose();
  }
});

Deno.test("the user's own 0755 socket dir is accepted: tmux's socket in it is private anyway", async () => {
  const world = await makeWorld();
  const shared = `${world.base}/sock755`;
  try {
    Deno.mkdirSync(shared);
    Deno.chmodSync(shared, 0o755);
    const env = { LISA_TMUX_SOCKET_DIR: shared };
    const r = await world.lisaInProcess(
      ["session", "spawn", "--session", "lisa-own-755", "--command", "sleep 60", "--json"],
      { env },
    );
    strictEqual(r.code, 0, r.stdout);
    ok(String(r.json?.socketPath).startsWith(`${shared}/`), r.stdout);
    const mode = (Deno.lstatSync(String(r.json?.socketPath)).mode ?? 0) & 0o077;
    strictEqual(mode & 0o007, 0, "others have no access to tmux's socket");
    const has = await world.lisaInProcess(["session", "exists", "--session", "lisa-own-755"], {
      env,
    });
    strictEqual(has.code, 0, has.stdout);
  } finally {
    await endStray();
    await world.dispose();
  }
});

/**
 * A real runner that sends the new-session invocation to a socket in a missing directory: real
 * tmux 3.3a then prints `error creating …` and exits 0 without creating anything.
 */
class LostSocketRunner implements Runner {
  private readonly real = new DenoRunner(20_000);
  constructor(private readonly lostSocket: string) {}
  run(argv: readonly string[], options?: RunOptions) {
    if (argv[0] === "tmux" && argv.includes("new-session")) {
      return this.real.run(["tmux", "-u", "-S", this.lostSocket, ...argv.slice(4)], options);
    }
    return this.real.run(argv, options);
  }
}

Deno.test("a tmux that prints an error but exits 0 is spawn_tmux_error; the script is removed", async () => {
  const world = await makeWorld();
  try {
    const name = "lisa-lost";
    const runner = new LostSocketRunner(`${world.base}/missing/lost.sock`);
    const r = await world.lisaInProcess(
      ["session", "spawn", "--session", name, "--command", "sleep 60", "--json"],
      { runner, env: { SECRET_TOKEN: "hunter2" } },
    );
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.ok, false);
    strictEqual(r.json?.errorCode, "spawn_tmux_error", r.stdout);
    ok(String(r.json?.error).includes("error creating"), String(r.json?.error));
    // Only the event log (and its lock) are left: no meta, no startup script.
    const left = artifactsOf(world, name);
    deepStrictEqual(left.filter((n) => !n.includes("events.jsonl")), [], left.join(", "));
    const events = left.find((n) => n.endsWith("events.jsonl"));
    ok(events !== undefined, left.join(", "));
    ok(readIf(`${world.runtimeDir}/${events}`)!.includes('"reason":"spawn_tmux_error"'));
  } finally {
    await world.dispose();
  }
});

/** A real runner whose new-session invocation times out (nothing is run). */
class TimeoutRunner implements Runner {
  private readonly real = new DenoRunner(20_000);
  run(argv: readonly string[], options?: RunOptions) {
    if (argv[0] === "tmux" && argv.includes("new-session")) {
      return Promise.reject(new CommandTimeoutError(argv, 20_000));
    }
    return this.real.run(argv, options);
  }
}

Deno.test("a tmux call that times out is spawn_tmux_error and leaves no startup script", async () => {
  const world = await makeWorld();
  try {
    const name = "lisa-slow";
    const r = await world.lisaInProcess(
      ["session", "spawn", "--session", name, "--command", "sleep 60", "--json"],
      { runner: new TimeoutRunner() },
    );
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "spawn_tmux_error", r.stdout);
    const left = artifactsOf(world, name);
    deepStrictEqual(left.filter((n) => !n.includes("events.jsonl")), [], left.join(", "));
  } finally {
    await world.dispose();
  }
});

Deno.test("a --session name too long for its files is invalid_session_name before anything is made; the longest allowed one lives and dies whole", async () => {
  const world = await makeWorld();
  try {
    // 200 characters passed the name check, then the startup script's file name passed the
    // file system's 255 bytes: spawn_script_error after the name was taken.
    const long = `lisa-${"x".repeat(195)}`;
    const r = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      long,
      "--command",
      "sleep 60",
      "--json",
    ]);
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "invalid_session_name", r.stdout);
    ok(String(r.json?.error).includes("180"), r.stdout);
    deepStrictEqual([...Deno.readDirSync(world.runtimeDir)], []);
    const longest = `lisa-${"y".repeat(175)}`;
    const s = await spawn(world, ["--command", "sleep 60", "--session", longest]);
    const sent = await world.lisaInProcess([
      "session",
      "send",
      "--session",
      longest,
      "--text",
      "hi",
      "--enter",
      "--json",
    ]);
    strictEqual(sent.code, 0, sent.stdout);
    const killed = await world.lisaInProcess([
      "session",
      "kill",
      "--session",
      longest,
      "--json",
    ]);
    strictEqual(killed.code, 0, killed.stdout);
    deepStrictEqual(
      [...Deno.readDirSync(world.runtimeDir)].map((e) => e.name).filter((n) =>
        !n.includes("-events.jsonl") && !n.endsWith("-spawn.lock")
      ),
      [],
      s.session,
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a socket dir too long for a tmux socket: spawn says so and what to do, before anything is made", async () => {
  const world = await makeWorld();
  try {
    const deep = `${world.base}/${"s".repeat(100)}`;
    const r = await world.lisaInProcess(
      ["session", "spawn", "--session", "lisa-deep", "--command", "sleep 60", "--json"],
      { env: { LISA_TMUX_SOCKET_DIR: deep } },
    );
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "socket_path_too_long", r.stdout);
    ok(String(r.json?.error).includes("LISA_TMUX_SOCKET_DIR"), r.stdout);
    deepStrictEqual([...Deno.readDirSync(world.runtimeDir)], []);
  } finally {
    await world.dispose();
  }
});
