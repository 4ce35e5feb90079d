/**
 * One fleet across machines (issue 24): `list`, `tree --with-state` and `watch` with
 * `--all-hosts` through a real sshd, each row naming its host; hosts that cannot answer (a
 * closed port, a port that never speaks SSH, a lisa that never answers) are named in `hosts[]`
 * with `host_unreachable` and delay the others no longer than their timeouts; a single-host verb
 * against such a host fails fast and never runs here instead.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { loadConfig } from "../../src/base/config.ts";
import { makeDeps } from "../../src/base/deps.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import { freePort } from "../helpers/sshd.ts";
import { LISA_ARGV, waitFor, type World } from "../helpers/world.ts";
import { type Fleet, hostsTest, spawnOn, withFleet } from "./hosts_helpers.ts";

const CONNECT_TIMEOUT_SECONDS = 2;
const HOST_TIMEOUT_SECONDS = 4;

/** A TCP port that accepts connections and never says a word (ssh waits for its banner). */
function blackhole(): { port: number; close: () => void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) conns.push(conn);
    } catch { /* closed */ }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close: () => {
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      listener.close();
    },
  };
}

/** Processes whose argv is exactly `argv` (read from /proc). */
function processesRunning(argv: string[]): number[] {
  const out: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).split("\0").filter((w) => w);
      if (cmd.length === argv.length && cmd.every((w, i) => w === argv[i])) out.push(+e.name);
    } catch { /* gone */ }
  }
  return out;
}

/**
 * A fleet of box1 (served), `dead` (closed port), `mute` (no SSH banner) and, with `slow`, a
 * host whose lisa never answers.
 */
async function withTroubledFleet(
  body: (fleet: Fleet) => Promise<void>,
  slow = true,
): Promise<void> {
  const hole = blackhole();
  const closed = freePort();
  try {
    await withFleet({
      env: {
        LISA_HOST_CONNECT_TIMEOUT_SECONDS: String(CONNECT_TIMEOUT_SECONDS),
        LISA_HOST_TIMEOUT_SECONDS: String(HOST_TIMEOUT_SECONDS),
      },
      extraConfig: [
        "Host dead",
        "  HostName 127.0.0.1",
        `  Port ${closed}`,
        "Host mute",
        "  HostName 127.0.0.1",
        `  Port ${hole.port}`,
        "",
      ].join("\n"),
      extraHosts: [
        { name: "dead", ssh: "dead" },
        { name: "mute", ssh: "mute" },
      ],
    }, async (fleet) => {
      if (slow) {
        // A lisa that never answers: a script that execs a sleep (ending it ends the sleep).
        const script = `${fleet.world.base}/slow-lisa`;
        Deno.writeTextFileSync(script, "#!/bin/sh\nexec sleep 6007\n");
        Deno.chmodSync(script, 0o755);
        const file = JSON.parse(Deno.readTextFileSync(fleet.sshd.hostsFile));
        file.hosts.push({ name: "slow", ssh: "box1", lisa: script });
        Deno.writeTextFileSync(fleet.sshd.hostsFile, JSON.stringify(file));
      }
      await body(fleet);
    });
  } finally {
    hole.close();
  }
}

type Row = { host: string | null; session: string; state: string | null };

hostsTest(
  "list and tree --all-hosts name every row's host; hosts that cannot answer are listed and delay nobody past their timeout",
  async () => {
    await withTroubledFleet(async (fleet) => {
      const { world } = fleet;
      const here = await spawnOn(fleet, null, "sleep 300");
      const there = [
        await spawnOn(fleet, "box1", "sleep 301"),
        await spawnOn(fleet, "box1", "sleep 302", ["--tag", "two"]),
      ];
      const started = Date.now();
      const r = await world.lisaInProcess(["session", "list", "--all-hosts", "--json"]);
      const elapsed = Date.now() - started;
      strictEqual(r.code, 0, r.stdout + r.stderr);
      const items = r.json?.items as Row[];
      deepStrictEqual(
        items.map((i) => `${i.host}:${i.session}`).sort(),
        [`null:${here.session}`, ...there.map((s) => `box1:${s.session}`)].sort(),
      );
      ok(items.every((i) => i.state !== null), r.stdout);
      // `sessions` names each as --session finds it: HOST:name on another host.
      deepStrictEqual(
        (r.json?.sessions as string[]).sort(),
        [String(here.session), ...there.map((s) => `box1:${s.session}`)].sort(),
      );
      strictEqual(r.json?.count, 3);
      const hosts = Object.fromEntries(
        (r.json?.hosts as { name: string; ok: boolean; errorCode?: string; count?: number }[])
          .map((h) => [h.name, h]),
      );
      strictEqual(hosts.box1.ok, true);
      strictEqual(hosts.box1.count, 2);
      for (const name of ["dead", "mute", "slow"]) {
        strictEqual(hosts[name].ok, false, name);
        strictEqual(hosts[name].errorCode, "host_unreachable", JSON.stringify(hosts[name]));
      }
      // Each waited at most its own timeout, all at once: the slowest bounds the call.
      ok(elapsed < (HOST_TIMEOUT_SECONDS + 6) * 1000, `list took ${elapsed} ms`);
      // The lisa that never answered was ended with its connection.
      const gone = await waitFor(() => processesRunning(["sleep", "6007"]).length === 0, 10_000);
      ok(gone, `sleep 6007 still runs: ${processesRunning(["sleep", "6007"])}`);

      const table = await world.lisaInProcess(["session", "list", "--all-hosts"]);
      strictEqual(table.code, 0, table.stderr);
      ok(/^HOST\s+ALIAS/.test(table.stdout), table.stdout);
      ok(table.stdout.includes("(local)") && /\nbox1\s/.test(table.stdout), table.stdout);
      ok(/host dead: host_unreachable/.test(table.stderr), table.stderr);

      const tree = await world.lisaInProcess([
        "session",
        "tree",
        "--with-state",
        "--all-hosts",
        "--json",
      ]);
      strictEqual(tree.code, 0, tree.stdout + tree.stderr);
      const roots = tree.json?.roots as Row[];
      deepStrictEqual(
        roots.map((n) => `${n.host}:${n.session}`).sort(),
        [`null:${here.session}`, ...there.map((s) => `box1:${s.session}`)].sort(),
      );
      ok(roots.every((n) => typeof n.state === "string"), tree.stdout);
      strictEqual(tree.json?.nodeCount, 3);
      const treeText = await world.lisaInProcess(["session", "tree", "--all-hosts"]);
      ok(treeText.stdout.includes(`box1:${there[0].session}`), treeText.stdout);

      // The host's tmux server dies: its sessions are lost there, and counted so here.
      await world.tmux(String(there[0].socketPath), ["kill-server"]);
      const after = await world.lisaInProcess(["session", "list", "--all-hosts", "--json"]);
      strictEqual(after.code, 0, after.stdout + after.stderr);
      strictEqual(after.json?.lostCount, 2, after.stdout);
      const lostRows = (after.json?.items as (Row & { lost: boolean })[]).filter((i) => i.lost);
      deepStrictEqual(lostRows.map((i) => i.host), ["box1", "box1"]);
    });
  },
);

