import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  type ExtraMatchNames,
  findAgent,
  matchArgv,
  unwrapCommand,
} from "../../../src/agents/match.ts";
import type { ProcInfo } from "../../../src/proc/table.ts";

const NONE: ExtraMatchNames = { any: [], claude: [], codex: [] };

function proc(pid: number, ppid: number, name: string, argv: string[], state = "S"): ProcInfo {
  return { pid, ppid, pgid: pid, sid: 1, state, name, argv, ticks: 0, startTime: pid * 10 };
}

/** The pane of a lisa session: wrapper, heartbeat, then whatever runs the command. */
function pane(...rest: ProcInfo[]): ProcInfo[] {
  return [
    proc(100, 1, "bash", ["bash", "/run/lisa-cmd-abcd1234-lisa-x-1.sh"]),
    proc(101, 100, "bash", ["lisa-heartbeat", "-c", "while …", "lisa-heartbeat", "100"]),
    proc(102, 101, "sleep", ["sleep", "2"]),
    ...rest,
  ];
}

Deno.test("claude is found by its executable name", () => {
  const found = findAgent(pane(proc(110, 100, "claude", ["claude", "--model", "x"])), NONE);
  strictEqual(found?.agent, "claude");
  strictEqual(found?.proc.pid, 110);
  strictEqual(found?.match.kind, "executable");
});

Deno.test("claude.exe started by its real path is claude", () => {
  const p = proc(110, 100, "claude.exe", ["/opt/claude/versions/2.1.197/claude.exe"]);
  strictEqual(findAgent(pane(p), NONE)?.agent, "claude");
});

Deno.test("a prompt that mentions grep or codex does not hide or change the agent", () => {
  const argv = ["claude", "--dangerously-skip-permissions", "grep for codex in src, then run grep"];
  const found = findAgent(pane(proc(110, 100, "claude", argv)), NONE);
  strictEqual(found?.agent, "claude");
  strictEqual(found?.proc.pid, 110);
});

Deno.test("words in arguments never make a process an agent", () => {
  strictEqual(matchArgv("grep", ["grep", "-r", "claude", "."], NONE), null);
  strictEqual(matchArgv("bash", ["bash", "-c", "claude -p hi"], NONE), null);
  strictEqual(matchArgv("bash", ["bash", "-lc", "codex exec x"], NONE), null);
  strictEqual(matchArgv("node", ["node", "-e", "require('codex')"], NONE), null);
  strictEqual(matchArgv("vim", ["vim", "claude.md"], NONE), null);
});

Deno.test("codex under node is found with its native child in the family", () => {
  const procs = pane(
    proc(110, 100, "node", ["node", "/usr/lib/node_modules/@openai/codex/bin/codex.js", "hi"]),
    proc(111, 110, "codex", ["/usr/lib/node_modules/@openai/codex/vendor/codex", "hi"]),
    proc(112, 111, "sleep", ["sleep", "30"]),
  );
  const found = findAgent(procs, NONE, "codex");
  strictEqual(found?.agent, "codex");
  strictEqual(found?.proc.pid, 110);
  strictEqual(found?.match.kind, "script");
  deepStrictEqual(found?.family.map((p) => p.pid), [110, 111]);
});

Deno.test("a fake agent run as a script by bash is matched by its script name", () => {
  const p = proc(110, 100, "bash", ["bash", "/repo/tests/fixtures/bin/claude", "-p", "x"]);
  strictEqual(findAgent(pane(p), NONE)?.agent, "claude");
  const d = proc(110, 100, "deno", ["deno", "run", "-A", "/repo/tests/fixtures/bin/codex"]);
  strictEqual(findAgent(pane(d), NONE)?.agent, "codex");
});

Deno.test("env, timeout, nice and nohup wrappers are seen through", () => {
  strictEqual(matchArgv("env", ["env", "-u", "X", "A=1", "claude", "hi"], NONE)?.agent, "claude");
  strictEqual(
    matchArgv("timeout", ["timeout", "-s", "KILL", "60", "codex", "x"], NONE)?.agent,
    "codex",
  );
  strictEqual(matchArgv("nice", ["nice", "-n", "5", "claude"], NONE)?.kind, "wrapper");
  strictEqual(matchArgv("nohup", ["nohup", "codex"], NONE)?.agent, "codex");
  // The duration of timeout is not the command.
  strictEqual(matchArgv("timeout", ["timeout", "claude", "sleep"], NONE), null);
  deepStrictEqual(unwrapCommand(["env", "--", "claude"]), ["claude"]);
  strictEqual(unwrapCommand(["claude"]), null);
});

Deno.test("npx and npm exec of the agents' packages are wrapper matches", () => {
  strictEqual(
    matchArgv("npm exec @open", ["npm exec @openai/codex@0.169.0"], NONE)?.agent,
    "codex",
  );
  strictEqual(
    matchArgv("node", ["node", "/usr/bin/npx", "-y", "@openai/codex"], NONE)?.agent,
    "codex",
  );
  strictEqual(
    matchArgv("npx", ["npx", "--package=@anthropic-ai/claude-code", "claude"], NONE)?.agent,
    "claude",
  );
  strictEqual(matchArgv("npx", ["npx", "cowsay", "claude"], NONE), null);
});

Deno.test("a real agent below a wrapper wins over the wrapper", () => {
  const procs = pane(
    proc(110, 100, "timeout", ["timeout", "600", "claude", "hi"]),
    proc(111, 110, "claude", ["claude", "hi"]),
  );
  strictEqual(findAgent(procs, NONE)?.proc.pid, 111);
  const onlyWrapper = pane(proc(110, 100, "npm exec @open", ["npm exec @openai/codex"]));
  strictEqual(findAgent(onlyWrapper, NONE)?.proc.pid, 110);
});

Deno.test("LISA_AGENT_PROCESS_MATCH names count as agents", () => {
  const extra: ExtraMatchNames = { any: ["my-agent"], claude: ["claude-dev"], codex: ["cx"] };
  strictEqual(matchArgv("my-agent", ["my-agent"], extra, "codex")?.agent, "codex");
  strictEqual(matchArgv("python3", ["python3", "/x/claude-dev"], extra)?.agent, "claude");
  strictEqual(matchArgv("cx", ["cx"], extra)?.kind, "custom");
  strictEqual(matchArgv("other", ["other"], extra), null);
});

Deno.test("zombies are never the agent", () => {
  const procs = pane(proc(110, 100, "claude", ["claude"], "Z"));
  strictEqual(findAgent(procs, NONE), null);
});

Deno.test("the outermost agent of the session's kind is chosen", () => {
  const procs = pane(
    proc(110, 100, "claude", ["claude"]),
    proc(111, 110, "bash", ["/bin/bash", "-c", "codex exec hi"]),
    proc(112, 111, "codex", ["codex", "exec", "hi"]),
  );
  const found = findAgent(procs, NONE, "claude");
  strictEqual(found?.proc.pid, 110);
  deepStrictEqual(found?.family.map((p) => p.pid), [110]);
});
