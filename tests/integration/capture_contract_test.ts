/**
 * The delta contract of `capture --delta-from` against real tmux, with the output shapes real
 * programmes and agents produce (tests/fixtures/capture_gen.sh): a reader that polls deltas
 * gets every finished line exactly once, in order, compared with what the generator wrote;
 * lines still being redrawn are in `live`; history lost to tmux's limit is a reset with a
 * reason, never a silent gap.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { makeWorld, REPO_ROOT, waitFor, type World } from "../helpers/world.ts";
import { canonicalProjectRoot, projectHash, projectSlug } from "../../src/core/session/identity.ts";
import { socketPath } from "../../src/store/runtime_dir.ts";

const GENERATOR = `${REPO_ROOT}/tests/fixtures/capture_gen.sh`;

interface Generator {
  session: string;
  truth: string;
  go: string;
}

/** Starts the generator `args` in a new 80x12 session on the project's socket. */
async function startGenerator(
  world: World,
  session: string,
  args: string[],
  options: { historyLimit?: number; paced?: boolean } = {},
): Promise<Generator> {
  const root = canonicalProjectRoot(world.projectRoot, world.projectRoot);
  const socket = socketPath(world.socketDir, projectSlug(root), projectHash(root));
  const truth = `${world.base}/${session}.truth`;
  const go = `${world.base}/${session}.go`;
  const env = [`TRUTH=${truth}`, ...(options.paced === false ? [] : [`GO=${go}`])];
  const res = await world.tmux(socket, [
    "set-option",
    "-g",
    "history-limit",
    String(options.historyLimit ?? 50_000),
    ";",
    "new-session",
    "-d",
    "-s",
    session,
    "-x",
    "80",
    "-y",
    "12",
    "--",
    "env",
    ...env,
    "bash",
    GENERATOR,
    ...args,
  ]);
  strictEqual(res.code, 0, res.stderr);
  return { session, truth, go };
}

interface Poll {
  lines: string[];
  live: string;
  reset: boolean;
  reason?: string;
}

/** A reader polling deltas through `lisa session capture --delta-from --json`. */
class Reader {
  received: string[] = [];
  polls: Poll[] = [];
  constructor(private world: World, private session: string, public token: string) {}

  /** A reader whose first capture is a plain one (what it returned counts as received). */
  static async start(world: World, session: string): Promise<Reader> {
    const res = await world.lisaInProcess(["session", "capture", "--session", session, "--json"]);
    strictEqual(res.code, 0, res.stdout + res.stderr);
    const reader = new Reader(world, session, String(res.json!.nextOffset));
    reader.first = String(res.json!.capture) === "" ? [] : String(res.json!.capture).split("\n");
    return reader;
  }

  /** What the first (plain) capture returned. */
  first: string[] = [];

