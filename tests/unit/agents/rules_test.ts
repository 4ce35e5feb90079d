import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { AGENT_RULES, matchScreen, rulesFor } from "../../../src/agents/rules/index.ts";

const SCREENS = new URL("../../fixtures/screens/", import.meta.url);
function screen(name: string): string {
  return Deno.readTextFileSync(new URL(name, SCREENS));
}
function kinds(agent: "claude" | "codex", title: string, text: string, folder = "project") {
  return matchScreen(rulesFor(agent).rules, title, text, folder).map((m) => `${m.kind}:${m.name}`);
}

Deno.test("every rule has a unique name prefixed by its agent", () => {
  const names = Object.values(AGENT_RULES).flatMap((r) => r.rules.map((x) => x.name));
  strictEqual(new Set(names).size, names.length);
  for (const r of Object.values(AGENT_RULES)) {
    for (const rule of r.rules) {
      ok(rule.name.startsWith(`${r.agent}_`), rule.name);
      strictEqual(rule.agent, r.agent);
    }
  }
});

Deno.test("sleep and cat are never idle helpers", () => {
  for (const r of Object.values(AGENT_RULES)) {
    ok(!r.idleHelpers.includes("sleep") && !r.idleHelpers.includes("cat"));
  }
});

Deno.test("claude's braille spinner title means working, its ✳ title idle", () => {
  deepStrictEqual(kinds("claude", "⠐ Claude Code", ""), ["working:claude_title_spinner"]);
  deepStrictEqual(kinds("claude", "⠂ Claude Code", ""), ["working:claude_title_spinner"]);
  deepStrictEqual(kinds("claude", "✳ Claude Code", ""), ["idle:claude_title_idle"]);
  deepStrictEqual(kinds("claude", "myhost", ""), []);
});

Deno.test("claude's screens: esc to interrupt, proceed dialog, confirm dialog, idle prompt", () => {
  deepStrictEqual(kinds("claude", "", screen("claude_working.txt")), [
    "working:claude_esc_to_interrupt",
  ]);
  deepStrictEqual(kinds("claude", "", screen("claude_permission.txt")), [
    "permission:claude_permission_proceed",
  ]);
  deepStrictEqual(kinds("claude", "", screen("claude_confirm.txt")), [
    "permission:claude_permission_confirm",
  ]);
  deepStrictEqual(kinds("claude", "", screen("claude_idle.txt")), []);
});

Deno.test("codex's titles: spinner working, folder idle, Action Required permission", () => {
  deepStrictEqual(kinds("codex", "⠋ project", ""), ["working:codex_title_spinner"]);
  deepStrictEqual(kinds("codex", "project", ""), ["idle:codex_title_folder_idle"]);
  deepStrictEqual(kinds("codex", "project", "", ""), []);
  deepStrictEqual(kinds("codex", "other-folder", ""), []);
  deepStrictEqual(kinds("codex", "[ ! ] Action Required | project", ""), [
    "permission:codex_title_action_required",
  ]);
});

Deno.test("a folder name with regex characters is matched literally", () => {
  deepStrictEqual(kinds("codex", "my.app (2)", "", "my.app (2)"), ["idle:codex_title_folder_idle"]);
  deepStrictEqual(kinds("codex", "myXapp (2)", "", "my.app (2)"), []);
});

Deno.test("codex's screens: esc to interrupt and the approval question", () => {
  deepStrictEqual(kinds("codex", "", screen("codex_working.txt")), [
    "working:codex_esc_to_interrupt",
  ]);
  deepStrictEqual(kinds("codex", "", screen("codex_approval.txt")), [
    "permission:codex_permission_run_command",
    "permission:codex_permission_confirm",
  ]);
  deepStrictEqual(kinds("codex", "", screen("codex_idle.txt")), []);
});

Deno.test("CPU thresholds follow the measured idle ceilings", () => {
  strictEqual(rulesFor("claude").cpu.idleMaxPercent, 2.5);
  strictEqual(rulesFor("codex").cpu.idleMaxPercent, 0.3);
  for (const r of Object.values(AGENT_RULES)) ok(r.cpu.busyMinPercent > r.cpu.idleMaxPercent);
});
