/**
 * lisa's SKILL.md checked against the command table: every `lisa …` command line in it (in its
 * shell blocks and its inline code) goes through the real parser (`main()` with every verb
 * stubbed, as tests/cli/table_test.ts does), every flag it names exists, every error code and
 * state it names is one lisa has, its states table covers every state, and it stays short.
 */
import { deepStrictEqual, fail, ok, strictEqual } from "node:assert/strict";
import { routeOf } from "../../src/cli/route_map.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { allErrorCodes } from "../../src/base/error_codes.ts";
import { SESSION_STATES } from "../../src/base/types.ts";
import type { WaitingFor } from "../../src/core/status/classify.ts";
import { skillFile } from "../../src/core/skill/content.ts";
import { parse, words } from "../helpers/command_lines.ts";

const { text: SKILL } = await skillFile();

/** Values for the shell variables the skill's lines use. */
const VARS: Record<string, string> = { S: "lisa-w-1", A: "lisa-w-2", B: "lisa-w-3", NEXT: "o2.1" };

/** The skill's shell lines (```sh blocks), each with the block's language. */
function shellLines(): string[] {
  const out: string[] = [];
  for (const m of SKILL.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (m[1] !== "sh") continue;
    for (const line of m[2].split("\n")) if (line.trim() !== "") out.push(line.trim());
  }
  return out;
}

/** The skill's prose (code blocks removed) and its inline code spans. */
function prose(): { text: string; spans: string[] } {
  const text = SKILL.replace(/^```\w*\n[\s\S]*?^```$/gm, "");
  const spans = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\n/g, " "));
  return { text, spans };
}

/** The lisa command lines of the skill: shell lines and inline code starting with `lisa `. */
function lisaLines(): string[] {
  return [...shellLines(), ...prose().spans].filter((l) => l.startsWith("lisa "));
}

Deno.test("every lisa command line of the skill parses, with flags its verb has", async () => {
  const lines = lisaLines();
  ok(lines.length >= 30, `${lines.length} lines found`);
  for (const line of lines) {
    const argv = words(line, VARS).slice(1);
    const route = routeOf(argv);
    // `lisa mcp` is another verb's (issue 22, item 1): checked once the table has it.
    if (route === undefined && argv[0] === "mcp") continue;
    ok(route !== undefined, `no verb of the table: ${line}`);
    const r = await parse(argv);
    strictEqual(r.code, 0, `${line}\n${r.out}`);
    if (argv.includes("--help")) ok(r.out.startsWith("USAGE"), line);
    else strictEqual(r.route, route, line);
  }
});

Deno.test("the skill's shell blocks hold only lisa lines, and the MCP lines that start lisa mcp", () => {
  for (const line of shellLines()) {
    if (line.startsWith("lisa ")) continue;
    const m = /^(claude mcp add --scope user|codex mcp add) lisa -- (lisa mcp)$/.exec(line);
    if (m === null) fail(`a shell line the test does not check: ${line}`);
  }
});

Deno.test("every flag the skill names exists on some verb of the table", () => {
  const known = new Set(["--help"]);
  for (const verb of Object.values(VERBS)) {
    for (const [key, spec] of Object.entries(verb.flags)) {
      const name = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      known.add(name);
      if ((spec as { kind: string }).kind === "boolean") known.add(`--no-${name.slice(2)}`);
    }
  }
  const { text } = prose();
  const named = new Set([...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]));
  ok(named.size >= 25, `${named.size} flags named`);
  for (const flag of named) ok(known.has(flag), `${flag} is no flag of lisa`);
});

Deno.test("every error code and state the skill names is lisa's; its states table has them all", () => {
  const codes = allErrorCodes();
  const states = new Set<string>(SESSION_STATES);
  for (const span of prose().spans) {
    if (!/^[a-z]+(_[a-z]+)+$/.test(span)) continue;
    ok(codes.has(span) || states.has(span), `\`${span}\` is neither an error code nor a state`);
  }
  const table = SKILL.slice(SKILL.indexOf("## States"), SKILL.indexOf("## Answer a permission"));
  const rows = [...table.matchAll(/^\| `([a-z_]+)` +\| (?:`([a-z]+)`)? *\|/gm)];
  deepStrictEqual([...new Set(rows.map((r) => r[1]))].sort(), [...SESSION_STATES].sort());
  // Every kind of waiting has its row (a new kind fails the type check here first).
  const waiting: Record<WaitingFor, true> = {
    input: true,
    permission: true,
    quota: true,
    auth: true,
    error: true,
  };
  deepStrictEqual(
    rows.filter((r) => r[1] === "waiting_input").map((r) => r[2]).sort(),
    Object.keys(waiting).sort(),
  );
});

Deno.test("the MCP tools the skill names are verbs of the table (without session)", () => {
  const section = SKILL.slice(SKILL.indexOf("## Through MCP"), SKILL.indexOf("## When something"));
  const tools = section.split("\n")[2].match(/`[a-z_]+`/g)!.map((t) => t.slice(1, -1));
  ok(tools.length >= 6, tools.join(","));
  for (const tool of tools) ok(`session ${tool}` in VERBS, `${tool} is no verb`);
});

Deno.test("the skill is under 250 lines and teaches the loop in order", () => {
  const lines = SKILL.trimEnd().split("\n").length;
  ok(lines < 250, `${lines} lines`);
  const order = [
    "lisa session spawn",
    "lisa session send",
    "lisa session watch",
    "lisa session capture",
    "lisa session diff",
    "lisa session merge",
    "lisa session kill",
  ].map((cmd) => SKILL.indexOf(`\n${cmd} `));
  ok(order.every((at) => at > 0), `each step has a command line: ${order}`);
  deepStrictEqual(order, [...order].sort((a, b) => a - b), "spawn → send → watch → … → kill");
});
