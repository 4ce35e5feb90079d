/**
 * lisa's SKILL.md checked against the command table: every `lisa …` command line in it (in its
 * shell blocks and its inline code) goes through the real parser (`main()` with every verb
 * stubbed, as tests/cli/table_test.ts does), every flag it names exists, every error code and
 * state it names is one lisa has, its states table covers every state, and it stays short.
 */
import { deepStrictEqual, fail, ok, strictEqual } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { routeOf } from "../../src/cli/route_map.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { allErrorCodes } from "../../src/base/error_codes.ts";
import { SESSION_STATES } from "../../src/base/types.ts";
import type { WaitingFor } from "../../src/core/status/classify.ts";
import { skillFile } from "../../src/core/skill/content.ts";
import { fakeDeps } from "../helpers/fake_deps.ts";

const { text: SKILL } = await skillFile();

/** Values for the shell variables the skill's lines use. */
const VARS: Record<string, string> = { S: "lisa-w-1", A: "lisa-w-2", B: "lisa-w-3", NEXT: "o2.1" };

/** Splits a shell line into words: quotes, `$VAR` and `"$VAR"`; no other shell syntax allowed. */
function words(line: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === " ") {
      if (cur !== null) out.push(cur);
      cur = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      ok(end > i, `unclosed ' in: ${line}`);
      cur = (cur ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      ok(end > i, `unclosed " in: ${line}`);
      cur = (cur ?? "") + expand(line.slice(i + 1, end), line);
      i = end;
    } else if (c === "$") {
      const name = /^\$([A-Z]+)/.exec(line.slice(i))?.[1];
      ok(name !== undefined, `only $VAR is allowed in: ${line}`);
      cur = (cur ?? "") + expand(`$${name}`, line);
      i += name.length;
    } else {
      ok(!"|&;<>()`\\".includes(c), `shell syntax ${c} in a command line: ${line}`);
      cur = (cur ?? "") + c;
    }
  }
  if (cur !== null) out.push(cur);
  return out;
}

function expand(text: string, line: string): string {
  return text.replace(/\$([A-Z]+)/g, (_, name: string) => {
    ok(name in VARS, `unknown variable $${name} in: ${line}`);
    return VARS[name];
  });
}

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

/** Runs argv through the real command line with every verb stubbed; returns who ran. */
async function parse(argv: string[]): Promise<{ code: number; out: string; route?: string }> {
  const io = new MemoryIo();
  let ran: string | undefined;
  const overrides = Object.fromEntries(
    Object.keys(VERBS).map((route) => [route, () => void (ran = route)]),
  );
  const code = await main(argv, fakeDeps({ io }), { overrides });
  return { code, out: io.stdout + io.stderr, route: ran };
}

Deno.test("every lisa command line of the skill parses, with flags its verb has", async () => {
  const lines = lisaLines();
  ok(lines.length >= 30, `${lines.length} lines found`);
  for (const line of lines) {
    const argv = words(line).slice(1);
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
