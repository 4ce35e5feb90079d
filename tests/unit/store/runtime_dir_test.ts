import { deepStrictEqual, ok, strictEqual, throws } from "node:assert/strict";
import { LisaError, RuntimeDirUnsafeError } from "../../../src/base/errors.ts";
import {
  checkSocketDir,
  CMD_SCRIPT_RE,
  cmdScriptPath,
  ensureRuntimeDir,
  ensureSocketDir,
  lockPathFor,
  OUTPUT_ARTIFACT_RE,
  SESSION_ARTIFACT_RE,
  sessionPaths,
  SOCKET_RE,
  socketPath,
  treeDeltaPath,
} from "../../../src/store/runtime_dir.ts";

const UID = Deno.uid() ?? 0;

async function tempBase(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "lisa-rtdir-test-" });
}

function modeOf(path: string): number {
  return (Deno.lstatSync(path).mode ?? 0) & 0o777;
}

Deno.test("ensureRuntimeDir creates a missing dir (and parents) with mode 0700", async () => {
  const base = await tempBase();
  try {
    const dir = `${base}/a/b/lisa-${UID}`;
    strictEqual(ensureRuntimeDir(dir, UID), dir);
    ok(Deno.lstatSync(dir).isDirectory);
    strictEqual(modeOf(dir), 0o700);
    strictEqual(ensureRuntimeDir(dir, UID), dir, "an existing private dir is accepted");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("ensureRuntimeDir refuses a symlink, even to a private dir", async () => {
  const base = await tempBase();
  try {
    Deno.mkdirSync(`${base}/real`, { mode: 0o700 });
    Deno.chmodSync(`${base}/real`, 0o700);
    Deno.symlinkSync(`${base}/real`, `${base}/link`);
    throws(() => ensureRuntimeDir(`${base}/link`, UID), (e: unknown) => {
      ok(e instanceof RuntimeDirUnsafeError);
      strictEqual(e.code, "runtime_dir_unsafe");
      ok(e.message.includes("symlink"), e.message);
      return true;
    });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("ensureRuntimeDir refuses a dir open to group or other", async () => {
  const base = await tempBase();
  try {
    for (const mode of [0o755, 0o770, 0o701]) {
      const dir = `${base}/m${mode.toString(8)}`;
      Deno.mkdirSync(dir);
      Deno.chmodSync(dir, mode);
      throws(() => ensureRuntimeDir(dir, UID), /mode \d+ lets group\/other in/);
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("ensureRuntimeDir refuses a dir owned by another user", async () => {
  const base = await tempBase();
  try {
    const dir = `${base}/foreign`;
    Deno.mkdirSync(dir, { mode: 0o700 });
    Deno.chmodSync(dir, 0o700);
    if (UID === 0) {
      Deno.chownSync(dir, 65534, 65534);
      throws(() => ensureRuntimeDir(dir, 0), /owned by uid 65534, not 0/);
    }
    // Without root, the same check seen from a different uid.
    throws(() => ensureRuntimeDir(dir, UID === 0 ? 12345 : UID + 1), RuntimeDirUnsafeError);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("ensureRuntimeDir refuses a path that is not a directory", async () => {
  const base = await tempBase();
  try {
    Deno.writeTextFileSync(`${base}/file`, "");
    throws(() => ensureRuntimeDir(`${base}/file`, UID), /not a directory/);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

/** A FileInfo as lstat would give it, for the owner check without chown games. */
function dirInfo(over: Partial<Deno.FileInfo>): Deno.FileInfo {
  const info = Deno.lstatSync(Deno.cwd());
  return { ...info, isDirectory: true, isFile: false, isSymlink: false, uid: UID, ...over };
}

Deno.test("the socket dir may be the user's own 0755 (or 0750, 0711) directory", async () => {
  const base = await tempBase();
  try {
    for (const mode of [0o755, 0o750, 0o711, 0o700]) {
      const dir = `${base}/s${mode.toString(8)}`;
      Deno.mkdirSync(dir);
      Deno.chmodSync(dir, mode);
      strictEqual(ensureSocketDir(dir, UID), dir);
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("the socket dir is refused when others may write to it, sticky bit or not", async () => {
  const base = await tempBase();
  try {
    for (const mode of [0o777, 0o775, 0o757, 0o1777, 0o1770]) {
      const dir = `${base}/s${mode.toString(8)}`;
      Deno.mkdirSync(dir);
      Deno.chmodSync(dir, mode);
      throws(() => ensureSocketDir(dir, UID), (e: unknown) => {
        ok(e instanceof LisaError);
        strictEqual(e.code, "socket_dir_unsafe");
        ok(/writable by group or other/.test(e.message), e.message);
        return true;
      });
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("the socket dir is refused when another user owns it, or it is a symlink or a file", () => {
  const owner = UID + 1;
  throws(
    () => checkSocketDir("/s", dirInfo({ uid: owner, mode: 0o40700 }), UID),
    new RegExp(`owned by uid ${owner}, not ${UID}`),
  );
  throws(() => checkSocketDir("/s", dirInfo({ isSymlink: true }), UID), /symlink/);
  throws(
    () => checkSocketDir("/s", dirInfo({ isDirectory: false, isFile: true }), UID),
    /not a directory/,
  );
  checkSocketDir("/s", dirInfo({ mode: 0o40755 }), UID);
});

Deno.test("sessionPaths follows the artifact names of the design", () => {
  const s = "lisa-proj-260101-120000-000000001-claude-exec";
  deepStrictEqual(sessionPaths("/run", "0123abcd", s), {
    meta: `/run/.lisa-0123abcd-session-${s}-meta.json`,
    state: `/run/.lisa-0123abcd-session-${s}-state.json`,
    heartbeat: `/run/.lisa-0123abcd-session-${s}-heartbeat.txt`,
    done: `/run/.lisa-0123abcd-session-${s}-done.txt`,
    hooks: `/run/.lisa-0123abcd-session-${s}-hooks.jsonl`,
    events: `/run/.lisa-0123abcd-session-${s}-events.jsonl`,
    inputLock: `/run/.lisa-0123abcd-session-${s}-input.lock`,
    waitLock: `/run/.lisa-0123abcd-session-${s}-wait.lock`,
    output: `/run/lisa-0123abcd-output-${s}.txt`,
  });
  strictEqual(lockPathFor("/run/x.json"), "/run/x.json.lock");
  strictEqual(cmdScriptPath("/run", "0123abcd", s, "42"), `/run/lisa-cmd-0123abcd-${s}-42.sh`);
  strictEqual(socketPath("/socks", "proj", "0123abcd"), "/socks/lisa-tmux-proj-0123abcd.sock");
  strictEqual(treeDeltaPath("/run", "0123abcd"), "/run/.lisa-0123abcd-tree-delta.json");
});

Deno.test("artifact regexes match what the path helpers produce", () => {
  const s = "lisa-proj-260101-120000-000000001-codex-exec-mytag";
  const paths = sessionPaths("/run", "0123abcd", s);
  for (const [kind, path] of Object.entries(paths)) {
    if (kind === "output") continue;
    const name = path.slice("/run/".length);
    const m = SESSION_ARTIFACT_RE.exec(name);
    ok(m, name);
    if (kind === "inputLock" || kind === "waitLock") {
      // Locks of their own (send's, send --wait's), not the lock of a data file.
      const own = kind === "inputLock" ? "input" : "wait";
      deepStrictEqual(m.slice(1), ["0123abcd", s, own, ".lock"]);
      continue;
    }
    deepStrictEqual([m[1], m[2], m[4]], ["0123abcd", s, undefined]);
    strictEqual(SESSION_ARTIFACT_RE.exec(`${name}.lock`)?.[4], ".lock");
  }
  deepStrictEqual(OUTPUT_ARTIFACT_RE.exec(paths.output.slice(5))?.slice(1), ["0123abcd", s]);
  ok(CMD_SCRIPT_RE.test(cmdScriptPath("/run", "0123abcd", s, "123").slice(5)));
  deepStrictEqual(SOCKET_RE.exec("lisa-tmux-proj-0123abcd.sock")?.slice(1), ["proj", "0123abcd"]);
  strictEqual(SESSION_ARTIFACT_RE.test(".lisa-XYZ-session-lisa-a-meta.json"), false);
  strictEqual(SESSION_ARTIFACT_RE.test(".lisa-0123abcd-session-other-meta.json"), false);
});
