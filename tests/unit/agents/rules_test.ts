import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { AGENT_RULES, matchScreen, rulesFor } from "../../../src/agents/rules/index.ts";

const SCREENS = new URL("../../fixtures/screens/", import.meta.url);
/** A recorded screen without its `#!` header rows (how it was recorded). */
function screen(name: string): string {
  return Deno.readTextFileSync(new URL(name, SCREENS)).split("\n")
    .filter((r) => !r.startsWith("#!")).join("\n");
}
function kinds(agent: "claude" | "codex", title: string, text: string, folder = "project") {
  return matchScreen(rulesFor(agent).rules, title, text, folder).map((m) => `${m.kind}:${m.name}`);
}
/**
 * The rule kinds a real recorded screen (`real_<name>.txt`, recorded through lisa against the
 * real CLI) matches together with its recorded pane title (`real_<name>.title`).
 */
function real(name: string): string[] {
  const agent = name.startsWith("codex") ? "codex" : "claude";
  const title = screen(`real_${name}.title`).replace(/\n$/, "");
  return [...new Set(kinds(agent, title, screen(`real_${name}.txt`)).map((k) => k.split(":")[0]))];
}
/** A real screen with `lines` inserted just above claude's input box (as answer text). */
function withAnswer(name: string, lines: string[]): string {
  const rows = screen(`real_${name}.txt`).split("\n");
  const box = rows.findLastIndex((r) => r === "❯" || r.startsWith("❯ ")) - 1;
  rows.splice(box, 0, ...lines, "");
  return rows.join("\n");
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

Deno.test("claude's older boxed screens: spinner row, proceed dialog, trust dialog, idle", () => {
  deepStrictEqual(kinds("claude", "", screen("claude_working.txt")), [
    "working:claude_esc_to_interrupt",
    "working:claude_spinner_row",
  ]);
  deepStrictEqual(kinds("claude", "", screen("claude_permission.txt")), [
    "permission:claude_permission_question",
    "permission:claude_permission_options",
  ]);
  deepStrictEqual(kinds("claude", "", screen("claude_confirm.txt")), [
    "permission:claude_permission_options",
    "permission:claude_permission_confirm",
  ]);
  deepStrictEqual(kinds("claude", "", screen("claude_idle.txt")), []);
});

Deno.test("real claude: idle, finished and interrupted screens match no permission or working rule", () => {
  for (
    const name of ["claude_idle", "claude_turn_done", "claude_after_esc", "claude_after_esc_edit"]
  ) {
    deepStrictEqual(real(name), ["idle"], name);
  }
});

Deno.test("real claude: a slow reply, a mode footer and a running tool are working", () => {
  for (const name of ["claude_working", "claude_bypass_working", "claude_tool_running"]) {
    deepStrictEqual(real(name), ["working"], name);
  }
  deepStrictEqual(kinds("claude", "", screen("real_claude_bypass_working.txt")), [
    "working:claude_esc_to_interrupt",
    "working:claude_spinner_row",
  ]);
});

Deno.test("real claude: Bash, Write and Edit dialogs match every dialog rule under an idle title", () => {
  for (
    const name of ["claude_permission_bash", "claude_permission_write", "claude_permission_edit"]
  ) {
    deepStrictEqual(real(name), ["permission", "idle"], name);
    deepStrictEqual(kinds("claude", "", screen(`real_${name}.txt`)), [
      "permission:claude_permission_question",
      "permission:claude_permission_options",
      "permission:claude_permission_footer",
    ], name);
  }
});

Deno.test("claude's dialog rules do not fire on answer text that quotes a dialog", () => {
  const text = withAnswer("claude_idle", [
    "❯ Do you want to proceed?",
    "",
    "● Do you want to proceed? The dialog reads:",
    "  Do you want to make this edit to app.txt?",
    "  ❯ 1. Yes",
    "    2. Yes, allow all edits during this session (shift+tab)",
    "    3. No",
    "  Esc to cancel · Tab to amend, Enter to confirm · Esc to cancel",
    "  esc to interrupt stops a turn; ✽ Thinking… is its spinner.",
    "",
    "❯ 1. Yes",
  ]);
  deepStrictEqual(kinds("claude", "✳ Claude Code", text), ["idle:claude_title_idle"]);
});

Deno.test("claude's option list matches with the cursor on any option", () => {
  const dialog = [" Do you want to proceed?", "   1. Yes", " ❯ 2. Yes, and don't ask", "   3. No"];
  deepStrictEqual(kinds("claude", "", dialog.slice(1).join("\n")), [
    "permission:claude_permission_options",
  ]);
});

Deno.test("codex's titles: spinner working, folder idle, Action Required permission", () => {
  deepStrictEqual(kinds("codex", "⠋ project", ""), ["working:codex_title_spinner"]);
  deepStrictEqual(kinds("codex", "project", ""), ["idle:codex_title_folder_idle"]);
  deepStrictEqual(kinds("codex", "project", "", ""), []);
  deepStrictEqual(kinds("codex", "other-folder", ""), []);
  deepStrictEqual(kinds("codex", "[ ! ] Action Required | project", ""), [
    "permission:codex_title_action_required",
  ]);
  // The `!` blinks: half the time the real title reads `[ . ] Action Required`.
  deepStrictEqual(kinds("codex", "[ . ] Action Required | project", ""), [
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
    "permission:codex_permission_options",
    "permission:codex_permission_confirm",
  ]);
  deepStrictEqual(kinds("codex", "", screen("codex_idle.txt")), []);
});

Deno.test("real codex: idle, finished and cancelled screens show only the folder title", () => {
  for (const name of ["codex_idle", "codex_turn_done", "codex_after_esc"]) {
    deepStrictEqual(real(name), ["idle"], name);
    deepStrictEqual(kinds("codex", "", screen(`real_${name}.txt`)), [], name);
  }
});

Deno.test("real codex: a slow reply and a running command are working", () => {
  for (const name of ["codex_working", "codex_tool_running"]) {
    deepStrictEqual(real(name), ["working"], name);
    deepStrictEqual(kinds("codex", "", screen(`real_${name}.txt`)), [
      "working:codex_esc_to_interrupt",
    ], name);
  }
});

Deno.test("real codex: an approval matches its title and every dialog rule", () => {
  deepStrictEqual(
    kinds("codex", screen("real_codex_approval.title"), screen("real_codex_approval.txt")),
    [
      "permission:codex_title_action_required",
      "permission:codex_permission_run_command",
      "permission:codex_permission_options",
      "permission:codex_permission_confirm",
    ],
  );
});

Deno.test("codex's dialog rules do not fire on an answer that asks a question", () => {
  const text = [
    "› create the file",
    "",
    "• I can do that. Would you like to run the tests too?",
    "  Would you like to review the diff first?",
    "  1. Yes, proceed",
    "",
    "› Ask Codex to do anything",
  ].join("\n");
  deepStrictEqual(kinds("codex", "project", text), ["idle:codex_title_folder_idle"]);
});

Deno.test("CPU thresholds follow the measured idle ceilings", () => {
  strictEqual(rulesFor("claude").cpu.idleMaxPercent, 2.5);
  strictEqual(rulesFor("codex").cpu.idleMaxPercent, 0.3);
  for (const r of Object.values(AGENT_RULES)) ok(r.cpu.busyMinPercent > r.cpu.idleMaxPercent);
});

/** `rules` without their needles: every regexp runs. */
function withoutNeedles(agent: "claude" | "codex") {
  return rulesFor(agent).rules.map(({ needles: _needles, ...rule }) => rule);
}

Deno.test("needles never hide a match: every recorded screen, title and row matches the same", () => {
  const texts: string[] = [];
  for (const entry of Deno.readDirSync(SCREENS)) {
    const text = screen(entry.name);
    texts.push(text, ...text.split("\n"));
  }
  texts.push(
    "• Working (2s • ESC TO INTERRUPT)",
    "• Working (2s • eſc to interrupt)",
    "PRESS ENTER TO CONFIRM OR ESC TO CANCEL",
    "stream error: RETRYING 3/5",
    "Reconnecting... 2/5",
  );
  let matched = 0;
  for (const agent of ["claude", "codex"] as const) {
    const bare = withoutNeedles(agent);
    for (const text of texts) {
      const want = matchScreen(bare, text, text, "project", text);
      deepStrictEqual(matchScreen(rulesFor(agent).rules, text, text, "project", text), want);
      matched += want.length;
    }
  }
  ok(matched > 100, `only ${matched} matches: the comparison proves little`);
});

Deno.test("needles of a case-insensitive rule are lower case; every needle is non-empty", () => {
  for (const r of Object.values(AGENT_RULES)) {
    for (const rule of r.rules) {
      for (const needle of rule.needles ?? []) {
        ok(needle !== "", rule.name);
        if (rule.flags?.includes("i")) strictEqual(needle, needle.toLowerCase(), rule.name);
      }
    }
  }
});

/** The blocked kinds (quota, auth, error) `text` matches for `agent`, with their rule names. */
function blocked(agent: "claude" | "codex", text: string): string[] {
  return kinds(agent, "", text).filter((k) => /^(?:quota|auth|error):/.test(k));
}

/** The real idle claude screen with `rows` as the last turn above its input box. */
function claudeTurn(rows: string[]): string {
  return screen("real_claude_idle.txt").replace(/\n(─+\n❯)/, `\n${rows.join("\n")}\n\n$1`);
}

Deno.test("claude's blocked rules match its own error rows: the recorded ones and the subscription shapes", () => {
  deepStrictEqual(blocked("claude", screen("real_claude_auth.txt")), ["auth:claude_auth_failed"]);
  deepStrictEqual(blocked("claude", screen("real_claude_rate_limit.txt")), [
    "quota:claude_quota_rate_limited",
    "error:claude_api_error",
  ]);
  deepStrictEqual(blocked("claude", screen("real_claude_overloaded.txt")), [
    "error:claude_api_error",
  ]);
  // Subscription messages: at column 0 under the echoed prompt (anthropics/claude-code issue
  // 77262), or as a `  ⎿  ` row right under it; the login messages of the 2.1.197 binary.
  const own: [string[], string][] = [
    [["❯ test", "You've hit your session limit · resets 1:20am (Europe/Vienna)"], "quota"],
    [
      ["❯ test", "", "You've hit your weekly limit · resets Mon 9am", "/upgrade to increase"],
      "quota",
    ],
    [["❯ fix it", "  ⎿  You're out of usage credits. /model to switch models."], "quota"],
    [["❯ fix it", "  and the tests", "", "  ⎿  You've hit your monthly spend limit."], "quota"],
    [["❯ hi", "  ⎿  Not logged in · Please run /login"], "auth"],
    [["❯ hi", "  ⎿  OAuth token revoked · Please run /login"], "auth"],
    [["❯ hi", "Your session has expired. Please run /login to sign in again."], "auth"],
    [["❯ hi", "● API Error: 401 Invalid API key · Please run /login"], "auth"],
  ];
  for (const [rows, kind] of own) {
    const found = blocked("claude", claudeTurn(rows));
    ok(found.length > 0 && found[0].startsWith(`${kind}:`), `${rows.join(" / ")}: ${found}`);
  }
  const limit = matchScreen(
    rulesFor("claude").rules,
    "",
    claudeTurn(["❯ test", "You've hit your session limit · resets 1:20am (Europe/Vienna)"]),
    "project",
  );
  strictEqual(limit.find((m) => m.kind === "quota")?.resets, "1:20am (Europe/Vienna)");
});

Deno.test("claude's blocked rules never match an answer, or a tool's output, that quotes an error", () => {
  const quoting: string[][] = [
    ['● The site said "Please run /login and retry", so nothing was fetched.'],
    ["● You've reached your monthly upload limit on that service; try tomorrow."],
    ["● You've hit your session limit · resets 8:50pm (UTC) is what it prints then."],
    ["● Not logged in · Please run /login"],
    ["● Invalid API key · Fix external API key"],
    ["● Here is the log:", "  Invalid API key · Fix external API key", "  Please run /login"],
    ["● Two messages:", "", "  You've hit your weekly limit · resets Mon 9am", "  Not logged in"],
    ["● The reply quoted ● API Error: Request rejected (429) · Rate limited"],
    ["● Bash(cat err.log)", "  ⎿  Invalid API key · Fix external API key", "     Not logged in"],
    ["● Bash(cat limits.txt)", "  ⎿  You've hit your session limit · resets 8:50pm (UTC)"],
    ["● API Error: Request was aborted."],
  ];
  for (const rows of quoting) {
    // After the recorded prompt and its answer, and as the answer to a prompt of its own.
    deepStrictEqual(blocked("claude", withAnswer("claude_turn_done", rows)), [], rows.join(" / "));
    deepStrictEqual(blocked("claude", claudeTurn(["❯ check", ...rows])), [], rows.join(" / "));
  }
});

Deno.test("codex's blocked rules match its own `■` error rows, never an answer that quotes them", () => {
  for (
    const [name, kind] of [
      ["auth", "auth"],
      ["rate_limit", "quota"],
      ["usage_limit", "quota"],
      ["overloaded", "error"],
    ]
  ) {
    const found = blocked("codex", screen(`real_codex_${name}.txt`));
    ok(found.length > 0 && found[0].startsWith(`${kind}:`), `${name}: ${found}`);
  }
  const turn = (rows: string[]) =>
    screen("real_codex_turn_done.txt").replace("› Ask Codex", `${rows.join("\n")}\n\n› Ask Codex`);
  const quoting: string[][] = [
    ["› what did it say?", "", "• It said: ■ You’ve hit your usage limit. Try again later."],
    ["• The log reads:", "", "  ■ unexpected status 401 Unauthorized: Incorrect API key"],
    ["• exceeded retry limit, last status: 429 Too Many Requests, so I stopped."],
    ["• Please log in again to the dashboard; the server was overloaded."],
    ["› ■ unexpected status 429 (pasted from the log)"],
  ];
  for (const rows of quoting) {
    deepStrictEqual(blocked("codex", turn(rows)), [], rows.join(" / "));
  }
});
