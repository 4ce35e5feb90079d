import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { fakeDeps } from "../../../helpers/fake_deps.ts";
import { runCleanup } from "../../../../src/core/upkeep/cleanup.ts";
import type { SocketProbe } from "../../../../src/tmux/sessions.ts";
import type { Runner, RunOptions, RunResult } from "../../../../src/base/runner.ts";

const NOW = new Date("2026-03-01T12:00:00Z");
const HASH = "0123abcd";
const OTHER = "89abcdef";
const LIVE = `lisa-proj-260301-110000-1-claude-exec`;
const GONE = `lisa-proj-260301-100000-2-codex-exec`;

/** Answers `tmux -S <sock> list-sessions …` from a table; rejects every other call. */
class FakeTmux implements Runner {
  calls: string[][] = [];
  constructor(private readonly servers: Record<string, SocketProbe>) {}
  run(argv: readonly string[], _options?: RunOptions): Promise<RunResult> {
    this.calls.push([...argv]);
    if (argv[0] !== "tmux" || argv[2] !== "-S" || argv[4] !== "list-sessions") {
      return Promise.reject(new Error(`unexpected call: ${argv.join(" ")}`));
    }
    const probe = this.servers[argv[3]];
    if (probe === undefined || probe.kind === "stale") {
      return Promise.resolve({
        code: 1,
        success: false,
        stdout: "",
        stderr: `error connecting to ${argv[3]} (Connection refused)\n`,
      });
    }
    if (probe.kind === "unknown") {
      return Promise.resolve({ code: 1, success: false, stdout: "", stderr: probe.error });
    }
    return Promise.resolve({
      code: 0,
      success: true,
      stdout: probe.sessions.map((s) => `${s}\n`).join(""),
      stderr: "",
    });
  }
}

interface Fixture {
  dir: string;
  file(name: string, ageMs: number, content?: string): string;
  socket(name: string): string;
  dispose(): void;
}

