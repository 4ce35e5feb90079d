/**
 * Soak of tmux under lisa's own traffic, to tell whether a control-mode client attached to a
 * server (what `watch` and the resident `lisa mcp` keep) makes the server crash more often when
 * sessions are killed and panes exit (tmux 3.3a is crash-prone there; DESIGN §4.7).
 *
 *   deno run -A scripts/tmux_soak.ts [--cycles N] [--mode none|ro|rw|all|unguarded]
 *
 * Each mode runs on fresh private servers (a temp socket dir; the default server is never
 * touched). Three busy sessions print a line every 50 ms, like working agents. A cycle spawns a
 * session the way spawn does (`newSessionCommands`: `remain-on-exit`, then `new-session`) and
 * ends it one of three ways: `kill-session` while its command runs; SIGTERM to the pane's
 * process (the pane dies, kept by `remain-on-exit`), then `kill-session`; the command exiting
 * by itself (status 3), then `kill-session`. In `ro` and `rw` modes a control client is attached
 * throughout (to the cycle's own session every other cycle, so the kill also ends the client's
 * session, as in the CI crash) and a reader sends what `status`/`list` send over it (list-panes
 * -a, capture-pane of each session) without pause; `rw` also sends keys and pastes (guarded by
 * `#{pane_dead}`, as lisa writes) into live panes. After each cycle the server's pid must still
 * run; a death is counted, reported, and the server started again. Prints one JSON line per
 * mode. `unguarded` is the positive control: `rw` whose paste skips the `#{pane_dead}` check
 * (the known crash), so a run shows the count can see a death.
 */
import { DenoRunner } from "../src/proc/runner.ts";
import { ControlChannel } from "../src/tmux/control.ts";
import { newSessionCommands } from "../src/tmux/sessions.ts";
import { Tmux } from "../src/tmux/tmux.ts";

const encoder = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
const warn = (line: string) => Deno.stderr.writeSync(encoder.encode(`${line}\n`));

type Mode = "none" | "ro" | "rw" | "unguarded";

const args = Deno.args;
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const CYCLES = Number(flag("cycles", "300"));
const MODES: Mode[] = flag("mode", "all") === "all"
  ? ["none", "ro", "rw"]
  : [flag("mode", "all") as Mode];

