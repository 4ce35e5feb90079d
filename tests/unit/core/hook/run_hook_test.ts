/**
 * `lisa hook`: the command itself (as a subprocess, the way agents call it) and its stdin reader.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { type HookIo, readStdinCapped, runHook } from "../../../../src/core/hook/run_hook.ts";
import { MAX_LINE_BYTES } from "../../../../src/core/hook/hook_record.ts";
import { LISA_ARGV } from "../../../helpers/world.ts";
import { markRead } from "../../../../src/store/events.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface HookRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `lisa hook …args` as a subprocess with `stdin` piped in. */
async function hook(
  args: string[],
  env: Record<string, string>,
  stdin: string | Uint8Array = "",
): Promise<HookRun> {
  const inherited = Deno.env.toObject();
  for (const key of Object.keys(inherited)) if (key.startsWith("LISA_")) delete inherited[key];
  const child = new Deno.Command(LISA_ARGV[0], {
    args: [...LISA_ARGV.slice(1), "hook", ...args],
    env: { ...inherited, ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  try {
    await writer.write(typeof stdin === "string" ? encoder.encode(stdin) : stdin);
    await writer.close();
  } catch { /* the hook may stop reading early; that is allowed */ }
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

function readLines(path: string): Record<string, unknown>[] {
  const text = Deno.readTextFileSync(path);
  ok(text.endsWith("\n"), "the file ends with a newline");
  return text.slice(0, -1).split("\n").map((line) => {
    ok(encoder.encode(line + "\n").length <= MAX_LINE_BYTES, "line below 4 KiB");
    return JSON.parse(line);
  });
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lisa-hook-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const STOP = JSON.stringify({
  session_id: "11111111-2222-3333-4444-555555555555",
  transcript_path: "/tmp/t.jsonl",
  hook_event_name: "Stop",
  last_assistant_message: "done",
});

Deno.test("lisa hook claude appends one record, prints nothing and exits 0", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const run = await hook(["claude"], { LISA_HOOK_FILE: file, LISA_RUN_ID: "r1" }, STOP);
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    const lines = readLines(file);
    strictEqual(lines.length, 1);
    strictEqual(lines[0].event, "Stop");
    strictEqual(lines[0].runId, "r1");
    strictEqual(lines[0].agentSessionId, "11111111-2222-3333-4444-555555555555");
    strictEqual(Deno.statSync(file).mode! & 0o777, 0o600);
  });
});

Deno.test("lisa hook exits 0 silently on junk input and still records the call", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const run = await hook(["claude"], { LISA_HOOK_FILE: file, LISA_RUN_ID: "r1" }, "{{{ junk");
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    const lines = readLines(file);
    strictEqual(lines.length, 1);
    strictEqual(lines[0].event, "unknown");
  });
});

Deno.test("lisa hook exits 0 on a 200 KB payload and writes one short line", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const payload = JSON.stringify({
      hook_event_name: "UserPromptSubmit",
      session_id: "s",
      prompt: "p".repeat(200_000),
    });
    const run = await hook(["claude"], { LISA_HOOK_FILE: file, LISA_RUN_ID: "r1" }, payload);
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    const lines = readLines(file);
    strictEqual(lines.length, 1);
    strictEqual(lines[0].event, "UserPromptSubmit");
    strictEqual((lines[0].preview as string).length, 200);
  });
});

Deno.test("lisa hook drains an input far beyond its cap without failing the writer", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const payload = encoder.encode(
      `{"hook_event_name":"Stop","session_id":"s","last_assistant_message":"${
        "m".repeat(1_000_000)
      }"}`,
    );
    const run = await hook(["claude"], { LISA_HOOK_FILE: file, LISA_RUN_ID: "r1" }, payload);
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    const lines = readLines(file);
    strictEqual(lines.length, 1);
    strictEqual(lines[0].event, "Stop");
  });
});

Deno.test("8 parallel lisa hook calls give 8 whole lines", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        hook(
          ["claude"],
          { LISA_HOOK_FILE: file, LISA_RUN_ID: "r1" },
          JSON.stringify({
            hook_event_name: "Notification",
            notification_type: `t${i}`,
            message: "x".repeat(3000),
          }),
        )),
    );
    for (const run of runs) deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    const lines = readLines(file);
    strictEqual(lines.length, 8);
    deepStrictEqual(
      lines.map((l) => l.notificationType).sort(),
      ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"],
    );
  });
});

Deno.test("lisa hook is a silent no-op without LISA_HOOK_FILE", async () => {
  await withTempDir(async (dir) => {
    const run = await hook(["claude"], { LISA_RUN_ID: "r1" }, STOP);
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    deepStrictEqual([...Deno.readDirSync(dir)], []);
  });
});

Deno.test("lisa hook exits 0 when the hook file's directory does not exist", async () => {
  await withTempDir(async (dir) => {
    const run = await hook(["claude"], { LISA_HOOK_FILE: `${dir}/missing/h.jsonl` }, STOP);
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
  });
});

Deno.test("lisa hook records nothing for a killed session (heartbeat and meta gone)", async () => {
  await withTempDir(async (dir) => {
    const base = `${dir}/.lisa-0123abcd-session-lisa-x-1-claude-interactive`;
    const run = await hook(["claude"], { LISA_HOOK_FILE: `${base}-hooks.jsonl` }, STOP);
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    deepStrictEqual([...Deno.readDirSync(dir)], []);
    Deno.writeTextFileSync(`${base}-meta.json`, "{}");
    await hook(["claude"], { LISA_HOOK_FILE: `${base}-hooks.jsonl` }, STOP);
    strictEqual(readLines(`${base}-hooks.jsonl`).length, 1);
  });
});

