import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { loadConfig } from "../../../src/base/config.ts";
import {
  CLAUDE_HOOK_EVENTS,
  claudeHookArgs,
  claudeHookEvents,
  codexConfigPath,
  codexHookArgs,
  hookCommandLine,
  hookExtras,
  newAgentSessionId,
  parseTomlNotify,
  readHookSignal,
  readUserCodexNotify,
} from "../../../src/agents/hooks.ts";

const SELF = ["/usr/bin/deno", "run", "-q", "--allow-read", "/repo dir/it's/main.ts"];

Deno.test("the hook command line single-quotes every word", () => {
  strictEqual(
    hookCommandLine(SELF, "claude"),
    `'/usr/bin/deno' 'run' '-q' '--allow-read' '/repo dir/it'\\''s/main.ts' 'hook' 'claude'`,
  );
});

Deno.test("claude gets --settings with a command hook per event and --session-id", () => {
  const id = newAgentSessionId();
  ok(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id));
  const args = claudeHookArgs(SELF, id);
  strictEqual(args.length, 4);
  strictEqual(args[0], "--settings");
  deepStrictEqual(args.slice(2), ["--session-id", id]);
  const settings = JSON.parse(args[1]);
  deepStrictEqual(Object.keys(settings.hooks), [...CLAUDE_HOOK_EVENTS]);
  for (
    const event of [
      "SessionStart",
      "UserPromptSubmit",
      "Stop",
      "StopFailure",
      "Notification",
      "PermissionRequest",
      "SessionEnd",
    ]
  ) {
    const groups = settings.hooks[event];
    strictEqual(groups.length, 1, event);
    deepStrictEqual(groups[0].hooks, [{
      type: "command",
      command: hookCommandLine(SELF, "claude"),
      timeout: 10,
    }]);
  }
  strictEqual(settings.hooks.Notification[0].matcher, "");
});

Deno.test("codex gets -c notify with a TOML array calling lisa hook codex", () => {
  const args = codexHookArgs(['/bin/lisa "x"']);
  deepStrictEqual(args, ["-c", `notify=["/bin/lisa \\"x\\"", "hook", "codex"]`]);
});

Deno.test("codex's notify chains to the user's own notify", () => {
  const args = codexHookArgs(["/bin/lisa"], ["notify-send", "Codex"]);
  deepStrictEqual(parseTomlNotify(args[1]), [
    "/bin/lisa",
    "hook",
    "codex",
    "--chain",
    '["notify-send","Codex"]',
  ]);
});

Deno.test("a user notify that already is a lisa hook is not chained", () => {
  const args = codexHookArgs(["/bin/lisa"], ["/old/lisa", "hook", "codex"]);
  deepStrictEqual(parseTomlNotify(args[1]), ["/bin/lisa", "hook", "codex"]);
});

Deno.test("parseTomlNotify reads a top-level notify array", () => {
  const text = [
    `model = "o3" # a comment`,
    `notify = [`,
    `  "python3", # the interpreter`,
    `  '/home/u/notify.py',`,
    `  "tab\\there \\u00e9",`,
    `]`,
    `[projects."/x"]`,
    `trust_level = "trusted"`,
  ].join("\n");
  deepStrictEqual(parseTomlNotify(text), ["python3", "/home/u/notify.py", "tab\there é"]);
});

Deno.test("parseTomlNotify ignores notify inside a table and odd values", () => {
  strictEqual(parseTomlNotify(`[tui]\nnotify = ["a"]\n`), null);
  strictEqual(parseTomlNotify(`notify = true\n`), null);
  strictEqual(parseTomlNotify(`notify = ["""a"""]\n`), null);
  strictEqual(parseTomlNotify(`model = "x"\n`), null);
});

