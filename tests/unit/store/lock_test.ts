import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { LockBusyError } from "../../../src/base/errors.ts";
import { withLock } from "../../../src/store/lock.ts";

const HOLD_LOCK = new URL("../../fixtures/hold_lock.ts", import.meta.url).pathname;

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "lisa-lock-test-" });
}

/** Starts the fixture that holds `lockPath` and resolves once it reports the lock taken. */
async function holdInOtherProcess(lockPath: string, kind = "exclusive") {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "--allow-read", "--allow-write", HOLD_LOCK, lockPath, kind],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  let seen = "";
  const decoder = new TextDecoder();
  while (!seen.includes("locked\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`hold_lock exited before taking the lock: ${seen}`);
    seen += decoder.decode(value);
  }
  reader.releaseLock();
  return {
    child,
    async release() {
      await child.stdin.close().catch(() => {});
      await child.stdout.cancel().catch(() => {});
      return await child.status;
    },
  };
}

Deno.test("withLock runs fn, returns its value and creates the lock file 0600", async () => {
  const dir = await tempDir();
  try {
    const lock = `${dir}/x.lock`;
    const value = await withLock(lock, { timeoutMs: 100 }, () => 42);
    strictEqual(value, 42);
    strictEqual((Deno.statSync(lock).mode ?? 0) & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withLock releases the lock when fn throws", async () => {
  const dir = await tempDir();
  try {
    const lock = `${dir}/x.lock`;
    await rejects(
      withLock(lock, { timeoutMs: 100 }, () => {
        throw new Error("boom");
      }),
      /boom/,
    );
    strictEqual(await withLock(lock, { timeoutMs: 100 }, () => "again"), "again");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a nested exclusive lock on the same file times out as LockBusyError", async () => {
  const dir = await tempDir();
  try {
    const lock = `${dir}/x.lock`;
    await withLock(lock, { timeoutMs: 100 }, async () => {
      await rejects(withLock(lock, { timeoutMs: 50 }, () => 1), LockBusyError);
      await rejects(withLock(lock, { exclusive: false, timeoutMs: 0 }, () => 1), LockBusyError);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("shared locks do not exclude each other", async () => {
  const dir = await tempDir();
  try {
    const lock = `${dir}/x.lock`;
    const got = await withLock(
      lock,
      { exclusive: false, timeoutMs: 100 },
      () => withLock(lock, { exclusive: false, timeoutMs: 100 }, () => "both"),
    );
    strictEqual(got, "both");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withLock refuses a lock file that is a symlink", async () => {
  const dir = await tempDir();
  try {
    Deno.writeTextFileSync(`${dir}/target`, "keep");
    Deno.symlinkSync(`${dir}/target`, `${dir}/x.lock`);
    await rejects(withLock(`${dir}/x.lock`, { timeoutMs: 100 }, () => 1), /symlink/);
    strictEqual(Deno.readTextFileSync(`${dir}/target`), "keep");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "a lock held by a second Deno process makes withLock fail as LockBusyError, not hang",
  async () => {
    const dir = await tempDir();
    const lock = `${dir}/state.json.lock`;
    const holder = await holdInOtherProcess(lock);
    try {
      const started = Date.now();
      let caught: unknown;
      try {
        await withLock(lock, { timeoutMs: 300 }, () => "should not run");
      } catch (error) {
        caught = error;
      }
      ok(caught instanceof LockBusyError, `expected LockBusyError, got ${caught}`);
      strictEqual(caught.code, "lock_busy");
      deepStrictEqual(caught.details, { lockPath: lock, timeoutMs: 300 });
      // Generous bound: it gave up near its timeout instead of waiting for the holder.
      ok(Date.now() - started < 20_000);
      // Readers are kept out too while a writer holds it.
      await rejects(withLock(lock, { exclusive: false, timeoutMs: 100 }, () => 1), LockBusyError);
    } finally {
      const status = await holder.release();
      strictEqual(status.success, true);
    }
    try {
      strictEqual(await withLock(lock, { timeoutMs: 5_000 }, () => "free"), "free");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("a shared lock held by another process admits readers and blocks writers", async () => {
  const dir = await tempDir();
  const lock = `${dir}/events.jsonl.lock`;
  const holder = await holdInOtherProcess(lock, "shared");
  try {
    strictEqual(await withLock(lock, { exclusive: false, timeoutMs: 1_000 }, () => "r"), "r");
    await rejects(withLock(lock, { timeoutMs: 100 }, () => 1), LockBusyError);
  } finally {
    await holder.release();
    await Deno.remove(dir, { recursive: true });
  }
});
