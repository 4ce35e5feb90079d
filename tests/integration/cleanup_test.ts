/**
 * `lisa cleanup` against real tmux: live sessions (never attached) stay alive with their
 * artifacts; a dead server's socket and gone sessions' artifacts go; `--dry-run` changes nothing.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { projectHash } from "../../src/core/session/identity.ts";
import { LISA_ARGV, makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn } from "./lifecycle_helpers.ts";

const OLD = new Date(Date.now() - 3 * 3600_000);

function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

function oldFile(path: string, content = "x"): string {
  Deno.writeTextFileSync(path, content, { mode: 0o600 });
  Deno.utimeSync(path, OLD, OLD);
  return path;
}

/** A socket whose server died without removing it (SIGKILL of a server this test started). */
async function staleSocket(world: World, name: string): Promise<string> {
  const sock = `${world.socketDir}/${name}`;
  strictEqual((await world.tmux(sock, ["new-session", "-d", "-s", "victim", "sleep 300"])).code, 0);
  const out = (await world.tmux(sock, ["display-message", "-p", "#{pid} #{pane_pid}"])).stdout;
  const [pid, panePid] = out.trim().split(" ").map(Number);
  ok(pid > 0 && panePid > 0);
  // End the pane's process too: a SIGKILLed server leaves its children running.
  Deno.kill(panePid, "SIGKILL");
  Deno.kill(pid, "SIGKILL");
  for (let i = 0; i < 50; i++) {
    try {
      Deno.kill(pid, "SIGCONT");
      await new Promise((r) => setTimeout(r, 20));
    } catch {
      break;
    }
  }
  ok(Deno.lstatSync(sock).isSocket);
  return sock;
}

async function alive(world: World, socket: string, session: string): Promise<boolean> {
  return (await world.tmux(socket, ["has-session", "-t", `=${session}`])).code === 0;
}

Deno.test("cleanup keeps live unattached sessions and removes only what is stale", async () => {
  const world = await makeWorld();
  try {
    const hash = projectHash(Deno.realPathSync(world.projectRoot));
    const spawned = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      "lisa-keep-me",
      "--mode",
      "exec",
      "--command",
      "sleep 120",
      "--json",
    ]);
    strictEqual(spawned.code, 0, spawned.stdout + spawned.stderr);
    const liveSocket = spawned.json!.socketPath as string;
    // Age the live session's artifacts: age alone must not make them stale.
    for (const name of listing(world.runtimeDir)) {
      if (!name.includes("lisa-keep-me")) continue;
      try {
        Deno.utimeSync(`${world.runtimeDir}/${name}`, OLD, OLD);
      } catch (error) {
        // The startup script deletes itself once bash has opened it.
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    const dead = await staleSocket(world, "lisa-tmux-stale-0badc0de.sock");
    const goneMeta = oldFile(
      `${world.runtimeDir}/.lisa-${hash}-session-lisa-gone-meta.json`,
      JSON.stringify({ session: "lisa-gone", socketPath: liveSocket }),
    );
    const goneOutput = oldFile(`${world.runtimeDir}/lisa-${hash}-output-lisa-gone.txt`);
    const goneScript = oldFile(`${world.runtimeDir}/lisa-cmd-${hash}-lisa-gone-12345.sh`);
    const deadMeta = oldFile(
      `${world.runtimeDir}/.lisa-0badc0de-session-lisa-dead-meta.json`,
      JSON.stringify({ session: "lisa-dead", socketPath: dead }),
    );
    const runtimeBefore = listing(world.runtimeDir);
    const socketsBefore = listing(world.socketDir);

    const dry = await world.lisaInProcess(["cleanup", "--dry-run", "--json"]);
    strictEqual(dry.code, 0, dry.stdout + dry.stderr);
    strictEqual(dry.json!.dryRun, true);
    deepStrictEqual(listing(world.runtimeDir), runtimeBefore);
    deepStrictEqual(listing(world.socketDir), socketsBefore);

    const real = await world.lisaInProcess(["cleanup", "--json"]);
    strictEqual(real.code, 0, real.stdout + real.stderr);
    const json = real.json!;
    strictEqual(json.ok, true);
    deepStrictEqual(json.removed, dry.json!.removed);
    const removed = json.removed as Record<string, string[]>;
    deepStrictEqual(removed.sockets, [dead]);
    deepStrictEqual(removed.artifacts, [goneMeta, deadMeta, goneOutput].sort());
    deepStrictEqual(removed.scripts, [goneScript]);
    deepStrictEqual(json.liveSessions, [{ session: "lisa-keep-me", socketPath: liveSocket }]);
    ok((json.kept as Record<string, string[]>).sockets.includes(liveSocket));

    // The live session, never attached, is still running, with its meta.
    ok(await alive(world, liveSocket, "lisa-keep-me"));
    ok(listing(world.runtimeDir).includes(`.lisa-${hash}-session-lisa-keep-me-meta.json`));
    const status = await world.lisaInProcess(["session", "exists", "--session", "lisa-keep-me"]);
    strictEqual(status.code, 0, status.stdout + status.stderr);

    // A second run has nothing left to remove.
    const again = await world.lisaInProcess(["cleanup", "--json"]);
    deepStrictEqual(again.json!.removed, { sockets: [], artifacts: [], scripts: [] });
  } finally {
    await world.dispose();
  }
});

