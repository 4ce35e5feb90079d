import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { loadConfig } from "../../../src/base/config.ts";
import { LockBusyError } from "../../../src/base/errors.ts";
import type { EventRecord } from "../../../src/base/types.ts";
import {
  appendEvent,
  appendJsonl,
  markRead,
  pruneOldEvents,
  readEvents,
  readJsonlTail,
} from "../../../src/store/events.ts";
import { withLock } from "../../../src/store/lock.ts";
import { type CursorRead, type FileCursor, readLinesFrom } from "../../../src/store/line_cursor.ts";
import { lockPathFor, sessionPaths } from "../../../src/store/runtime_dir.ts";

const APPEND_EVENTS = new URL("../../fixtures/append_events.ts", import.meta.url).pathname;
const BIG = { maxBytes: 1_000_000, maxLines: 10_000, lockTimeoutMs: 1_000 };

async function tempDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "lisa-events-test-" });
  Deno.chmodSync(dir, 0o700);
  return dir;
}

function lines(path: string): string[] {
  const text = Deno.readTextFileSync(path);
  ok(text === "" || text.endsWith("\n"), "the file ends on a complete line");
  return text.split("\n").slice(0, -1);
}

Deno.test("appendJsonl writes one JSON line per record to a 0600 file", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    await appendJsonl(path, { n: 1 }, BIG);
    await appendJsonl(path, [{ n: 2 }, { n: 3, text: "multi\nline ✓" }], BIG);
    deepStrictEqual(lines(path).map((l) => JSON.parse(l)), [
      { n: 1 },
      { n: 2 },
      { n: 3, text: "multi\nline ✓" },
    ]);
    strictEqual((Deno.statSync(path).mode ?? 0) & 0o777, 0o600);
    strictEqual((Deno.statSync(lockPathFor(path)).mode ?? 0) & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendJsonl with an empty list writes nothing", async () => {
  const dir = await tempDir();
  try {
    await appendJsonl(`${dir}/a.jsonl`, [], BIG);
    strictEqual(Deno.readDirSync(dir).toArray().length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendJsonl refuses to write through a symlink", async () => {
  const dir = await tempDir();
  try {
    Deno.writeTextFileSync(`${dir}/target`, "keep\n");
    Deno.symlinkSync(`${dir}/target`, `${dir}/a.jsonl`);
    await rejects(appendJsonl(`${dir}/a.jsonl`, { n: 1 }, BIG), /symlink/);
    strictEqual(Deno.readTextFileSync(`${dir}/target`), "keep\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendJsonl starts a fresh line after a line a crash left unfinished", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    Deno.writeTextFileSync(path, '{"n":1}\n{"n":2, "trunc');
    await appendJsonl(path, { n: 3 }, BIG);
    deepStrictEqual(lines(path), ['{"n":1}', '{"n":2, "trunc', '{"n":3}']);
    deepStrictEqual(await readJsonlTail(path, { lockTimeoutMs: 100 }), [{ n: 1 }, { n: 3 }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendJsonl compacts to the newest lines once past maxLines", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    const bounds = { maxBytes: 1_000_000, maxLines: 10, lockTimeoutMs: 1_000 };
    for (let n = 0; n < 10; n++) await appendJsonl(path, { n }, bounds);
    strictEqual(lines(path).length, 10, "at the bound: no compaction yet");
    await appendJsonl(path, { n: 10 }, bounds);
    // Kept ~80% of the bound, the newest, in order.
    deepStrictEqual(lines(path).map((l) => JSON.parse(l).n), [3, 4, 5, 6, 7, 8, 9, 10]);
    for (let n = 11; n < 100; n++) {
      await appendJsonl(path, { n }, bounds);
      ok(lines(path).length <= 10);
    }
    strictEqual(JSON.parse(lines(path).at(-1)!).n, 99);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a large log stays within maxLines, even when written behind lisa's back", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    // ~100-byte lines: the file passes the size above which the line count is cached.
    const bounds = { maxBytes: 1_000_000, maxLines: 1_000, lockTimeoutMs: 1_000 };
    const rec = (n: number) => ({ n, pad: "p".repeat(90) });
    for (let n = 0; n < 1_500; n++) await appendJsonl(path, rec(n), bounds);
    ok(lines(path).length <= 1_000);
    // Lines added by someone else make the cached count stale; it must not be trusted.
    const extra = Array.from({ length: 400 }, (_, i) => JSON.stringify(rec(-i)) + "\n").join("");
    Deno.writeTextFileSync(path, extra, { append: true });
    await appendJsonl(path, rec(1_500), bounds);
    const kept = lines(path);
    ok(kept.length <= 1_000, `${kept.length} lines`);
    strictEqual(JSON.parse(kept.at(-1)!).n, 1_500);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendJsonl compacts to within maxBytes and drops corrupt lines", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    const bounds = { maxBytes: 2048, maxLines: 1_000, lockTimeoutMs: 1_000 };
    Deno.writeTextFileSync(path, "not json\n");
    for (let n = 0; n < 200; n++) {
      await appendJsonl(path, { n, pad: "p".repeat(50) }, bounds);
      ok(Deno.statSync(path).size <= 2048, "never over the byte bound after an append");
    }
    const kept = lines(path);
    ok(kept.every((l) => JSON.parse(l).pad.length === 50));
    strictEqual(JSON.parse(kept.at(-1)!).n, 199);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("compaction of a huge file reads only a bounded tail window", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    // 8 MB of history (with a corrupt head) against a 4 KB bound.
    const line = JSON.stringify({ old: true, pad: "o".repeat(100) }) + "\n";
    Deno.writeTextFileSync(path, "garbage without newline " + line.repeat(8 * 1024 * 1024 / 128));
    const bounds = { maxBytes: 4096, maxLines: 1_000, lockTimeoutMs: 1_000 };
    await appendJsonl(path, { fresh: true }, bounds);
    const kept = lines(path);
    ok(Deno.statSync(path).size <= 4096);
    ok(kept.length > 1);
    deepStrictEqual(JSON.parse(kept.at(-1)!), { fresh: true });
    ok(kept.slice(0, -1).every((l) => JSON.parse(l).old === true));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendJsonl waits for the lock and gives up with LockBusyError", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    Deno.writeTextFileSync(path, '{"n":0}\n');
    await withLock(lockPathFor(path), { timeoutMs: 100 }, async () => {
      await rejects(appendJsonl(path, { n: 1 }, { ...BIG, lockTimeoutMs: 30 }), LockBusyError);
      await rejects(readJsonlTail(path, { lockTimeoutMs: 30 }), LockBusyError);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readJsonlTail returns the newest records oldest first, skipping bad lines", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    strictEqual((await readJsonlTail(path, { lockTimeoutMs: 100 })).length, 0, "missing → []");
    const body = Array.from({ length: 50 }, (_, n) => JSON.stringify({ n })).join("\n");
    Deno.writeTextFileSync(path, `${body}\n[broken\n{"n":50}\n`);
    const all = await readJsonlTail<{ n: number }>(path, { lockTimeoutMs: 100 });
    strictEqual(all.length, 51);
    deepStrictEqual(all.slice(-2), [{ n: 49 }, { n: 50 }]);
    deepStrictEqual(
      await readJsonlTail(path, { lockTimeoutMs: 100, limit: 3 }),
      [{ n: 48 }, { n: 49 }, { n: 50 }],
      "a corrupt line is skipped and an older record fills its place",
    );
    deepStrictEqual(await readJsonlTail(path, { lockTimeoutMs: 100, limit: 0 }), []);
    // A window that starts mid-line drops the cut line.
    const tail = await readJsonlTail<{ n: number }>(path, { lockTimeoutMs: 100, maxBytes: 20 });
    deepStrictEqual(tail, [{ n: 50 }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readJsonlTail reads a large file backwards up to the limit", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/a.jsonl`;
    const body = Array.from({ length: 30_000 }, (_, n) => JSON.stringify({ n })).join("\n");
    Deno.writeTextFileSync(path, body + "\n");
    const got = await readJsonlTail<{ n: number }>(path, { lockTimeoutMs: 100, limit: 5 });
    deepStrictEqual(got.map((r) => r.n), [29_995, 29_996, 29_997, 29_998, 29_999]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("appendEvent and readEvents use the configured bounds and filter by time", async () => {
  const dir = await tempDir();
  try {
    const { config } = loadConfig({ LISA_EVENTS_MAX_LINES: "5" }, 0);
    const path = sessionPaths(dir, "0123abcd", "lisa-x-1").events;
    for (let i = 0; i < 12; i++) {
      const record: EventRecord = {
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        type: "transition",
        session: "lisa-x-1",
        state: "in_progress",
        reason: `r${i}`,
      };
      await appendEvent(path, record, config);
    }
    const all = await readEvents(path, config);
    ok(all.length <= 5);
    strictEqual(all.at(-1)?.reason, "r11");
    const recent = await readEvents(path, config, { sinceMs: Date.UTC(2026, 0, 1, 0, 0, 10) });
    deepStrictEqual(recent.map((e) => e.reason), ["r10", "r11"]);
    deepStrictEqual((await readEvents(path, config, { limit: 1 })).map((e) => e.reason), ["r11"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "8 processes appending 200 events each leave a bounded file of valid JSON lines",
  async () => {
    const dir = await tempDir();
    try {
      const path = `${dir}/.lisa-0123abcd-session-lisa-x-events.jsonl`;
      const maxLines = 100;
      const children = Array.from({ length: 8 }, (_, w) =>
        new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-q",
            "--allow-read",
            "--allow-write",
            APPEND_EVENTS,
            path,
            `w${w}`,
            "200",
            String(maxLines),
            "1000000",
          ],
          stdout: "null",
          stderr: "piped",
        }).output());
      const results = await Promise.all(children);
      for (const r of results) strictEqual(r.code, 0, new TextDecoder().decode(r.stderr));
      const kept = lines(path);
      ok(kept.length > 0 && kept.length <= maxLines, `${kept.length} lines`);
      const records = kept.map((l) => JSON.parse(l) as { writer: string; seq: number });
      // Each writer's records stay in the order it wrote them.
      const lastSeq = new Map<string, number>();
      for (const r of records) {
        ok((lastSeq.get(r.writer) ?? -1) < r.seq, `order of ${r.writer}`);
        lastSeq.set(r.writer, r.seq);
      }
      // The very last append of the run is in the file.
      ok(records.some((r) => r.seq === 199));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("pruneOldEvents removes old event logs and orphan hook files, nothing else", async () => {
  const dir = await tempDir();
  try {
    const now = Date.UTC(2026, 5, 1);
    const old = new Date(now - 20 * 86_400_000);
    const fresh = new Date(now - 2 * 86_400_000);
    const gone = sessionPaths(dir, "0123abcd", "lisa-gone-1");
    const live = sessionPaths(dir, "0123abcd", "lisa-live-1");
    const recent = sessionPaths(dir, "0123abcd", "lisa-recent-1");
    const files: [string, Date][] = [
      [gone.events, old],
      [lockPathFor(gone.events), old],
      [gone.hooks, old],
      [lockPathFor(gone.hooks), fresh],
      [live.meta, old],
      [live.events, old],
      [live.hooks, old],
      [recent.events, fresh],
      [lockPathFor(recent.events), old],
      [`${dir}/unrelated-events.jsonl`, old],
    ];
    for (const [path, mtime] of files) {
      Deno.writeTextFileSync(path, "{}\n");
      Deno.utimeSync(path, mtime, mtime);
    }
    // An old-looking symlink is never followed nor removed.
    const victim = `${dir}/victim.txt`;
    Deno.writeTextFileSync(victim, "keep");
    Deno.utimeSync(victim, old, old);
    const link = sessionPaths(dir, "0123abcd", "lisa-link-1").events;
    Deno.symlinkSync(victim, link);

    const removed = pruneOldEvents(dir, 14, now).sort();
    deepStrictEqual(
      removed,
      [
        gone.events,
        lockPathFor(gone.events),
        gone.hooks,
        lockPathFor(gone.hooks),
        live.events,
      ].sort(),
    );
    ok(Deno.lstatSync(link).isSymlink);
    strictEqual(Deno.readTextFileSync(victim), "keep");
    for (const kept of [live.meta, live.hooks, recent.events, lockPathFor(recent.events)]) {
      ok(Deno.lstatSync(kept).isFile, `${kept} kept`);
    }
    deepStrictEqual(pruneOldEvents(dir, 0, now), [], "retention 0 disables pruning");
    deepStrictEqual(pruneOldEvents(`${dir}/missing`, 14, now), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("keepUnread: compaction keeps every line after the read mark, and moves the mark", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/h.jsonl`;
    const bounds = { maxBytes: 1_000_000, maxLines: 10, lockTimeoutMs: 1_000, keepUnread: true };
    for (let n = 0; n < 30; n++) await appendJsonl(path, { n }, bounds);
    strictEqual(lines(path).length, 30, "nothing read: nothing dropped");
    // The reader read the first 25 lines (where a cursor would stop after them).
    const read = readLinesFrom(path, null)!;
    const at25 = read.lines.slice(0, 25).reduce((n, l) => n + l.length + 1, 0);
    ok(markRead(path, { ino: read.next.ino, offset: at25 }));
    await appendJsonl(path, { n: 30 }, bounds);
    // Unread (25..30) stay; of the read ones only what fits 80% of the bound (8 lines in all).
    deepStrictEqual(lines(path).map((l) => JSON.parse(l).n), [23, 24, 25, 26, 27, 28, 29, 30]);
    // The mark moved with the lines: a reader resuming from it starts at line 25.
    const notes = Deno.readTextFileSync(lockPathFor(path));
    const mark = /^read (\d+) (\d+)$/m.exec(notes);
    ok(mark !== null, notes);
    strictEqual(Number(mark[1]), Deno.statSync(path).ino);
    const rest = readLinesFrom(path, { ino: Number(mark[1]), offset: Number(mark[2]) })!;
    deepStrictEqual(rest.lines.map((l) => JSON.parse(l).n), [25, 26, 27, 28, 29, 30]);
    // A mark on another inode (the file was replaced since) is not trusted: nothing is dropped.
    ok(!markRead(path, { ino: 1, offset: 10 }));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("keepUnread: more unread than the tail window holds is kept whole", async () => {
  const dir = await tempDir();
  try {
    const path = `${dir}/h.jsonl`;
    const pad = "x".repeat(200);
    const bounds = { maxBytes: 2048, maxLines: 1_000, lockTimeoutMs: 1_000, keepUnread: true };
    await appendJsonl(path, { n: 0, pad }, bounds);
    const first = readLinesFrom(path, null)!;
    ok(markRead(path, first.next));
    // 60 lines of ~220 bytes: far more than the 2×2048-byte window compaction reads.
    for (let n = 1; n <= 60; n++) await appendJsonl(path, { n, pad }, bounds);
    deepStrictEqual(
      lines(path).map((l) => JSON.parse(l).n),
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readLinesFrom oldestFirst reads a long stretch in chunks, every line once", () => {
  const dir = Deno.makeTempDirSync({ prefix: "lisa-cursor-test-" });
  try {
    const path = `${dir}/l.jsonl`;
    const all = Array.from({ length: 100 }, (_, n) => JSON.stringify({ n, pad: "y".repeat(50) }));
    Deno.writeTextFileSync(path, all.join("\n") + "\n");
    const seen: string[] = [];
    let cursor: FileCursor | null = null;
    for (let reads = 0; reads < 100; reads++) {
      const read: CursorRead = readLinesFrom(path, cursor, 1000, true)!;
      seen.push(...read.lines);
      cursor = read.next;
      if (!read.more) break;
    }
    deepStrictEqual(seen, all);
    // Without it, only the newest stretch is read.
    ok(readLinesFrom(path, null, 1000)!.lines.length < 20);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
