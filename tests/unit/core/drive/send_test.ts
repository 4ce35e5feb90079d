import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { fakeDeps } from "../../../helpers/fake_deps.ts";
import { MemoryIo } from "../../../../src/cli/io.ts";
import { LisaError } from "../../../../src/base/errors.ts";
import { projectHash } from "../../../../src/core/session/identity.ts";
import { sendToSession, splitKeys } from "../../../../src/core/drive/send.ts";
import type { SessionMeta } from "../../../../src/base/types.ts";
import type { Runner, RunOptions, RunResult } from "../../../../src/base/runner.ts";
import { sessionPaths } from "../../../../src/store/runtime_dir.ts";
import { readState, writeMeta } from "../../../../src/store/session_store.ts";

/** Answers each expected call in order and rejects anything else. */
class ScriptedRunner implements Runner {
  calls: string[][] = [];
  constructor(private readonly answers: RunResult[]) {}
  run(argv: readonly string[], _options?: RunOptions): Promise<RunResult> {
    this.calls.push([...argv]);
    const next = this.answers.shift();
    if (next === undefined) return Promise.reject(new Error(`unexpected call: ${argv.join(" ")}`));
    return Promise.resolve(next);
  }
}

const ok0: RunResult = { code: 0, success: true, stdout: "", stderr: "" };

async function setup(
  answers: RunResult[],
  agent: "claude" | "codex" = "claude",
  stdin = "",
) {
  const base = Deno.realPathSync(await Deno.makeTempDir({ prefix: "lisa-send-" }));
  const runtimeDir = `${base}/run`;
  const project = `${base}/proj`;
  Deno.mkdirSync(runtimeDir, { mode: 0o700 });
  Deno.chmodSync(runtimeDir, 0o700);
  Deno.mkdirSync(project);
  const runner = new ScriptedRunner(answers);
  const slept: number[] = [];
  const deps = fakeDeps({
    env: { LISA_RUNTIME_DIR: runtimeDir },
    cwd: project,
    now: () => new Date(1_700_000_000_000),
    runner,
    slept,
    io: new MemoryIo(stdin),
  });
  const hash = projectHash(project);
  const paths = sessionPaths(runtimeDir, hash, "lisa-s");
  const meta = { session: "lisa-s", agent, projectRoot: project, socketPath: `${base}/s.sock` };
  writeMeta(paths, meta as unknown as SessionMeta);
  return { base, deps, runner, slept, paths };
}