const runner = new DenoRunner(10_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BUSY = ["soak-busy-0", "soak-busy-1", "soak-busy-2"];
const BUSY_CMD = ["sh", "-c", "i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.05; done"];

function spawnCommands(session: string, argv: string[], cwd: string): string[][] {
  return newSessionCommands({ session, width: 120, height: 40, cwd, env: {}, argv });
}

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

async function until(what: string, check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One server with its busy sessions; returns the server's pid. */
async function startServer(tmux: Tmux, dir: string): Promise<number> {
  for (const s of BUSY) {
    const r = await tmux.run(spawnCommands(s, BUSY_CMD, dir));
    if (!r.success) throw new Error(`cannot start ${s}: ${r.stderr}`);
  }
  const r = await tmux.run([["display-message", "-p", "-t", `=${BUSY[0]}:`, "#{pid}"]]);
  return Number(r.stdout.trim());
}

async function soak(mode: Mode): Promise<Record<string, unknown>> {
  const dir = await Deno.makeTempDir({ prefix: "lisa-soak-" });
  const socket = `${dir}/soak.sock`;
  const tmux = new Tmux(runner, socket, 10_000);
  const bufferFile = `${dir}/buffer.txt`;
  await Deno.writeTextFile(bufferFile, "pasted text\nsecond line", { mode: 0o600 });
  let serverPid = await startServer(tmux, dir);
  let channel: ControlChannel | null = null;
  const deaths: { cycle: number; kind: string; step: string }[] = [];
  let reopens = 0;
  let traffic = 0;
  let running = true;
  let current = "";
  const started = Date.now();

  const open = (session: string) => {
    if (mode === "none") return;
    channel = ControlChannel.open(socket, session, { readOnly: mode === "ro" });
    reopens++;
  };
  const reader = (async () => {
    while (running) {
      const ch = channel as ControlChannel | null;
      if (ch === null || ch.closed) {
        await sleep(5);
        continue;
      }
      const sessions = [...BUSY, current].filter((s) => s !== "");
      const commands: string[][] = [
        ["list-panes", "-a", "-F", "#{session_name} #{pane_pid} #{pane_dead} #{pane_title}"],
        ...sessions.map((s) => ["capture-pane", "-p", "-J", "-t", `=${s}:`, "-S", "-200"]),
      ];
      if (mode === "rw" || mode === "unguarded") {
        const guard = (t: string, dead: string, write: string): string[] =>
          mode === "rw" ? ["if-shell", "-F", "-t", t, "#{pane_dead}", dead, write] : [
            "if-shell",
            "-F",
            "-t",
            t,
            "1",
            write,
          ];
        for (const s of [BUSY[traffic % BUSY.length], current].filter((x) => x !== "")) {
          const t = `=${s}:`;
          commands.push(guard(t, "", `send-keys -t '${t}' x`));
          commands.push(["load-buffer", "-b", "soak", bufferFile]);
          commands.push(guard(t, "delete-buffer -b soak", `paste-buffer -p -d -b soak -t '${t}'`));
        }
      }
      try {
        await ch.run(commands);
        traffic++;
      } catch { /* the client closed: reopened by the cycle */ }
    }
  })();

  open(BUSY[0]);
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const kind = ["kill_live", "term_then_kill", "exit_then_kill"][cycle % 3];
    const session = `soak-${cycle}`;
    let step = "spawn";
    try {
      const argv = kind === "exit_then_kill"
        ? ["sh", "-c", "echo bye; sleep 0.1; exit 3"]
        : ["sh", "-c", "echo start; exec sleep 60"];
      const r = await tmux.run(spawnCommands(session, argv, dir));
      if (!r.success) throw new Error(r.stderr);
      current = session;
      const ch = channel as ControlChannel | null;
      if (mode !== "none" && (cycle % 2 === 0 || ch === null || ch.closed)) {
        await (channel as ControlChannel | null)?.close();
        open(cycle % 2 === 0 ? session : BUSY[cycle % BUSY.length]);
      }
      step = "wait_output";
      await until("output", async () => {
        const c = await tmux.run([["capture-pane", "-p", "-S", "-", "-t", `=${session}:`]]);
        return /start|bye/.test(c.stdout);
      });
      if (kind === "term_then_kill") {
        step = "sigterm";
        const p = await tmux.run([["display-message", "-p", "-t", `=${session}:`, "#{pane_pid}"]]);
        Deno.kill(Number(p.stdout.trim()), "SIGTERM");
      }
      if (kind !== "kill_live") {
        step = "wait_dead";
        await until("pane death", async () => {
          const d = await tmux.run([[
            "display-message",
            "-p",
            "-t",
            `=${session}:`,
            "#{pane_dead}",
          ]]);
          return d.stdout.trim() === "1";
        });
      }
      step = "kill_session";
      const k = await tmux.run([["kill-session", "-t", `=${session}:`]]);
      current = "";
      if (!k.success) throw new Error(k.stderr);
      step = "check";
      await sleep(2);
    } catch (error) {
      // A crashing server can still be in /proc for a moment (dumping core): its clients'
      // "server exited unexpectedly" says enough.
      const gone = /server exited|lost server|no server running|error connecting/;
      if (!gone.test(String(error)) && alive(serverPid)) throw error;
      for (let i = 0; i < 200 && alive(serverPid); i++) await sleep(10);
    }
    if (!alive(serverPid)) {
      deaths.push({ cycle, kind, step });
      warn(`soak ${mode}: server died in cycle ${cycle} (${kind}, ${step})`);
      current = "";
      await (channel as ControlChannel | null)?.close();
      serverPid = await startServer(tmux, dir);
      open(BUSY[0]);
    }
  }
  running = false;
  await reader;
  await (channel as ControlChannel | null)?.close();
  await tmux.run([["kill-server"]]);
  await Deno.remove(dir, { recursive: true });
  return {
    mode,
    cycles: CYCLES,
    deaths: deaths.length,
    died: deaths,
    clientOpens: reopens,
    trafficRounds: traffic,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

for (const mode of MODES) print(JSON.stringify(await soak(mode)));
Deno.exit(0);
