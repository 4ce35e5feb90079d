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