function fixture(): Fixture {
  const dir = Deno.makeTempDirSync({ prefix: "lisa-cleanup-" });
  Deno.chmodSync(dir, 0o700);
  return {
    dir,
    file(name, ageMs, content = "x") {
      const path = `${dir}/${name}`;
      Deno.writeTextFileSync(path, content, { mode: 0o600 });
      const t = new Date(NOW.getTime() - ageMs);
      Deno.utimeSync(path, t, t);
      return path;
    },
    socket(name) {
      // A plain file stands in for the socket: the fake runner decides whether a server answers.
      return this.file(name, DAY);
    },
    dispose() {
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

function deps(dir: string, runner: Runner) {
  return fakeDeps({
    env: { LISA_RUNTIME_DIR: dir, LISA_EVENT_RETENTION_DAYS: "14" },
    now: () => NOW,
    runner,
  });
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A runtime dir with one live server (LIVE) and leftovers of GONE and of a dead server. */
function populate(f: Fixture) {
  const liveSock = f.socket(`lisa-tmux-proj-${HASH}.sock`);
  const deadSock = f.socket(`lisa-tmux-old-${OTHER}.sock`);
  const meta = (session: string, sock: string) => JSON.stringify({ session, socketPath: sock });
  const paths = {
    liveSock,
    deadSock,
    liveMeta: f.file(`.lisa-${HASH}-session-${LIVE}-meta.json`, 2 * HOUR, meta(LIVE, liveSock)),
    liveState: f.file(`.lisa-${HASH}-session-${LIVE}-state.json`, 2 * HOUR),
    liveScript: f.file(`lisa-cmd-${HASH}-${LIVE}-123456789.sh`, 3 * HOUR),
    goneMeta: f.file(`.lisa-${HASH}-session-${GONE}-meta.json`, 2 * HOUR, meta(GONE, liveSock)),
    goneDone: f.file(`.lisa-${HASH}-session-${GONE}-done.txt`, 2 * HOUR),
    goneLock: f.file(`.lisa-${HASH}-session-${GONE}-state.json.lock`, 2 * HOUR),
    goneOutput: f.file(`lisa-${HASH}-output-${GONE}.txt`, 2 * HOUR),
    goneEvents: f.file(`.lisa-${HASH}-session-${GONE}-events.jsonl`, 2 * HOUR),
    goneScriptOld: f.file(`lisa-cmd-${HASH}-${GONE}-1.sh`, 2 * HOUR),
    goneScriptNew: f.file(`lisa-cmd-${HASH}-${GONE}-2.sh`, 10 * 60_000),
    deadMeta: f.file(`.lisa-${OTHER}-session-lisa-old-1-claude-exec-meta.json`, DAY),
    deadEventsOld: f.file(`.lisa-${OTHER}-session-lisa-old-1-claude-exec-events.jsonl`, 20 * DAY),
    unrelated: f.file("notes.txt", 30 * DAY),
  };
  const servers: Record<string, SocketProbe> = {
    [liveSock]: { kind: "live", sessions: [LIVE] },
    [deadSock]: { kind: "stale" },
  };
  return { paths, servers };
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("cleanup removes only stale sockets, artifacts and old scripts of gone sessions", async () => {
  const f = fixture();
  try {
    const { paths: p, servers } = populate(f);
    const runner = new FakeTmux(servers);
    const r = await runCleanup(deps(f.dir, runner), { dryRun: false });
    deepStrictEqual(r.removed.sockets, [p.deadSock]);
    deepStrictEqual(
      r.removed.artifacts,
      [p.goneDone, p.goneMeta, p.goneLock, p.deadEventsOld, p.deadMeta, p.goneOutput]
        .sort(),
    );
    // The events log of a recently gone session stays for post-mortems; an old one goes.
    strictEqual(exists(p.goneEvents), true);
    strictEqual(exists(p.deadEventsOld), false);
    deepStrictEqual(r.removed.scripts, [p.goneScriptOld]);
    deepStrictEqual(r.kept.sockets, [p.liveSock]);
    deepStrictEqual(r.kept.scripts.sort(), [p.goneScriptNew, p.liveScript].sort());
    deepStrictEqual(r.liveSessions, [{ session: LIVE, socketPath: p.liveSock }]);
    for (const path of [p.liveMeta, p.liveState, p.liveScript, p.goneScriptNew, p.unrelated]) {
      strictEqual(exists(path), true, path);
    }
    for (const path of [p.deadSock, p.goneMeta, p.goneDone, p.goneOutput, p.deadMeta]) {
      strictEqual(exists(path), false, path);
    }
    // Only list-sessions was ever run: never a kill.
    strictEqual(runner.calls.every((c) => c[4] === "list-sessions"), true);
  } finally {
    f.dispose();
  }
});

Deno.test("cleanup keeps events logs younger than the retention window", async () => {
  const f = fixture();
  try {
    const events = f.file(`.lisa-${HASH}-session-${GONE}-events.jsonl`, 3 * DAY);
    const meta = f.file(`.lisa-${HASH}-session-${GONE}-meta.json`, 3 * DAY);
    const r = await runCleanup(deps(f.dir, new FakeTmux({})), { dryRun: false });
    deepStrictEqual(r.removed.artifacts, [meta]);
    deepStrictEqual(r.kept.artifacts, [events]);
    strictEqual(exists(events), true);
  } finally {
    f.dispose();
  }
});

Deno.test("cleanup --dry-run reports the same plan and changes nothing", async () => {
  const f = fixture();
  try {
    const { servers } = populate(f);
    const before = [...Deno.readDirSync(f.dir)].map((e) => e.name).sort();
    const dry = await runCleanup(deps(f.dir, new FakeTmux(servers)), { dryRun: true });
    const after = [...Deno.readDirSync(f.dir)].map((e) => e.name).sort();
    deepStrictEqual(after, before);
    strictEqual(dry.dryRun, true);
    const real = await runCleanup(deps(f.dir, new FakeTmux(servers)), { dryRun: false });
    deepStrictEqual(real.removed, dry.removed);
  } finally {
    f.dispose();
  }
});

Deno.test("cleanup keeps everything that depends on a server it could not ask", async () => {
  const f = fixture();
  try {
    const sock = f.socket(`lisa-tmux-proj-${HASH}.sock`);
    const meta = f.file(
      `.lisa-${HASH}-session-${GONE}-meta.json`,
      DAY,
      JSON.stringify({ session: GONE, socketPath: sock }),
    );
    const script = f.file(`lisa-cmd-${HASH}-${GONE}-1.sh`, DAY);
    const runner = new FakeTmux({ [sock]: { kind: "unknown", error: "permission denied" } });
    const r = await runCleanup(deps(f.dir, runner), { dryRun: false });
    deepStrictEqual(r.removed, { sockets: [], artifacts: [], scripts: [] });
    deepStrictEqual(r.kept.sockets, [sock]);
    deepStrictEqual(r.kept.artifacts, [meta]);
    deepStrictEqual(r.kept.scripts, [script]);
    deepStrictEqual(r.unknownSockets, [{ path: sock, error: "permission denied" }]);
  } finally {
    f.dispose();
  }
});

Deno.test("cleanup keeps artifacts touched within the grace period (a spawn in progress)", async () => {
  const f = fixture();
  try {
    const heartbeat = f.file(`.lisa-${HASH}-session-${GONE}-heartbeat.txt`, 5_000);
    const r = await runCleanup(deps(f.dir, new FakeTmux({})), { dryRun: false });
    deepStrictEqual(r.kept.artifacts, [heartbeat]);
    strictEqual(exists(heartbeat), true);
  } finally {
    f.dispose();
  }
});

Deno.test("a poll's fresh state file and event of a gone session are no sign of life: cleanup removes it", async () => {
  const f = fixture();
  try {
    const meta = f.file(`.lisa-${HASH}-session-${GONE}-meta.json`, 2 * HOUR, "{}");
    // A list or status just classified it not_found (server gone) and recorded that poll.
    const state = f.file(`.lisa-${HASH}-session-${GONE}-state.json`, 1_000);
    f.file(`.lisa-${HASH}-session-${GONE}-events.jsonl`, 1_000);
    const r = await runCleanup(deps(f.dir, new FakeTmux({})), { dryRun: false });
    deepStrictEqual(r.removed.artifacts, [meta, state].sort());
    strictEqual(exists(meta), false);
  } finally {
    f.dispose();
  }
});

Deno.test("cleanup with a project hash leaves other projects alone", async () => {
  const f = fixture();
  try {
    const { paths: p, servers } = populate(f);
    const r = await runCleanup(deps(f.dir, new FakeTmux(servers)), {
      dryRun: false,
      projectHash: HASH,
    });
    deepStrictEqual(r.removed.sockets, []);
    strictEqual(exists(p.deadSock), true);
    strictEqual(exists(p.deadMeta), true);
    strictEqual(exists(p.goneMeta), false);
  } finally {
    f.dispose();
  }
});

Deno.test("cleanup never follows or removes a symlink named like a socket", async () => {
  const f = fixture();
  try {
    const target = f.file("target.txt", DAY);
    const link = `${f.dir}/lisa-tmux-proj-${HASH}.sock`;
    Deno.symlinkSync(target, link);
    const runner = new FakeTmux({});
    const r = await runCleanup(deps(f.dir, runner), { dryRun: false });
    deepStrictEqual(r.removed.sockets, []);
    strictEqual(exists(link), true);
    strictEqual(runner.calls.length, 0);
  } finally {
    f.dispose();
  }
});
