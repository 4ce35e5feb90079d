/**
 * Command lines written in prose (the skill, the README's tours) checked against the command
 * table: split a shell line into words as a shell would for the little syntax such lines use, and
 * run the words through the real parser with every verb stubbed.
 */
import { ok } from "node:assert/strict";
import { MemoryIo } from "../../src/cli/io.ts";
import { main } from "../../src/cli/run.ts";
import { VERBS } from "../../src/cli/verbs.ts";
import { fakeDeps } from "./fake_deps.ts";

/** Splits a shell line into words: quotes, `$VAR` and `"$VAR"` (from `vars`); no other syntax. */
export function words(line: string, vars: Record<string, string>): string[] {
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
      cur = (cur ?? "") + expand(line.slice(i + 1, end), line, vars);
      i = end;
    } else if (c === "$") {
      const name = /^\$([A-Z]+)/.exec(line.slice(i))?.[1];
      ok(name !== undefined, `only $VAR is allowed in: ${line}`);
      cur = (cur ?? "") + expand(`$${name}`, line, vars);
      i += name.length;
    } else {
      ok(!"|&;<>()`\\".includes(c), `shell syntax ${c} in a command line: ${line}`);
      cur = (cur ?? "") + c;
    }
  }
  if (cur !== null) out.push(cur);
  return out;
}

function expand(text: string, line: string, vars: Record<string, string>): string {
  return text.replace(/\$([A-Z]+)/g, (_, name: string) => {
    ok(name in vars, `unknown variable $${name} in: ${line}`);
    return vars[name];
  });
}

/** Runs argv through the real command line with every verb stubbed; returns who ran. */
export async function parse(
  argv: string[],
): Promise<{ code: number; out: string; route?: string }> {
  const io = new MemoryIo();
  let ran: string | undefined;
  const overrides = Object.fromEntries(
    Object.keys(VERBS).map((route) => [route, () => void (ran = route)]),
  );
  const code = await main(argv, fakeDeps({ io }), { overrides });
  return { code, out: io.stdout + io.stderr, route: ran };
}