Deno.test("text then Enter: one paste call, the agent's delay, then Enter as its own key", async () => {
  const t = await setup([ok0, ok0], "codex");
  try {
    // --force: the agent's state is not looked at (the guard has its own tests); no receipt
    // (its own tests are below).
    const r = await sendToSession(t.deps, {
      session: "lisa-s",
      text: "héllo\nworld",
      enter: true,
      force: true,
      confirmTimeoutSeconds: 0,
    });
    deepStrictEqual(r, {
      ok: true,
      session: "lisa-s",
      textBytes: 12,
      removedChars: 0,
      keys: [],
      enter: true,
      agentState: null,
      confirmed: null,
      confirmedBy: null,
      promptId: null,
      enterRetried: false,
    });
    strictEqual(t.runner.calls.length, 2);
    ok(t.runner.calls[0].some((w) => w.includes("; 'paste-buffer'")));
    deepStrictEqual(t.runner.calls[1].slice(-1), [
      "'copy-mode' '-q' '-t' '=lisa-s:^.{top-left}' ; 'send-keys' '-t' '=lisa-s:^.{top-left}' '--' 'Enter'",
    ]);
    deepStrictEqual(t.slept, [150]);
    strictEqual(readState(t.paths).lastInputAtMs, 1_700_000_000_000);
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

Deno.test("keys are tmux key names split on spaces, sent without delay", async () => {
  const t = await setup([ok0]);
  try {
    await sendToSession(t.deps, { session: "lisa-s", keys: " Escape  C-c " });
    // Guarded by tmux itself (if-shell on #{pane_dead} and #{pane_input_off}), at the
    // session's first pane (this meta has no pane ids).
    deepStrictEqual(t.runner.calls[0].slice(4), [
      "if-shell",
      "-F",
      "-t",
      "=lisa-s:^.{top-left}",
      "#{||:#{pane_dead},#{pane_input_off}}",
      "'display-message' '-p' '-t' '=lisa-s:^.{top-left}' " +
      "'#{?pane_dead,__LISA_PANE_DEAD__,__LISA_PANE_INPUT_OFF__}'",
      "'copy-mode' '-q' '-t' '=lisa-s:^.{top-left}' ; 'send-keys' '-t' '=lisa-s:^.{top-left}' '--' 'Escape' 'C-c'",
    ]);
    deepStrictEqual(t.slept, []);
    deepStrictEqual(splitKeys("Up Enter"), ["Up", "Enter"]);
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

Deno.test("a dead pane is session_not_running: tmux refused the paste, nothing more is sent", async () => {
  const dead: RunResult = { code: 0, success: true, stdout: "__LISA_PANE_DEAD__\n", stderr: "" };
  // The paste's answer, then the status calls of the final state fail (the runner has no more):
  // the refusal stands without them.
  const t = await setup([dead]);
  try {
    await rejects(
      () =>
        sendToSession(t.deps, {
          session: "lisa-s",
          text: "x",
          keys: "C-c",
          enter: true,
          force: true,
        }),
      (e) =>
        e instanceof LisaError && e.code === "session_not_running" && e.exitCode === 1 &&
        /lisa-s finished .*; it takes no more input, nothing was sent/.test(e.message) &&
        /lisa session spawn/.test(e.message) &&
        /lisa session capture --session lisa-s/.test(e.message),
    );
    // One tmux call (the refused paste): no keys, no Enter after it.
    strictEqual(t.runner.calls.filter((c) => c.includes("if-shell")).length, 1);
    strictEqual(readState(t.paths).lastInputAtMs ?? null, null);
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

Deno.test("a missing session is session_not_found and nothing to send is missing_argument", async () => {
  const t = await setup([{ code: 1, success: false, stdout: "", stderr: "can't find session" }]);
  try {
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", text: "x", force: true }),
      (e) => e instanceof LisaError && e.code === "session_not_found" && e.exitCode === 1,
    );
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s" }),
      (e) => e instanceof LisaError && e.code === "missing_argument",
    );
    // Text that holds only control characters is nothing to send once they are removed.
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", text: "\x1b\x07" }),
      (e) => e instanceof LisaError && e.code === "missing_argument" && /--keys/.test(e.message),
    );
    // An empty --text-file is nothing to send either, and says so.
    const empty = `${t.base}/empty.txt`;
    Deno.writeTextFileSync(empty, "");
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", textFile: empty }),
      (e) => e instanceof LisaError && e.code === "missing_argument" && /is empty/.test(e.message),
    );
    await rejects(
      () => sendToSession(t.deps, { session: "bad name", text: "x" }),
      (e) => e instanceof LisaError && e.code === "invalid_session_name",
    );
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

Deno.test("an unknown key name is invalid_key with a suggestion, and nothing reaches tmux", async () => {
  const t = await setup([]); // the runner rejects any call
  try {
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", text: "hi", keys: "Escpe", enter: true }),
      (e) =>
        e instanceof LisaError && e.code === "invalid_key" &&
        /did you mean "Escape"/.test(e.message) &&
        e.details.suggestion === "Escape",
    );
    strictEqual(t.runner.calls.length, 0);
    // A key tmux knows but cannot send says so, and what to send instead.
    for (const key of ["S-Enter", "C-1", "C-M-Enter"]) {
      await rejects(
        () => sendToSession(t.deps, { session: "lisa-s", keys: key }),
        (e) =>
          e instanceof LisaError && e.code === "invalid_key" &&
          e.message.startsWith(`Key "${key}" cannot be sent: tmux 3.3a reads it`) &&
          /Shift-Tab is BTab/.test(e.message),
      );
    }
    strictEqual(t.runner.calls.length, 0);
    await sendToSession(t.deps, { session: "lisa-s", keys: "y" }).catch(() => {});
    strictEqual(
      t.runner.calls[0].at(-1),
      "'copy-mode' '-q' '-t' '=lisa-s:^.{top-left}' ; 'send-keys' '-t' '=lisa-s:^.{top-left}' '--' 'y'",
    );
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

Deno.test("--text - reads stdin; --text with --text-file is conflicting_options; a missing file is file_not_found", async () => {
  const t = await setup([ok0], "claude", "from stdin\r\n\x1b[201~done");
  try {
    const r = await sendToSession(t.deps, { session: "lisa-s", text: "-", force: true });
    strictEqual(r.textBytes, "from stdin\ndone".length);
    strictEqual(r.removedChars, 6);
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", text: "x", textFile: "/etc/hostname" }),
      (e) => e instanceof LisaError && e.code === "conflicting_options",
    );
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", textFile: `${t.base}/nope.txt` }),
      (e) => e instanceof LisaError && e.code === "file_not_found",
    );
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", textFile: t.base }),
      (e) => e instanceof LisaError && e.code === "invalid_argument" && /directory/.test(e.message),
    );
    Deno.writeFileSync(`${t.base}/latin1.txt`, new Uint8Array([0x61, 0xe9, 0x62]));
    await rejects(
      () => sendToSession(t.deps, { session: "lisa-s", textFile: `${t.base}/latin1.txt` }),
      (e) => e instanceof LisaError && e.code === "invalid_argument" && /UTF-8/.test(e.message),
    );
    strictEqual(t.runner.calls.length, 1);
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

Deno.test("a send waits for the session's input lock and fails with lock_busy, sending nothing", async () => {
  const t = await setup([]);
  const holder = Deno.openSync(t.paths.inputLock, { read: true, write: true, create: true });
  try {
    holder.lockSync(true);
    await rejects(
      () =>
        sendToSession(t.deps, {
          session: "lisa-s",
          text: "x",
          enter: true,
          lockTimeoutMs: 50,
          force: true,
        }),
      (e) => e instanceof LisaError && e.code === "lock_busy" && /nothing was sent/.test(e.message),
    );
    strictEqual(t.runner.calls.length, 0);
  } finally {
    holder.close();
    Deno.removeSync(t.base, { recursive: true });
  }
});

/** A capture answer: the pane's rows, then whether it is dead (`#{pane_dead}`). */
const screenOf = (text: string, dead = false): RunResult => ({
  code: 0,
  success: true,
  stdout: `${text}\n${dead ? 1 : 0}\n`,
  stderr: "",
});

Deno.test("text with Enter to an agent waits for its input box to empty: confirmed by screen", async () => {
  // paste, the screen holding the text, Enter, then the screen without it.
  const t = await setup([ok0, screenOf("› hello agent\n  footer"), ok0, screenOf("› \n  footer")]);
  try {
    const r = await sendToSession(t.deps, {
      session: "lisa-s",
      text: "hello agent",
      enter: true,
      force: true,
    });
    strictEqual(r.confirmed, true);
    strictEqual(r.confirmedBy, "screen");
    strictEqual(r.enterRetried, false);
    strictEqual(t.runner.calls.length, 4);
    ok(t.runner.calls[1].includes("capture-pane"), t.runner.calls[1].join(" "));
    // The screen is read once the Enter's delay is over: the agent has drawn the paste.
    strictEqual(t.slept[0], 150);
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

/**
 * A pane whose agent loses the first `lost` Enters: the text stays in its input box until an
 * Enter gets through. Answers captures with the screen, every write with success.
 */
class LosingAgent implements Runner {
  calls: string[][] = [];
  enters = 0;
  constructor(private readonly lost: number) {}
  run(argv: readonly string[]): Promise<RunResult> {
    this.calls.push([...argv]);
    if (argv.includes("capture-pane")) {
      return Promise.resolve(
        screenOf(this.enters > this.lost ? "› \n  footer" : "› hello agent\n  footer"),
      );
    }
    if (argv.some((w) => w.endsWith("'Enter'"))) this.enters++;
    return Promise.resolve(ok0);
  }
}

const count = (calls: string[][], word: string) =>
  calls.filter((c) => c.some((w) => w.includes(word))).length;

Deno.test(
  "no receipt: send_unconfirmed, the text left alone; --retry-enter presses Enter once more",
  async () => {
    const t = await setup([]);
    try {
      const agent = new LosingAgent(1);
      await rejects(
        sendToSession({ ...t.deps, runner: agent }, {
          session: "lisa-s",
          text: "hello agent",
          enter: true,
          force: true,
          confirmTimeoutSeconds: 1,
        }),
        (e) =>
          e instanceof LisaError && e.code === "send_unconfirmed" && e.exitCode === 1 &&
          (e.details as Record<string, unknown>).confirmed === false &&
          (e.details as Record<string, unknown>).textBytes === 11,
      );
      strictEqual(count(agent.calls, "paste-buffer"), 1);
      strictEqual(agent.enters, 1);
      // The input was sent: its time is recorded as for any send.
      strictEqual(readState(t.paths).lastInputAtMs, 1_700_000_000_000);
      const retried = new LosingAgent(1);
      const r = await sendToSession({ ...t.deps, runner: retried }, {
        session: "lisa-s",
        text: "hello agent",
        enter: true,
        force: true,
        confirmTimeoutSeconds: 1,
        retryEnter: true,
      });
      strictEqual(r.confirmed, true);
      strictEqual(r.enterRetried, true);
      strictEqual(count(retried.calls, "paste-buffer"), 1);
      strictEqual(retried.enters, 2);
      // An agent that loses every Enter: one retry, no more, and still unconfirmed.
      const deaf = new LosingAgent(99);
      await rejects(
        sendToSession({ ...t.deps, runner: deaf }, {
          session: "lisa-s",
          text: "hello agent",
          enter: true,
          force: true,
          confirmTimeoutSeconds: 1,
          retryEnter: true,
        }),
        (e) => e instanceof LisaError && e.code === "send_unconfirmed",
      );
      strictEqual(deaf.enters, 2);
    } finally {
      Deno.removeSync(t.base, { recursive: true });
    }
  },
);

Deno.test("an agent that ends before its receipt gives confirmed null, not an error", async () => {
  const held = screenOf("› hello agent\n  footer");
  const t = await setup([ok0, held, ok0, held, screenOf("› hello agent", true)]);
  try {
    const r = await sendToSession(t.deps, {
      session: "lisa-s",
      text: "hello agent",
      enter: true,
      force: true,
    });
    strictEqual(r.confirmed, null);
    strictEqual(r.confirmedBy, null);
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});

Deno.test("a command session's send looks for no receipt and is not delayed", async () => {
  const t = await setup([ok0, ok0]);
  try {
    const meta = JSON.parse(Deno.readTextFileSync(t.paths.meta));
    writeMeta(t.paths, { ...meta, commandOnly: true });
    const r = await sendToSession(t.deps, { session: "lisa-s", text: "ls", enter: true });
    strictEqual(r.confirmed, null);
    strictEqual(t.runner.calls.length, 2);
    deepStrictEqual(t.slept, [150]);
  } finally {
    Deno.removeSync(t.base, { recursive: true });
  }
});