Deno.test("cleanup prints a short human summary", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisaInProcess(["cleanup", "--dry-run"]);
    strictEqual(r.code, 0, r.stderr);
    ok(r.stdout.startsWith("would remove: 0 socket(s), 0 artifact(s), 0 script(s)"), r.stdout);
  } finally {
    await world.dispose();
  }
});

async function mkfifo(path: string): Promise<void> {
  strictEqual((await new Deno.Command("mkfifo", { args: ["-m", "600", path] }).output()).code, 0);
}

/**
 * Runs lisa with `args` and checks that it ends, with exit 0: a read of a FIFO blocks until a
 * writer comes, so a call that hangs is ended after 15 s and fails the test.
 */
async function endsDespiteFifo(world: World, args: string[]): Promise<void> {
  const out = await new Deno.Command(LISA_ARGV[0], {
    args: [...LISA_ARGV.slice(1), ...args],
    cwd: world.projectRoot,
    env: world.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(15_000),
  }).output();
  strictEqual(out.signal, null, `lisa ${args.join(" ")} hung on the FIFO`);
  strictEqual(out.code, 0, `lisa ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

Deno.test("a FIFO named like a session's meta or event log hangs neither cleanup nor the fleet verbs", async () => {
  const world = await makeWorld();
  try {
    const hash = projectHash(Deno.realPathSync(world.projectRoot));
    for (const kind of ["meta.json", "events.jsonl", "hooks.jsonl", "done.txt"]) {
      await mkfifo(`${world.runtimeDir}/.lisa-${hash}-session-lisa-fifo-${kind}`);
    }
    for (
      const args of [
        ["cleanup", "--dry-run", "--json"],
        ["session", "list", "--stale", "--json"],
        ["session", "tree", "--with-state", "--json"],
        ["session", "kill-all", "--json"],
      ]
    ) {
      await endsDespiteFifo(world, args);
    }
  } finally {
    await world.dispose();
  }
});

Deno.test("a live agent's hooks log replaced by a FIFO hangs neither status nor list", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--agent", "claude"], { FAKE_BEHAVIOR: "idle" });
    const hooks = artifact(world, s, "hooks.jsonl");
    ok(await waitFor(() => (readIf(hooks) ?? "").includes("SessionStart") || undefined, 30_000));
    Deno.removeSync(hooks);
    await mkfifo(hooks);
    for (
      const args of [
        ["session", "status", "--session", s.session, "--json"],
        ["session", "list", "--json"],
      ]
    ) {
      await endsDespiteFifo(world, args);
    }
  } finally {
    await endStray();
    await world.dispose();
  }
});
