/**
 * spawn against real tmux with the fake agents: exit statuses in the done file, markers,
 * verbatim prompts, the caller's environment, dry runs, parent links and error payloads.
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import type { SessionMeta } from "../../src/base/types.ts";
import { DenoRunner } from "../../src/proc/runner.ts";
import type { Runner, RunOptions } from "../../src/base/runner.ts";
import { makeWorld, waitFor } from "../helpers/world.ts";
import {
  artifact,
  artifactsOf,
  endStray,
  paneText,
  readIf,
  spawn,
  waitDone,
  waitPane,
} from "./lifecycle_helpers.ts";

Deno.test("claude exec: done file {runId}:0 (mode 0600), both markers, the script deleted itself", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, [
      "--agent",
      "claude",
      "--mode",
      "exec",
      "--prompt",
      "hi",
      "--no-hooks",
    ]);
    strictEqual(s.command, "claude -p hi --dangerously-skip-permissions");
    strictEqual(await waitDone(world, s), `${s.runId}:0`);
    strictEqual(Deno.statSync(artifact(world, s, "done.txt")).mode! & 0o777, 0o600);
    const pane = await waitPane(world, s, "__LISA_SESSION_DONE__");
    ok(new RegExp(`__LISA_SESSION_START__:${s.runId}:\\d+`).test(pane), pane);
    ok(pane.includes("fake reply"));
    ok(pane.includes(`__LISA_SESSION_DONE__:${s.runId}:0`));
    strictEqual(artifactsOf(world, s.session).some((n) => n.startsWith("lisa-cmd-")), false);
    const meta = JSON.parse(readIf(artifact(world, s, "meta.json"))!) as SessionMeta;
    strictEqual(meta.runId, s.runId);
    strictEqual(meta.startCmd, s.command);
    strictEqual(meta.prompt, "hi");
    strictEqual(meta.agent, "claude");
    strictEqual(meta.mode, "exec");
    const opts = await world.tmux(s.socketPath, ["show-options", "-g", "remain-on-exit"]);
    strictEqual(opts.stdout.trim(), "remain-on-exit on");
    const env = await world.tmux(s.socketPath, ["show-environment", "-t", `=${s.session}`]);
    ok(env.stdout.includes(`LISA_RUN_ID=${s.runId}\n`), env.stdout);
    ok(env.stdout.includes(`LISA_SESSION_NAME=${s.session}\n`));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("exec failures reach the done file with the agent's own exit status", async () => {
  const world = await makeWorld();
  try {
    const claude = await spawn(world, ["--mode", "exec", "--prompt", "x"], { FAKE_EXIT: "4" });
    const codex = await spawn(world, ["--agent", "codex", "--mode", "exec", "--prompt", "x"], {
      FAKE_EXIT: "7",
    });
    strictEqual(await waitDone(world, claude), `${claude.runId}:4`);
    strictEqual(await waitDone(world, codex), `${codex.runId}:7`);
    ok((await waitPane(world, codex, "__LISA_SESSION_DONE__")).includes(`${codex.runId}:7`));
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("--command keeps its real status: exit 3, a set -e abort, and a signal as 128+n", async () => {
  const world = await makeWorld();
  try {
    const exit3 = await spawn(world, ["--command", "echo hi; exit 3"]);
    const setE = await spawn(world, ["--command", "set -e\nfalse\necho never"]);
    const signal = await spawn(world, ["--command", "kill -TERM $$"]);
    const ok0 = await spawn(world, ["--command", "true"]);
    strictEqual(await waitDone(world, exit3), `${exit3.runId}:3`);
    strictEqual(await waitDone(world, setE), `${setE.runId}:1`);
    strictEqual(await waitDone(world, signal), `${signal.runId}:143`);
    strictEqual(await waitDone(world, ok0), `${ok0.runId}:0`);
    strictEqual(exit3.command, "echo hi; exit 3");
    // The done file is the truth (above); the pane's own done marker is best effort (tmux 3.3a
    // can mark a pane dead before reading its last bytes), so the pane is read once it is done.
    ok(!(await waitPane(world, setE, "__LISA_SESSION_START__")).includes("never"));
    // tmux sees the same status as the done file (the wrapper exits with it). tmux 3.3a may
    // miss the pane's SIGCHLD; a SIGCHLD to its server makes it look again (DESIGN §4.7).
    const dead = await waitFor(async () => {
      const r = await world.tmux(exit3.socketPath, [
        "display-message",
        "-p",
        "-t",
        `=${exit3.session}:`,
        "#{pane_dead}:#{pane_dead_status}:#{pid}",
      ]);
      const [deadFlag, status, pid] = r.stdout.trim().split(":");
      if (deadFlag === "1" && status === "3") return true;
      if (Number(pid) > 0) Deno.kill(Number(pid), "SIGCHLD");
      return undefined;
    }, 30_000);
    ok(dead, "pane never reported status 3");
  } finally {
    await endStray();
    await world.dispose();
  }
});

const HOSTILE = `$(touch P1) \`touch P2\` '; touch P3; ' "dq" \\ $HOME\nline two\tñ 日本 🚀 --flag`;

Deno.test("hostile prompts reach every agent verbatim as one argument and run nothing", async () => {
  const world = await makeWorld();
  try {
    const cases = [
      ["claude", "exec"],
      ["codex", "exec"],
      ["claude", "interactive"],
      ["codex", "interactive"],
    ];
    for (const [agent, mode] of cases) {
      const argsFile = `${world.base}/args-${agent}-${mode}`;
      const s = await spawn(
        world,
        ["--agent", agent, "--mode", mode, "--prompt", HOSTILE, "--model", "$(touch P4)"],
        { FAKE_ARGS_FILE: argsFile },
      );
      const args = await waitFor(() => readIf(argsFile), 30_000);
      ok(args !== undefined, `${agent} ${mode} never started`);
      const argv = args.split("\0").slice(0, -1);
      strictEqual(argv.filter((a) => a === HOSTILE).length, 1, `${agent} ${mode}: ${argv}`);
      ok(argv.includes("$(touch P4)"));
      if (mode === "exec") await waitDone(world, s);
    }
    for (const f of ["P1", "P2", "P3", "P4"]) {
      strictEqual(readIf(`${world.projectRoot}/${f}`), undefined, `${f} was created`);
    }
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a prompt starting with -- still arrives as the prompt", async () => {
  const world = await makeWorld();
  try {
    const argsFile = `${world.base}/args`;
    const s = await spawn(world, ["--mode", "exec", "--prompt=--help"], {
      FAKE_ARGS_FILE: argsFile,
    });
    await waitDone(world, s);
    const argv = readIf(argsFile)!.split("\0").slice(0, -1);
    deepStrictEqual(argv.slice(-2), ["--", "--help"]);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("the agent gets the spawn call's environment even on a server started earlier", async () => {
  const world = await makeWorld();
  try {
    const extraBin = `${world.base}/extra-bin`;
    Deno.mkdirSync(extraBin);
    const first = await spawn(world, ["--command", "sleep 60"], {
      API_KEY: "old",
      STALE_ONLY: "x",
    });
    const out = `${world.base}/env.txt`;
    const cmd =
      `printf '%s|%s|%s|%s' "$API_KEY" "\${STALE_ONLY-unset}" "$PATH" "$LISA_SESSION_NAME" > ${out}`;
    const second = await spawn(world, ["--command", cmd], {
      API_KEY: "new 'key' $x",
      PATH: `${extraBin}:${world.env.PATH}`,
    });
    strictEqual(second.socketPath, first.socketPath);
    strictEqual(await waitDone(world, second), `${second.runId}:0`);
    strictEqual(
      readIf(out),
      `new 'key' $x|unset|${extraBin}:${world.env.PATH}|${second.session}`,
    );
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("--dry-run shows the exact command, script and env and creates nothing", async () => {
  const world = await makeWorld();
  try {
    const r = await world.lisa([
      "session",
      "spawn",
      "--agent",
      "codex",
      "--mode",
      "exec",
      "--prompt",
      "do it",
      "--agent-args",
      "-c model_reasoning_effort=high",
      "--no-hooks",
      "--dry-run",
      "--json",
    ], { env: { SECRET_TOKEN: "hunter2" } });
    strictEqual(r.code, 0, r.stderr);
    const j = r.json!;
    strictEqual(j.dryRun, true);
    strictEqual(
      j.command,
      "codex exec --sandbox workspace-write --skip-git-repo-check -c model_reasoning_effort=high 'do it'",
    );
    ok(
      (j.startupScript as string).includes(
        `bash -c '${j.command}'`.replaceAll("'do it'", `'\\''do it'\\''`),
      ),
    );
    ok(!(j.startupScript as string).includes("hunter2"));
    strictEqual((j.env as Record<string, string>).LISA_RUN_ID, j.runId);
    for (
      const key of [
        "session",
        "agent",
        "mode",
        "runId",
        "projectRoot",
        "socketPath",
        "parentSession",
      ]
    ) {
      ok(key in j, key);
    }
    deepStrictEqual([...Deno.readDirSync(world.runtimeDir)], []);
    deepStrictEqual([...Deno.readDirSync(world.socketDir)], []);
    const human = await world.lisa([
      "session",
      "spawn",
      "--prompt",
      "hi",
      "--dry-run",
      "--no-hooks",
    ]);
    strictEqual(human.code, 0);
    ok(human.stdout.includes("claude --dangerously-skip-permissions hi"), human.stdout);
  } finally {
    await world.dispose();
  }
});

Deno.test("a spawn from inside a lisa session records its parent", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "true"], { LISA_SESSION_NAME: "lisa-parent-1" });
    strictEqual(s.parentSession, "lisa-parent-1");
    const meta = JSON.parse(readIf(artifact(world, s, "meta.json"))!) as SessionMeta;
    strictEqual(meta.parentSession, "lisa-parent-1");
    const top = await spawn(world, ["--command", "true"]);
    strictEqual(top.parentSession, null);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("bad input is a clear error with exit 1 and a JSON payload", async () => {
  const world = await makeWorld();
  try {
    const cases: [string[], string][] = [
      [["--agent", "gpt"], "invalid_agent"],
      [["--mode", "batch"], "invalid_mode"],
      [["--session", "mysession"], "invalid_session_name"],
      [["--session", "lisa-a b"], "invalid_session_name"],
      [["--mode", "exec"], "missing_argument"],
      [["--width", "abc"], "invalid_argument"],
    ];
    for (const [args, code] of cases) {
      const r = await world.lisaInProcess(["session", "spawn", ...args, "--json"]);
      strictEqual(r.code, 1, `${args}: ${r.stdout}`);
      strictEqual(r.json?.ok, false);
      strictEqual(r.json?.errorCode, code, `${args}: ${r.stdout}`);
    }
    const s = await spawn(world, ["--session", "lisa-taken", "--command", "sleep 60"]);
    const again = await world.lisa(["session", "spawn", "--session", "lisa-taken", "--json"]);
    strictEqual(again.code, 1);
    strictEqual(again.json?.errorCode, "session_already_exists");
    // The live session's artifacts were not touched by the refused spawn.
    ok(readIf(artifact(world, s, "meta.json"))!.includes(s.runId));
    const plain = await world.lisa(["session", "spawn", "--agent", "gpt"]);
    strictEqual(plain.code, 1);
    strictEqual(plain.stdout, "");
    ok(plain.stderr.includes('Unknown agent "gpt"'), plain.stderr);
    deepStrictEqual(artifactsOf(world, "lisa-a"), []);
  } finally {
    await endStray();
    await world.dispose();
  }
});

/** Delegates to a real runner and, after a successful new-session, breaks the meta path. */
class MetaBreakingRunner implements Runner {
  private readonly real = new DenoRunner(20_000);
  constructor(private readonly metaPath: () => string) {}
  async run(argv: readonly string[], options?: RunOptions) {
    const r = await this.real.run(argv, options);
    if (r.success && argv.includes("new-session")) {
      Deno.mkdirSync(`${this.metaPath()}/blocker`, { recursive: true });
    }
    return r;
  }
}