Deno.test("the user's notify is read from CODEX_HOME, else ~/.codex", async () => {
  const dir = await Deno.makeTempDir();
  try {
    strictEqual(codexConfigPath({ CODEX_HOME: `${dir}/` }), `${dir}/config.toml`);
    strictEqual(codexConfigPath({ HOME: dir }), `${dir}/.codex/config.toml`);
    strictEqual(readUserCodexNotify({ CODEX_HOME: dir }), null);
    Deno.writeTextFileSync(`${dir}/config.toml`, `notify = ["say", "done"]\n`);
    deepStrictEqual(readUserCodexNotify({ CODEX_HOME: dir }), ["say", "done"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Writes hook records (at = seconds after T0) and reads the signal at `nowSec`. */
async function signalOf(
  records: Array<Record<string, unknown>>,
  nowSec: number,
  runId = "run-1",
) {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/h.jsonl`;
    const T0 = Date.parse("2026-01-01T00:00:00Z");
    const lines = records.map((r) =>
      JSON.stringify({
        runId: "run-1",
        agent: "claude",
        notificationType: null,
        ...r,
        at: new Date(T0 + (r.at as number) * 1000).toISOString(),
      })
    );
    Deno.writeTextFileSync(path, lines.join("\n") + (lines.length ? "\n" : ""));
    return readHookSignal(path, runId, T0 + nowSec * 1000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("no hook file, or no record of this run, gives null", async () => {
  strictEqual(readHookSignal("/nonexistent/h.jsonl", "run-1", Date.now()), null);
  strictEqual(await signalOf([{ at: 0, event: "SessionStart", runId: "other" }], 1), null);
});

Deno.test("SessionStart makes hooks active with nothing pending", async () => {
  deepStrictEqual(await signalOf([{ at: 0, event: "SessionStart", preview: "startup" }], 2), {
    active: true,
    pending: null,
    lastEvent: "SessionStart",
    lastEventAgeSeconds: 2,
  });
});

Deno.test("a prompt with no Stop is a running turn; Stop ends it", async () => {
  const started = [{ at: 0, event: "SessionStart" }, { at: 1, event: "UserPromptSubmit" }];
  strictEqual((await signalOf(started, 3))?.pending, "turn_running");
  const stopped = [...started, { at: 5, event: "Stop" }];
  deepStrictEqual(await signalOf(stopped, 6.25), {
    active: true,
    pending: "turn_done",
    lastEvent: "Stop",
    lastEventAgeSeconds: 1.3,
  });
  strictEqual(
    (await signalOf([...started, { at: 5, event: "StopFailure" }], 6))?.pending,
    "turn_done",
  );
});

Deno.test("a permission prompt with nothing after it is pending", async () => {
  const base = [{ at: 0, event: "SessionStart" }, { at: 1, event: "UserPromptSubmit" }];
  strictEqual(
    (await signalOf([...base, { at: 2, event: "PermissionRequest" }], 3))?.pending,
    "permission",
  );
  const notified = [...base, {
    at: 2,
    event: "Notification",
    notificationType: "permission_prompt",
  }];
  strictEqual((await signalOf(notified, 3))?.pending, "permission");
  const answered = [...base, { at: 2, event: "PermissionRequest" }, {
    at: 4,
    event: "PostToolUse",
  }];
  strictEqual((await signalOf(answered, 5))?.pending, "turn_running");
});

Deno.test("a notification that decides nothing does not hide the pending state", async () => {
  const records = [
    { at: 0, event: "UserPromptSubmit" },
    { at: 1, event: "PermissionRequest" },
    { at: 7, event: "Notification", notificationType: "auth_success" },
  ];
  const signal = await signalOf(records, 8);
  strictEqual(signal?.pending, "permission");
  strictEqual(signal?.lastEvent, "Notification");
  strictEqual(signal?.lastEventAgeSeconds, 1);
});

Deno.test("records of other runs never count", async () => {
  const records = [
    { at: 0, event: "UserPromptSubmit" },
    { at: 1, event: "Stop", runId: "old-run" },
  ];
  strictEqual((await signalOf(records, 2))?.pending, "turn_running");
});

Deno.test("codex: agent-turn-complete ends the turn; its title thread's notify is ignored", async () => {
  const turn = [{ at: 3, event: "agent-turn-complete", agent: "codex" }];
  strictEqual((await signalOf(turn, 4))?.pending, "turn_done");
  const titleOnly = [{ at: 1, event: "agent-turn-complete", agent: "codex", aux: true }];
  deepStrictEqual(await signalOf(titleOnly, 2), {
    active: true,
    pending: null,
    lastEvent: null,
    lastEventAgeSeconds: null,
  });
});

Deno.test("a half-written last line is skipped", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/h.jsonl`;
    const at = new Date().toISOString();
    Deno.writeTextFileSync(
      path,
      JSON.stringify({ at, runId: "r", event: "Stop" }) + "\n" + `{"at":"${at}","runId":"r","ev`,
    );
    strictEqual(readHookSignal(path, "r", Date.now())?.pending, "turn_done");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

function depsFor(env: Record<string, string>) {
  return { env, config: loadConfig(env, 0).config, selfCommand: ["/bin/lisa"] };
}

Deno.test("hook injection gives claude --settings and a recorded --session-id", () => {
  const extras = hookExtras(depsFor({}), { agent: "claude", custom: false });
  strictEqual(extras.hooks, true);
  strictEqual(extras.extraArgs[0], "--settings");
  deepStrictEqual(extras.extraArgs.slice(2), ["--session-id", extras.agentSessionId]);
});

Deno.test("hook injection leaves --session-id to agent args that pick a session", () => {
  const extras = hookExtras(depsFor({}), {
    agent: "claude",
    custom: false,
    agentArgs: "--resume abc",
  });
  strictEqual(extras.agentSessionId, null);
  strictEqual(extras.extraArgs.length, 2);
  strictEqual(extras.extraArgs[0], "--settings");
});

Deno.test("hook injection gives codex -c notify chained to the user's notify", async () => {
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(`${dir}/config.toml`, `notify = ["say"]\n`);
    const extras = hookExtras(depsFor({ CODEX_HOME: dir }), { agent: "codex", custom: false });
    deepStrictEqual(extras.extraArgs, [
      "-c",
      `notify=["/bin/lisa", "hook", "codex", "--chain", "[\\"say\\"]"]`,
    ]);
    strictEqual(extras.agentSessionId, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("no hooks with LISA_HOOKS=off, --no-hooks, or a custom --command", () => {
  const none = { extraArgs: [], agentSessionId: null, hooks: false };
  deepStrictEqual(
    hookExtras(depsFor({ LISA_HOOKS: "off" }), { agent: "claude", custom: false }),
    none,
  );
  deepStrictEqual(hookExtras(depsFor({}), { agent: "codex", custom: false, hooks: false }), none);
  deepStrictEqual(hookExtras(depsFor({}), { agent: "claude", custom: true }), none);
});

Deno.test("a claude of a known version gets exactly the hook events it knows", () => {
  const current = claudeHookEvents("2.1.197");
  for (const event of [...CLAUDE_HOOK_EVENTS, "SubagentStart", "PreCompact", "Elicitation"]) {
    ok(current.includes(event), event);
  }
  // 2.1.76 added PostCompact and Elicitation, 2.1.78 StopFailure: an older claude that got
  // them would skip the whole --settings.
  const older = claudeHookEvents("2.1.50");
  for (const event of ["PostCompact", "PreCompact", "Elicitation", "StopFailure"]) {
    ok(!older.includes(event), event);
  }
  ok(older.includes("SubagentStart") && older.includes("PermissionRequest"));
  ok(!claudeHookEvents("2.0.10").includes("PermissionRequest"));
  // Unknown: the set every earlier lisa gave claude.
  deepStrictEqual(claudeHookEvents(null), [...CLAUDE_HOOK_EVENTS]);
  deepStrictEqual(claudeHookEvents("not a version"), [...CLAUDE_HOOK_EVENTS]);
  const settings = JSON.parse(claudeHookArgs(SELF, "id", "2.1.197")[1]);
  deepStrictEqual(Object.keys(settings.hooks).sort(), [...current].sort());
  strictEqual(settings.hooks.SubagentStart[0].matcher, "");
});

const RUNNING_TASK = {
  id: "b8dj84n30",
  type: "shell",
  status: "running",
  description: "background sleep",
};

Deno.test("a Stop that lists running background work reports it with the finished turn", async () => {
  const turn = [{ at: 0, event: "UserPromptSubmit" }, {
    at: 2,
    event: "Stop",
    backgroundTasks: [RUNNING_TASK, { ...RUNNING_TASK, id: "done1", status: "completed" }],
  }];
  const signal = await signalOf(turn, 3);
  strictEqual(signal?.pending, "turn_done");
  deepStrictEqual(signal?.backgroundTasks, [RUNNING_TASK]);
  // The agent's own follow-up turn (its prompt is the task's notification) ends with none.
  const followUp = [...turn, { at: 9, event: "UserPromptSubmit" }, {
    at: 10,
    event: "Stop",
    backgroundTasks: [],
  }];
  const after = await signalOf(followUp, 11);
  strictEqual(after?.pending, "turn_done");
  strictEqual(after?.backgroundTasks, undefined);
  // While it runs, it is a running turn like any other.
  strictEqual((await signalOf(followUp.slice(0, 3), 9.5))?.pending, "turn_running");
});

Deno.test("a subagent that started and has not stopped is background work", async () => {
  const turn = [
    { at: 0, event: "UserPromptSubmit" },
    { at: 1, event: "SubagentStart", subagentId: "a1", subagentType: "Explore" },
    { at: 2, event: "SubagentStart", subagentId: "a2", subagentType: "Plan" },
    { at: 3, event: "SubagentStop", subagentId: "a2" },
    { at: 4, event: "Stop" },
  ];
  deepStrictEqual((await signalOf(turn, 5))?.backgroundTasks, [{
    id: "a1",
    type: "subagent",
    status: "running",
    description: "Explore",
  }]);
  const stopped = [...turn, { at: 8, event: "SubagentStop", subagentId: "a1" }];
  strictEqual((await signalOf(stopped, 9))?.backgroundTasks, undefined);
  // A Stop that reports its background work is believed over the subagent records.
  const reported = [...turn.slice(0, 4), { at: 4, event: "Stop", backgroundTasks: [] }];
  strictEqual((await signalOf(reported, 5))?.backgroundTasks, undefined);
  // A listed subagent task whose SubagentStop came after the Stop is over.
  const listed = [
    { at: 0, event: "UserPromptSubmit" },
    { at: 4, event: "Stop", backgroundTasks: [{ ...RUNNING_TASK, id: "a9", type: "subagent" }] },
    { at: 7, event: "SubagentStop", subagentId: "a9" },
  ];
  strictEqual((await signalOf(listed, 8))?.backgroundTasks, undefined);
});

Deno.test("a compaction is pending from PreCompact until its PostCompact", async () => {
  const idle = [{ at: 0, event: "SessionStart" }, { at: 1, event: "Stop" }];
  const compacting = [...idle, { at: 5, event: "PreCompact", preview: "manual" }];
  strictEqual((await signalOf(compacting, 6))?.pending, "compacting");
  const over = [...compacting, { at: 20, event: "SessionStart", preview: "compact" }, {
    at: 21,
    event: "PostCompact",
  }];
  strictEqual((await signalOf(over, 22))?.pending, "turn_done");
  // Mid-turn (auto compaction), the turn runs on once it is over.
  const midTurn = [{ at: 0, event: "UserPromptSubmit" }, { at: 1, event: "PreCompact" }, {
    at: 9,
    event: "PostCompact",
  }];
  strictEqual((await signalOf(midTurn, 10))?.pending, "turn_running");
});

Deno.test("an MCP elicitation waits for input until its result comes", async () => {
  const asked = [{ at: 0, event: "UserPromptSubmit" }, { at: 1, event: "Elicitation" }];
  strictEqual((await signalOf(asked, 2))?.pending, "elicitation");
  const notified = [{ at: 0, event: "UserPromptSubmit" }, {
    at: 1,
    event: "Notification",
    notificationType: "elicitation_dialog",
  }];
  strictEqual((await signalOf(notified, 2))?.pending, "elicitation");
  const answered = [...asked, { at: 5, event: "ElicitationResult" }];
  strictEqual((await signalOf(answered, 6))?.pending, "turn_running");
});
