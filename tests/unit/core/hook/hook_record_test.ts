import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  boundRecord,
  buildRecord,
  cutChars,
  makePreview,
  MAX_LINE_BYTES,
  PREVIEW_CHARS,
  recordLine,
} from "../../../../src/core/hook/hook_record.ts";

const context = { at: new Date("2026-01-02T03:04:05.000Z"), runId: "run-1", agent: "claude" };
const bytes = (s: string) => new TextEncoder().encode(s).length;

Deno.test("a claude Stop payload becomes a record with the last message as preview", () => {
  const payload = JSON.stringify({
    session_id: "11111111-2222-3333-4444-555555555555",
    transcript_path: "/home/u/.claude/projects/x/1.jsonl",
    hook_event_name: "Stop",
    last_assistant_message: "All done.\nTests pass.",
  });
  deepStrictEqual(buildRecord(payload, context), {
    at: "2026-01-02T03:04:05.000Z",
    runId: "run-1",
    agent: "claude",
    event: "Stop",
    notificationType: null,
    agentSessionId: "11111111-2222-3333-4444-555555555555",
    transcriptPath: "/home/u/.claude/projects/x/1.jsonl",
    preview: "All done. Tests pass.",
    reply: "All done.\nTests pass.",
  });
});

Deno.test("a record keeps the whole prompt, the reply and tool facts history needs", () => {
  const prompt = buildRecord(
    JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: "line 1\nline 2" }),
    context,
  );
  strictEqual(prompt.prompt, "line 1\nline 2");
  const tool = buildRecord(
    JSON.stringify({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_use_id: "toolu_1",
      tool_input: { command: "ls" },
      duration_ms: 12.4,
    }),
    context,
  );
  deepStrictEqual([tool.tool, tool.toolUseId, tool.durationMs, tool.preview], [
    "Bash",
    "toolu_1",
    12,
    "Bash: ls",
  ]);
  const plan = buildRecord(
    JSON.stringify({
      hook_event_name: "PostToolUse",
      tool_name: "ExitPlanMode",
      tool_input: { plan: "# Plan\n1. do it" },
    }),
    context,
  );
  strictEqual(plan.plan, "# Plan\n1. do it");
  const write = buildRecord(
    JSON.stringify({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: "/h/.claude/plans/p.md", content: "x" },
    }),
    context,
  );
  strictEqual(write.planPath, "/h/.claude/plans/p.md");
});

Deno.test("a long reply is cut to fit the line and the record says it was cut", () => {
  const record = boundRecord(
    buildRecord(
      JSON.stringify({ hook_event_name: "Stop", last_assistant_message: "é".repeat(5000) }),
      context,
    ),
  );
  ok((record.reply ?? "").length > 100);
  deepStrictEqual(record.cut, ["reply"]);
  ok(bytes(recordLine(record)) <= MAX_LINE_BYTES);
});

Deno.test("a claude permission Notification keeps its notification type", () => {
  const payload = JSON.stringify({
    hook_event_name: "Notification",
    message: "Claude needs your permission",
    notification_type: "permission_prompt",
  });
  const record = buildRecord(payload, context);
  strictEqual(record.event, "Notification");
  strictEqual(record.notificationType, "permission_prompt");
  strictEqual(record.preview, "Claude needs your permission");
});

Deno.test("a PermissionRequest preview names the tool and its command", () => {
  const payload = JSON.stringify({
    hook_event_name: "PermissionRequest",
    tool_name: "Bash",
    tool_input: { command: "touch x", description: "make x" },
  });
  strictEqual(buildRecord(payload, context).preview, "Bash: touch x");
});

Deno.test("a codex notify becomes an agent-turn-complete record with the thread id", () => {
  const payload = JSON.stringify({
    type: "agent-turn-complete",
    "thread-id": "01a2-thread",
    "input-messages": ["fix the bug"],
    "last-assistant-message": "Fixed.",
  });
  const record = buildRecord(payload, { ...context, agent: "codex" });
  strictEqual(record.event, "agent-turn-complete");
  strictEqual(record.agentSessionId, "01a2-thread");
  strictEqual(record.preview, "Fixed.");
  strictEqual(record.aux, undefined);
});

Deno.test("codex's title-generation notify is marked aux", () => {
  const payload = JSON.stringify({
    type: "agent-turn-complete",
    "thread-id": "t2",
    "input-messages": ["Generate a concise, single-line task title of at most 36 characters"],
    "last-assistant-message": "Fix bug",
  });
  strictEqual(buildRecord(payload, { ...context, agent: "codex" }).aux, true);
});

Deno.test("junk input still gives a record with event unknown", () => {
  const record = buildRecord("not json at all", context);
  strictEqual(record.event, "unknown");
  strictEqual(record.agentSessionId, null);
});

Deno.test("a payload cut at the read cap keeps the fields that were complete", () => {
  const full = JSON.stringify({
    session_id: "s-1",
    hook_event_name: "UserPromptSubmit",
    prompt: "x".repeat(10_000),
  });
  const record = buildRecord(full.slice(0, 200), context);
  strictEqual(record.event, "UserPromptSubmit");
  strictEqual(record.agentSessionId, "s-1");
});