Deno.test("when meta cannot be written the new session is killed, artifacts removed, error logged", async () => {
  const world = await makeWorld();
  try {
    const name = "lisa-metafail";
    let metaPath = "";
    const runner = new MetaBreakingRunner(() => metaPath);
    // The meta path depends on the project hash: learn it from a dry run first.
    const dry = await world.lisaInProcess([
      "session",
      "spawn",
      "--session",
      name,
      "--dry-run",
      "--json",
    ]);
    metaPath = `${world.runtimeDir}/.lisa-${dry.json!.projectHash}-session-${name}-meta.json`;
    const r = await world.lisaInProcess(
      ["session", "spawn", "--session", name, "--command", "sleep 60", "--json"],
      { runner },
    );
    strictEqual(r.code, 1, r.stdout);
    strictEqual(r.json?.errorCode, "spawn_meta_error");
    const has = await world.tmux(dry.json!.socketPath as string, ["has-session", "-t", `=${name}`]);
    strictEqual(has.code, 1, "the session should be gone");
    Deno.removeSync(metaPath, { recursive: true });
    const left = artifactsOf(world, name);
    deepStrictEqual(left.filter((n) => !n.includes("events.jsonl")), []);
    const events = readIf(
      `${world.runtimeDir}/.lisa-${dry.json!.projectHash}-session-${name}-events.jsonl`,
    )!;
    ok(events.includes('"reason":"spawn_meta_error"'), events);
  } finally {
    await endStray();
    await world.dispose();
  }
});

Deno.test("a session whose pane output is empty still has its markers in the pane", async () => {
  const world = await makeWorld();
  try {
    const s = await spawn(world, ["--command", "exit 0"]);
    await waitDone(world, s);
    const text = await waitPane(world, s, "__LISA_SESSION_DONE__");
    ok(text.includes(`__LISA_SESSION_START__:${s.runId}:`), await paneText(world, s));
  } finally {
    await endStray();
    await world.dispose();
  }
});