Deno.test("lisa hook codex records the notify argument and runs the chained notify", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const chained = `${dir}/chained.txt`;
    const payload = JSON.stringify({
      type: "agent-turn-complete",
      "thread-id": "th-1",
      "last-assistant-message": "ok",
    });
    const chain = JSON.stringify(["sh", "-c", `printf '%s' "$1" > '${chained}'`, "sh"]);
    const run = await hook(
      ["codex", "--chain", chain, payload],
      { LISA_HOOK_FILE: file, LISA_RUN_ID: "r2" },
    );
    deepStrictEqual(run, { code: 0, stdout: "", stderr: "" });
    const lines = readLines(file);
    strictEqual(lines[0].event, "agent-turn-complete");
    strictEqual(lines[0].agentSessionId, "th-1");
    strictEqual(Deno.readTextFileSync(chained), payload);
  });
});

/** A fake stdin serving `chunks`, then EOF (or never answering when `hang`). */
function fakeStdin(chunks: Uint8Array[], options: { hang?: boolean; terminal?: boolean } = {}) {
  let reads = 0;
  const pending: Uint8Array[] = [...chunks];
  return {
    get reads() {
      return reads;
    },
    isTerminal: () => options.terminal ?? false,
    read(buffer: Uint8Array): Promise<number | null> {
      reads++;
      const next = pending.shift();
      if (next === undefined) {
        return options.hang ? new Promise<number | null>(() => {}) : Promise.resolve(null);
      }
      const n = Math.min(buffer.length, next.length);
      buffer.set(next.subarray(0, n));
      if (n < next.length) pending.unshift(next.subarray(n));
      return Promise.resolve(n);
    },
  };
}

Deno.test("the stdin reader stops as soon as it holds one complete JSON document", async () => {
  const stdin = fakeStdin([encoder.encode('{"a":1}')], { hang: true });
  strictEqual(await readStdinCapped(stdin), '{"a":1}');
  strictEqual(stdin.reads, 1);
});

Deno.test("the stdin reader keeps the cap and drains the rest to EOF", async () => {
  const stdin = fakeStdin([encoder.encode("x".repeat(100)), encoder.encode("y".repeat(100))]);
  strictEqual(await readStdinCapped(stdin, 150), "x".repeat(100) + "y".repeat(50));
  strictEqual(stdin.reads, 4);
});

Deno.test("the stdin reader gives up on a partial payload at its deadline", async () => {
  const stdin = fakeStdin([encoder.encode('{"a":')], { hang: true });
  strictEqual(await readStdinCapped(stdin, 1024, 50), '{"a":');
});

Deno.test("the stdin reader does not read a terminal", async () => {
  const stdin = fakeStdin([encoder.encode("typed")], { terminal: true });
  strictEqual(await readStdinCapped(stdin), "");
  strictEqual(stdin.reads, 0);
});

Deno.test("the hook file keeps every line history has not read, then is bounded like the event log", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const env = { LISA_HOOK_FILE: file, LISA_RUN_ID: "r", LISA_EVENTS_MAX_LINES: "5" };
    const append = async (i: number) => {
      const io: HookIo = {
        stdin: fakeStdin([encoder.encode(JSON.stringify({ hook_event_name: `E${i}` }))]),
        now: () => new Date(),
        runChain: () => Promise.reject(new Error("no chain expected")),
      };
      strictEqual(await runHook(["claude"], env, io), 0);
    };
    for (let i = 0; i < 12; i++) await append(i);
    deepStrictEqual(
      readLines(file).map((l) => l.event),
      Array.from({ length: 12 }, (_, i) => `E${i}`),
    );
    // History read it all: the next append compacts it to the bound.
    const info = Deno.statSync(file);
    ok(markRead(file, { ino: info.ino, offset: info.size }));
    await append(12);
    const lines = readLines(file);
    ok(lines.length <= 5, `${lines.length} lines`);
    strictEqual(lines[lines.length - 1].event, "E12");
  });
});

Deno.test("runHook resolves to 0 even when the chained command fails", async () => {
  const io: HookIo = {
    stdin: fakeStdin([]),
    now: () => new Date(),
    runChain: () => Promise.reject(new Error("boom")),
  };
  strictEqual(await runHook(["codex", "--chain", '["false"]', "{}"], {}, io), 0);
});

Deno.test("a busy lock does not lose the record: it is appended without the lock", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/h.jsonl`;
    const lock = Deno.openSync(`${file}.lock`, { read: true, write: true, create: true });
    try {
      lock.lockSync(true);
      const io: HookIo = {
        stdin: fakeStdin([encoder.encode(STOP)]),
        now: () => new Date(),
        runChain: () => Promise.resolve(),
      };
      const env = { LISA_HOOK_FILE: file, LISA_RUN_ID: "r", LISA_EVENT_LOCK_TIMEOUT_MS: "0" };
      strictEqual(await runHook(["claude"], env, io), 0);
    } finally {
      lock.close();
    }
    const lines = readLines(file);
    strictEqual(lines.length, 1);
    strictEqual(lines[0].event, "Stop");
  });
});
