/**
 * kill against daemons that left the pane twice over: they double-forked (reparented away from
 * the command) and cleared their environment (no LISA_RUN_ID to find them by). The pane's
 * wrapper is a child subreaper, so they stay in its subtree; these tests find each one by pid
 * (unique sleep durations, start time checked) and end whatever they could leave behind.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { listPids, readProc, readStat } from "../../src/proc/table.ts";
import { makeWorld, waitFor, type World } from "../helpers/world.ts";
import { artifact, endStray, readIf, spawn, type Spawned, waitDone } from "./lifecycle_helpers.ts";
import { status, statusUntil } from "./status_helpers.ts";

/** A process found by its exact argv: pid and start time (to tell a reused pid apart). */
interface Found {
  pid: number;
  startTime: number;
  ppid: number;
}

/** Sleep durations no other test uses: one base per run. */
function durations(count: number): number[] {
  const base = 40_000 + Math.floor(Math.random() * 50_000) * 4;
  return Array.from({ length: count }, (_, i) => base + i);
}

/** The running process whose argv is exactly `sleep <seconds>` (any path), or undefined. */
function findSleep(seconds: number): Found | undefined {
  for (const pid of listPids()) {
    const p = readProc(pid);
    if (p === null || p.state === "Z" || p.argv.length !== 2) continue;
    if (p.argv[1] !== String(seconds) || !/(^|\/)sleep$/.test(p.argv[0])) continue;
    return { pid, startTime: p.startTime, ppid: p.ppid };
  }
  return undefined;
}

function stillRuns(f: Found): boolean {
  const s = readStat(f.pid);
  return s !== null && s.startTime === f.startTime && s.state !== "Z" && s.state !== "X";
}

/** Waits until every duration has its process; returns them in order. */
async function waitSleeps(secs: number[]): Promise<Found[]> {
  const found = await waitFor(() => {
    const all = secs.map(findSleep);
    return all.every((f) => f !== undefined) ? all as Found[] : undefined;
  }, 30_000);
  ok(found, `not all of ${secs.join(", ")} started: ${JSON.stringify(secs.map(findSleep))}`);
  return found;
}

/** SIGKILL by pid (start time checked): the test's own safety net. */
function endFound(found: readonly (Found | undefined)[]): void {
  for (const f of found) {
    if (f === undefined || !stillRuns(f)) continue;
    try {
      Deno.kill(f.pid, "SIGKILL");
    } catch { /* gone */ }
  }
}

/** Every process still running with one of `secs` as its sleep duration (any pid). */
function leftovers(secs: readonly number[]): Found[] {
  return secs.map(findSleep).filter((f): f is Found => f !== undefined);
}

async function kill(world: World, s: Spawned) {
  const r = await world.lisaInProcess(["session", "kill", "--session", s.session, "--json"]);
  strictEqual(r.code, 0, r.stdout + r.stderr);
  return r.json as {
    ok: boolean;
    processes: { signalled: number; remaining: unknown[]; coverage: Record<string, boolean> };
  };
}

Deno.test("kill ends daemons that double-forked and cleared their environment, and says what it searched", async () => {
  const world = await makeWorld();
  const secs = durations(4);
  let found: (Found | undefined)[] = [];
  try {
    const [a, b, c, d] = secs;
    const s = await spawn(world, [
      "--session",
      "lisa-daemons",
      "--command",
      `env -i setsid -f /bin/sleep ${a}; setsid -f sleep ${b}; ` +
      `( ( env -i /bin/sleep ${c} & ) & ); sleep ${d}`,
    ]);
    found = await waitSleeps(secs);
    const j = await kill(world, s);
    deepStrictEqual(j.processes.remaining, []);
    strictEqual(j.ok, true);
    deepStrictEqual(
      found.map((f, i) => `${secs[i]}:${stillRuns(f!) ? "alive" : "ended"}`),
      secs.map((n) => `${n}:ended`),
    );
    deepStrictEqual(leftovers(secs), []);
    deepStrictEqual(j.processes.coverage, { subtree: true, runIdScan: true, subreaper: true });
  } finally {
    endFound(found);
    endFound(leftovers(secs));
    await endStray();
    await world.dispose();
  }
});

Deno.test("a command that exits leaving a daemon is crashed with its status, and kill still ends the daemon", async () => {
  const world = await makeWorld();
  const [n] = durations(1);
  let found: (Found | undefined)[] = [];
  try {
    const s = await spawn(world, [
      "--session",
      "lisa-left",
      "--command",
      `env -i setsid -f /bin/sleep ${n}; exit 3`,
    ]);
    strictEqual(await waitDone(world, s), `${s.runId}:3`);
    found = await waitSleeps([n]);
    const report = await status(world, s.session);
    strictEqual(report.sessionState, "crashed", JSON.stringify(report));
    strictEqual(report.exitCode, 3);
    strictEqual(report.signals.paneStatus, "alive");
    // The wrapper holds the daemon it adopted: the pane stays open while it runs.
    const pane = await world.tmux(s.socketPath, [
      "display-message",
      "-p",
      "-t",
      `=${s.session}:`,
      "#{pane_dead} #{pane_pid}",
    ]);
    const [dead, panePid] = pane.stdout.trim().split(" ");
    strictEqual(dead, "0");
    strictEqual(found[0]!.ppid, Number(panePid), "the daemon is adopted by the pane's wrapper");
    const j = await kill(world, s);
    deepStrictEqual(j.processes.remaining, []);
    strictEqual(stillRuns(found[0]!), false);
    strictEqual(j.processes.coverage.subreaper, true);
  } finally {
    endFound(found);
    await endStray();
    await world.dispose();
  }
});

