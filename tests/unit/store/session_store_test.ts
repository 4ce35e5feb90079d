import { deepStrictEqual, ok, rejects, strictEqual, throws } from "node:assert/strict";
import { LockBusyError } from "../../../src/base/errors.ts";
import type { SessionMeta } from "../../../src/base/types.ts";
import { withLock } from "../../../src/store/lock.ts";
import { lockPathFor, sessionPaths } from "../../../src/store/runtime_dir.ts";
import {
  emptyState,
  readMeta,
  readState,
  updateState,
  writeMeta,
} from "../../../src/store/session_store.ts";

async function tempPaths() {
  const dir = await Deno.makeTempDir({ prefix: "lisa-store-test-" });
  return { dir, paths: sessionPaths(dir, "0123abcd", "lisa-proj-260101-120000-000000001-x") };
}

const META: SessionMeta = {
  session: "lisa-proj-260101-120000-000000001-x",
  parentSession: null,
  agent: "claude",
  mode: "exec",
  projectRoot: "/tmp/proj",
  projectHash: "0123abcd",
  socketPath: "/tmp/lisa-tmux-proj-0123abcd.sock",
  startCmd: "claude -p 'hi'",
  prompt: "hi",
  createdAt: "2026-01-01T12:00:00.000Z",
  runId: "abc-123",
  agentSessionId: null,
  hooks: true,
};

Deno.test("meta round-trips through an atomic 0600 file", async () => {
  const { dir, paths } = await tempPaths();
  try {
    strictEqual(readMeta(paths), undefined, "no meta yet");
    writeMeta(paths, META);
    deepStrictEqual(readMeta(paths), META);
    strictEqual((Deno.statSync(paths.meta).mode ?? 0) & 0o777, 0o600);
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), [
      paths.meta.slice(dir.length + 1),
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readMeta throws meta_unreadable on corrupt JSON, a non-object or a symlink", async () => {
  const { dir, paths } = await tempPaths();
  try {
    Deno.writeTextFileSync(paths.meta, "{not json");
    throws(() => readMeta(paths), { code: "meta_unreadable" });
    Deno.writeTextFileSync(paths.meta, "[1,2]");
    throws(() => readMeta(paths), { code: "meta_unreadable" });
    Deno.removeSync(paths.meta);
    Deno.writeTextFileSync(`${dir}/elsewhere.json`, JSON.stringify(META));
    Deno.symlinkSync(`${dir}/elsewhere.json`, paths.meta);
    throws(() => readMeta(paths), { code: "meta_unreadable" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("emptyState has every field at a neutral value", () => {
  const s = emptyState();
  strictEqual(s.pollCount, 0);
  strictEqual(s.hasEverBeenActive, false);
  strictEqual(s.outputWritten, false);
  deepStrictEqual(s.cpuSamples, []);
  for (const [key, value] of Object.entries(s)) {
    ok(value === null || value === 0 || value === false || Array.isArray(value), key);
  }
  ok(emptyState().cpuSamples !== s.cpuSamples, "each call gives a fresh object");
});

Deno.test("readState gives emptyState for a missing, corrupt or non-object file", async () => {
  const { dir, paths } = await tempPaths();
  try {
    deepStrictEqual(readState(paths), emptyState());
    Deno.writeTextFileSync(paths.state, '{"pollCount": 3,');
    deepStrictEqual(readState(paths), emptyState());
    Deno.writeTextFileSync(paths.state, "null");
    deepStrictEqual(readState(paths), emptyState());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readState fills missing fields and drops fields of the wrong type", async () => {
  const { dir, paths } = await tempPaths();
  try {
    Deno.writeTextFileSync(
      paths.state,
      JSON.stringify({
        pollCount: 4,
        hasEverBeenActive: "yes",
        cpuSamples: {},
        lastState: "stuck",
      }),
    );
    deepStrictEqual(readState(paths), {
      ...emptyState(),
      pollCount: 4,
      lastState: "stuck",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateState read-modify-writes under the state lock", async () => {
  const { dir, paths } = await tempPaths();
  try {
    const first = await updateState(paths, 500, (s) => {
      s.pollCount += 1;
      s.hasEverBeenActive = true;
    });
    strictEqual(first.pollCount, 1);
    const second = await updateState(paths, 500, (s) => ({ ...s, pollCount: s.pollCount + 1 }));
    strictEqual(second.pollCount, 2);
    deepStrictEqual(readState(paths), { ...emptyState(), pollCount: 2, hasEverBeenActive: true });
    strictEqual((Deno.statSync(paths.state).mode ?? 0) & 0o777, 0o600);
    // Concurrent updates in one process are serialized, none lost.
    await Promise.all(
      Array.from({ length: 10 }, () => updateState(paths, 5_000, (s) => void (s.pollCount += 1))),
    );
    strictEqual(readState(paths).pollCount, 12);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("updateState gives up with LockBusyError and leaves the state untouched", async () => {
  const { dir, paths } = await tempPaths();
  try {
    await updateState(paths, 500, (s) => void (s.pollCount = 7));
    await withLock(lockPathFor(paths.state), { timeoutMs: 100 }, async () => {
      await rejects(updateState(paths, 30, (s) => void (s.pollCount = 99)), LockBusyError);
    });
    strictEqual(readState(paths).pollCount, 7);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readMeta leaves out the fields of another type than lisa writes; others stay", async () => {
  const { dir, paths } = await tempPaths();
  try {
    Deno.writeTextFileSync(
      paths.meta,
      JSON.stringify({
        session: "lisa-x",
        runId: 5,
        agent: "gemini",
        mode: ["exec"],
        projectRoot: null,
        socketPath: "/s.sock",
        createdAt: "yesterday-ish",
        prompt: null,
        parentSession: 3,
        hooks: "yes",
        commandOnly: true,
        nestedBypass: ["--a", 1],
        worktree: { path: "/w" },
        extra: { kept: true },
      }),
    );
    deepStrictEqual(readMeta(paths), {
      session: "lisa-x",
      socketPath: "/s.sock",
      prompt: null,
      commandOnly: true,
      extra: { kept: true },
    });
    // What lisa writes comes back as written.
    writeMeta(paths, META);
    deepStrictEqual(readMeta(paths), META);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