  async poll(): Promise<Poll> {
    const res = await this.world.lisaInProcess([
      "session",
      "capture",
      "--session",
      this.session,
      "--delta-from",
      this.token,
      "--json",
    ]);
    strictEqual(res.code, 0, res.stdout + res.stderr);
    const j = res.json!;
    const text = String(j.capture);
    const delta = j.delta as { reset: boolean; reason?: string };
    const poll: Poll = {
      lines: text === "" ? [] : text.split("\n"),
      live: String(j.live ?? ""),
      reset: delta.reset,
      ...(delta.reason ? { reason: delta.reason } : {}),
    };
    if (!poll.reset) this.received.push(...poll.lines);
    this.polls.push(poll);
    this.token = String(j.nextOffset);
    return poll;
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function truthLines(gen: Generator): string[] {
  const text = Deno.readTextFileSync(gen.truth);
  return text === "" ? [] : text.replace(/\n$/, "").split("\n");
}

/** Lets the generator take step `n` and waits until it has written it (or ended). */
async function step(gen: Generator, n: number): Promise<boolean> {
  Deno.writeTextFileSync(`${gen.go}.${n}`, "");
  ok(
    // A file check is cheap: look often, so a step costs what the generator takes, not a tick.
    await waitFor(() => exists(`${gen.go}.${n}.ack`) || exists(`${gen.truth}.end`), 20_000, 10),
    `step ${n} not taken`,
  );
  return !exists(`${gen.truth}.end`);
}

/** Runs a paced generator to its end, polling after every step; then polls until nothing new. */
async function runPaced(gen: Generator, reader: Reader): Promise<void> {
  for (let n = 1; await step(gen, n); n++) await reader.poll();
  await settle(reader);
}

/** Polls until two polls in a row return nothing (tmux has drawn everything written). */
async function settle(reader: Reader): Promise<void> {
  let quiet = 0;
  for (let i = 0; i < 50 && quiet < 2; i++) {
    await new Promise((r) => setTimeout(r, 100));
    quiet = (await reader.poll()).lines.length === 0 ? quiet + 1 : 0;
  }
}

const FOOTER_RE = /^(╭─+╮|│ > type here +│|╰─+╯|. Working \(\d+s · esc to interrupt\))$/;

Deno.test("plain lines: every line exactly once", async () => {
  const world = await makeWorld();
  try {
    const gen = await startGenerator(world, "lisa-cc-plain", ["plain", "60"]);
    const reader = await Reader.start(world, gen.session);
    await runPaced(gen, reader);
    deepStrictEqual(reader.received, truthLines(gen));
    strictEqual(reader.received.length, 60);
    ok(reader.polls.every((p) => !p.reset));
  } finally {
    await world.dispose();
  }
});

Deno.test("lines above a redrawn footer: each log line once, the footer in live", async () => {
  const world = await makeWorld();
  try {
    const gen = await startGenerator(world, "lisa-cc-footer", ["footer", "40"]);
    ok(
      await waitFor(async () => {
        const r = await world.lisaInProcess(["session", "capture", "--session", gen.session]);
        return r.stdout.includes("type here");
      }, 15_000),
    );
    const reader = await Reader.start(world, gen.session);
    await runPaced(gen, reader);
    deepStrictEqual(reader.received, truthLines(gen));
    strictEqual(reader.received.length, 40);
    const live = reader.polls.at(-1)!.live.split("\n");
    strictEqual(live.length, 4, live.join("\n"));
    ok(live.every((l) => FOOTER_RE.test(l)), live.join("\n"));
    ok(reader.polls.every((p) => !p.reset));
  } finally {
    await world.dispose();
  }
});

Deno.test("lines above a footer redrawn at random moments: no log line lost or repeated", async () => {
  const world = await makeWorld();
  try {
    const gen = await startGenerator(world, "lisa-cc-footer-free", ["footer", "60"], {
      paced: false,
    });
    const reader = await Reader.start(world, gen.session);
    while (!exists(`${gen.truth}.end`)) await reader.poll();
    await settle(reader);
    // Polls race the frames; the footer may come back whole if a poll saw it half drawn, but
    // every log line arrives exactly once and in order.
    // The first capture may already hold the first log lines (the generator runs free).
    const logs = [...reader.first, ...reader.received].filter((l) => l.startsWith("log "));
    deepStrictEqual(logs, truthLines(gen), JSON.stringify(reader.polls));
    ok(reader.polls.every((p) => !p.reset));
  } finally {
    await world.dispose();
  }
});

Deno.test("a row growing without a newline comes once, whole, and is live meanwhile", async () => {
  const world = await makeWorld();
  try {
    const gen = await startGenerator(world, "lisa-cc-growth", ["growth"]);
    const reader = await Reader.start(world, gen.session);
    await runPaced(gen, reader);
    deepStrictEqual(reader.received, truthLines(gen));
    ok(reader.polls.some((p) => /^\.{3,}$/.test(p.live)), JSON.stringify(reader.polls));
    ok(reader.polls.some((p) => p.live === "............progress 10%"));
  } finally {
    await world.dispose();
  }
});

Deno.test("\\r progress: the line is live while it changes and comes once with its final text", async () => {
  const world = await makeWorld();
  try {
    const gen = await startGenerator(world, "lisa-cc-progress", ["progress"]);
    const reader = await Reader.start(world, gen.session);
    await runPaced(gen, reader);
    deepStrictEqual(reader.received, truthLines(gen));
    ok(reader.polls.some((p) => p.live === "progress 50%"), JSON.stringify(reader.polls));
    ok(reader.polls.every((p) => !p.reset));
  } finally {
    await world.dispose();
  }
});

Deno.test("60 000 identical lines: counted exactly until tmux may drop history, then a reset says so", async () => {
  const world = await makeWorld();
  try {
    const gen = await startGenerator(world, "lisa-cc-same", ["same", "60000", "5000"]);
    const reader = await Reader.start(world, gen.session);
    let n = 1;
    for (; await step(gen, n); n++) {
      const p = await reader.poll();
      if (n * 5000 < 45_000) {
        // Below 90 % of the limit tmux has dropped nothing: every chunk is counted exactly.
        deepStrictEqual([n, p.reset, p.lines.length], [n, false, 5000]);
      } else if (p.reset) {
        strictEqual(p.reason, "history_trimmed");
      } else {
        strictEqual(p.lines.length, 5000);
      }
    }
    await settle(reader);
    strictEqual(n, 12); // the twelfth chunk ends the generator; settle() polls it
    ok(reader.polls.some((p) => p.reset), "past the limit, identical lines cannot be placed");
    ok(reader.polls.every((p) => p.lines.every((l) => l === "same")));
  } finally {
    await world.dispose();
  }
});

Deno.test("output past the history limit: distinct lines are placed after trims; a gap resets", async () => {
  const world = await makeWorld();
  try {
    const gen = await startGenerator(world, "lisa-cc-numbered", ["numbered", "8000", "500"], {
      historyLimit: 2000,
    });
    const reader = await Reader.start(world, gen.session);
    await runPaced(gen, reader);
    deepStrictEqual(reader.received, truthLines(gen));
    ok(reader.polls.every((p) => !p.reset));

    // More than the whole history between two polls: the reader is told, not misled.
    const big = await startGenerator(world, "lisa-cc-numbered-big", ["numbered", "6000", "3000"], {
      historyLimit: 2000,
    });
    const bigReader = await Reader.start(world, big.session);
    await step(big, 1);
    await bigReader.poll();
    await step(big, 2);
    const p = await bigReader.poll();
    deepStrictEqual([p.reset, p.reason], [true, "history_trimmed"]);
    deepStrictEqual(p.lines.at(-1), "n 6000");
  } finally {
    await world.dispose();
  }
});