Deno.test("the wrapper reaps what it adopted and exits with the command's status once its daemons end", async () => {
  const world = await makeWorld();
  const [n] = durations(1);
  let found: (Found | undefined)[] = [];
  try {
    const s = await spawn(world, [
      "--session",
      "lisa-reap",
      "--command",
      `for i in 1 2 3 4 5 6 7 8 9 10; do setsid -f true; ( true & ); done; ` +
      `setsid -f sleep ${n}; exit 4`,
    ]);
    strictEqual(await waitDone(world, s), `${s.runId}:4`);
    found = await waitSleeps([n]);
    const panePid = found[0]!.ppid;
    // No zombie builds up under the wrapper: the only child left is the daemon (plus, for a
    // moment, the wrapper's own `sleep 1` between checks).
    const kids = await waitFor(() => {
      const text = readIf(`/proc/${panePid}/task/${panePid}/children`) ?? "";
      const states = text.trim().split(/\s+/).filter(Boolean).map((p) => readStat(Number(p)));
      return states.every((st) => st !== null && st.state !== "Z") ? states : undefined;
    }, 10_000);
    ok(kids, "zombies stayed under the wrapper");
    ok(kids.some((k) => k?.pid === found[0]!.pid));
    Deno.kill(found[0]!.pid, "SIGTERM");
    const after = await statusUntil(world, s.session, (r) => r.signals.paneStatus !== "alive");
    strictEqual(after.sessionState, "crashed", JSON.stringify(after));
    strictEqual(after.exitCode, 4);
    // The wrapper's own exit status is the command's. tmux 3.3a can miss a SIGCHLD and keep the
    // status empty until nudged (as status does when no done file tells).
    const exited = await waitFor(async () => {
      const r = await world.tmux(s.socketPath, [
        "display-message",
        "-p",
        "-t",
        `=${s.session}:`,
        "#{pane_dead}:#{pane_dead_status}:#{pid}",
      ]);
      const [dead, code, server] = r.stdout.trim().split(":");
      if (dead === "1" && code === "") Deno.kill(Number(server), "SIGCHLD");
      return dead === "1" && code !== "" ? code : undefined;
    }, 10_000);
    strictEqual(exited, "4");
    ok(readIf(artifact(world, s, "done.txt")) !== undefined);
  } finally {
    endFound(found);
    await endStray();
    await world.dispose();
  }
});

/** A PATH dir with every program of `/usr/bin` but perl: the wrapper cannot become a subreaper. */
function pathWithoutPerl(world: World): string {
  const dir = `${world.base}/no-perl-bin`;
  Deno.mkdirSync(dir);
  for (const e of Deno.readDirSync("/usr/bin")) {
    if (e.name.startsWith("perl")) continue;
    Deno.symlinkSync(`/usr/bin/${e.name}`, `${dir}/${e.name}`);
  }
  return dir;
}

Deno.test("without perl the wrapper is no subreaper, and kill says so instead of claiming it saw everything", async () => {
  const world = await makeWorld();
  const [hidden, kept, plain] = durations(3);
  let found: (Found | undefined)[] = [];
  try {
    const env = { PATH: `${pathWithoutPerl(world)}:${world.env.PATH.split(":")[0]}` };
    const r = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      "lisa-noperl",
      "--command",
      `env -i setsid -f /bin/sleep ${hidden}; setsid -f sleep ${kept}; sleep ${plain}`,
      "--json",
    ], { env });
    strictEqual(r.code, 0, r.stdout + r.stderr);
    const s = r.json as unknown as Spawned;
    found = await waitSleeps([hidden, kept, plain]);
    strictEqual(readIf(artifact(world, s, "heartbeat.txt")), "");
    const j = await kill(world, s);
    deepStrictEqual(j.processes.coverage, { subtree: true, runIdScan: true, subreaper: false });
    deepStrictEqual(j.processes.remaining, []);
    // What kill could see ended; the daemon that left the pane and cleared its environment is
    // exactly the gap `subreaper: false` admits.
    strictEqual(stillRuns(found[1]!), false);
    strictEqual(stillRuns(found[2]!), false);
    strictEqual(stillRuns(found[0]!), true);
  } finally {
    endFound(found);
    await endStray();
    await world.dispose();
  }
});