Deno.test("the preview is one line of at most 200 characters", () => {
  const preview = makePreview("a\n\tb  " + "😀".repeat(500))!;
  ok(!preview.includes("\n"));
  ok(preview.startsWith("a b "));
  strictEqual([...preview].length, PREVIEW_CHARS);
});

Deno.test("cutChars never splits a surrogate pair", () => {
  strictEqual(cutChars("😀😀😀", 2), "😀😀");
});

Deno.test("a record with huge fields is bounded below 4 KiB", () => {
  const record = buildRecord(
    JSON.stringify({
      hook_event_name: "E".repeat(5000),
      session_id: "\u0001".repeat(5000),
      transcript_path: "\u0002".repeat(5000),
      notification_type: '"'.repeat(5000),
      message: "\\".repeat(5000),
    }),
    { ...context, runId: "\u0003".repeat(5000) },
  );
  const line = recordLine(record);
  ok(bytes(line) <= MAX_LINE_BYTES, `line is ${bytes(line)} bytes`);
  ok(line.endsWith("}\n"));
  JSON.parse(line);
  strictEqual(boundRecord(record).event.length, 64);
});

/** The Stop payload claude 2.1.197 sent here after a turn that ran Bash in the background. */
const BACKGROUND_STOP = {
  session_id: "5b4bdefc-786d-43d3-a118-f5ab662746d9",
  transcript_path: "/home/u/.claude/projects/p/5b4bdefc-786d-43d3-a118-f5ab662746d9.jsonl",
  cwd: "/tmp/project",
  prompt_id: "20aaab00-d194-4ba8-af70-dbd5976adb5f",
  permission_mode: "bypassPermissions",
  effort: { level: "high" },
  hook_event_name: "Stop",
  stop_hook_active: false,
  last_assistant_message: "started it",
  background_tasks: [{
    id: "bpguv0lrs",
    type: "shell",
    status: "running",
    description: "background sleep",
    command: "sleep 8; echo bg-done > bg.txt",
  }],
  session_crons: [],
};

Deno.test("a claude Stop keeps its prompt id and the background tasks it lists", () => {
  const r = buildRecord(JSON.stringify(BACKGROUND_STOP), context);
  strictEqual(r.promptId, "20aaab00-d194-4ba8-af70-dbd5976adb5f");
  deepStrictEqual(r.backgroundTasks, [{
    id: "bpguv0lrs",
    type: "shell",
    status: "running",
    description: "background sleep",
  }]);
  // An empty list is kept: the agent said nothing runs on.
  const none = buildRecord(JSON.stringify({ ...BACKGROUND_STOP, background_tasks: [] }), context);
  deepStrictEqual(none.backgroundTasks, []);
  const older = buildRecord(JSON.stringify({ hook_event_name: "Stop" }), context);
  strictEqual("backgroundTasks" in older, false);
  // A payload cut at the read cap still has its prompt id.
  const cut = buildRecord(JSON.stringify(BACKGROUND_STOP).slice(0, 300), context);
  strictEqual(cut.promptId, "20aaab00-d194-4ba8-af70-dbd5976adb5f");
});

Deno.test("subagent and compaction records say which subagent and what triggered", () => {
  const start = buildRecord(
    JSON.stringify({ hook_event_name: "SubagentStart", agent_id: "a1b2", agent_type: "Explore" }),
    context,
  );
  strictEqual(start.subagentId, "a1b2");
  strictEqual(start.subagentType, "Explore");
  const compact = buildRecord(
    JSON.stringify({ hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null }),
    context,
  );
  strictEqual(compact.preview, "auto");
});

Deno.test("a codex notify keeps its turn id as the prompt id", () => {
  const r = buildRecord(
    JSON.stringify({
      type: "agent-turn-complete",
      "thread-id": "t1",
      "turn-id": "01a21e87-4a34-7351-ae89-df73ce9e157e",
      "input-messages": ["say ok"],
      "last-assistant-message": "ok",
    }),
    { ...context, agent: "codex" },
  );
  strictEqual(r.promptId, "01a21e87-4a34-7351-ae89-df73ce9e157e");
});

Deno.test("many long background tasks are cut so the line stays below 4 KiB", () => {
  const tasks = Array.from({ length: 40 }, (_, i) => ({
    id: `task-${i}-${"x".repeat(300)}`,
    type: "shell",
    status: "running",
    description: "d".repeat(1000),
  }));
  const record = buildRecord(
    JSON.stringify({ ...BACKGROUND_STOP, background_tasks: tasks, last_assistant_message: "r" }),
    context,
  );
  const line = recordLine(record);
  ok(bytes(line) <= MAX_LINE_BYTES, `${bytes(line)} bytes`);
  const bounded = boundRecord(record);
  ok(bounded.backgroundTasks!.length >= 2 && bounded.backgroundTasks!.length <= 8);
  strictEqual(bounded.backgroundTasks![0].status, "running");
  ok(bounded.backgroundTasks![0].id.startsWith("task-0-"));
});