hostsTest(
  "a verb for a host that cannot be reached fails fast with host_unreachable and never runs here",
  async () => {
    await withTroubledFleet(async ({ world }) => {
      for (const host of ["dead", "mute"]) {
        const started = Date.now();
        const r = await world.lisaInProcess([
          "session",
          "spawn",
          "--host",
          host,
          "--command",
          "sleep 303",
          "--json",
        ]);
        const elapsed = Date.now() - started;
        strictEqual(r.code, 1, r.stdout);
        strictEqual(r.json?.errorCode, "host_unreachable", r.stdout);
        strictEqual(r.json?.host, host);
        ok(String(r.json?.error).includes(host), r.stdout);
        ok(elapsed < (CONNECT_TIMEOUT_SECONDS + 5) * 1000, `${host}: ${elapsed} ms`);
        const status = await world.lisaInProcess(["session", "status", "--session", `${host}:x`]);
        strictEqual(status.code, 1, status.stderr);
        ok(/host_unreachable|unreachable/.test(status.stderr), status.stderr);
      }
      // Nothing ran on this machine instead.
      const local = await world.lisaInProcess(["session", "list", "--json"]);
      strictEqual(local.json?.count, 0, local.stdout);
      // The hosts that are fine still answer.
      const fine = await world.lisaInProcess(["session", "list", "--host", "box1", "--json"]);
      strictEqual(fine.code, 0, fine.stdout + fine.stderr);
    }, false);
  },
);

/** Runs lisa's `main` in this process with `args`, its stdout readable while it runs. */
function running(world: World, args: string[]) {
  const io = new MemoryIo();
  const config = loadConfig(world.env, Deno.uid() ?? 0).config;
  const deps = makeDeps({
    env: world.env,
    config,
    cwd: world.projectRoot,
    uid: Deno.uid() ?? 0,
    now: () => new Date(),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    runner: new DenoRunner(config.cmdTimeoutSeconds * 1000),
    io,
    selfCommand: LISA_ARGV,
  });
  return { io, done: main(args, deps) };
}

hostsTest(
  "watch --all-hosts merges this machine's and each host's stream into one, each event naming its host",
  async () => {
    await withTroubledFleet(async (fleet) => {
      const { world } = fleet;
      const trigger = `${world.base}/go`;
      const wait = `while [ ! -e ${trigger} ]; do sleep 0.2; done`;
      const here = await spawnOn(fleet, null, wait);
      const there = await spawnOn(fleet, "box1", wait);
      const watch = running(world, [
        "session",
        "watch",
        "--all-hosts",
        "--until",
        "terminal",
        "--all",
        "--timeout-seconds",
        "120",
        "--json",
      ]);
      const events = () =>
        watch.io.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)) as Record<
          string,
          unknown
        >[];
      const appeared = await waitFor(() => {
        const seen = events().filter((e) => e.type === "appeared").map((e) => e.host);
        return seen.includes(null) && seen.includes("box1");
      }, 60_000);
      ok(appeared, watch.io.stdout + watch.io.stderr);
      Deno.writeTextFileSync(trigger, "");
      const code = await watch.done;
      strictEqual(code, 0, watch.io.stdout + watch.io.stderr);
      const all = events();
      const last = all.at(-1)!;
      strictEqual(last.type, "until_met", watch.io.stdout);
      deepStrictEqual(
        (last.sessions as Row[]).map((s) => `${s.host}:${s.session}`).sort(),
        [`null:${here.session}`, `box1:${there.session}`].sort(),
      );
      const lost = all.filter((e) => e.type === "host_unreachable").map((e) => e.host).sort();
      deepStrictEqual(lost, ["dead", "mute"]);
      ok(
        all.some((e) => e.host === "box1" && e.type === "changed" && e.to === "completed"),
        watch.io.stdout,
      );
      ok(all.filter((e) => e.type === "appeared").every((e) => e.host !== undefined));
    }, false);
  },
);
