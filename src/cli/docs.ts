/**
 * The README's generated parts: the command map from the command table (`verbs.ts`) and the
 * error-code table from `base/error_codes.ts`. `deno task docs` writes them between their
 * markers; a test fails when the README differs.
 */
import { ERROR_CODES } from "../base/error_codes.ts";
import { VERBS } from "./verbs.ts";

const WIDTH = 100;
const INDENT = 27;

/** `camelCase` → `--kebab-case`. */
function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** How a flag shows in the map: its name, choices when it has some, `--no-` when on by default. */
function flagWord(key: string, spec: { kind: string; placeholder?: string; default?: unknown }) {
  const name = flagName(key);
  if (spec.kind === "boolean") return spec.default === true ? `--no-${name.slice(2)}` : name;
  const placeholder = spec.placeholder ?? "";
  return placeholder.includes("|") ? `${name} ${placeholder}` : name;
}

/** The command map: one entry per verb, its flags wrapped under it. */
export function commandMap(): string {
  const lines: string[] = [];
  for (const [route, spec] of Object.entries(VERBS)) {
    const head = `lisa ${route}`;
    const words = Object.entries(spec.flags).map(([k, s]) => flagWord(k, s));
    const positionals = (spec.positional?.parameters ?? []).map((p) =>
      p.optional ? `[${p.placeholder}]` : `<${p.placeholder}>`
    );
    words.unshift(...positionals);
    let line = head.padEnd(INDENT - 1);
    let first = true;
    for (const w of words) {
      if (!first && line.length + 1 + w.length > WIDTH) {
        lines.push(line);
        line = " ".repeat(INDENT - 1);
      }
      line += ` ${w}`;
      first = false;
    }
    lines.push(line.trimEnd());
  }
  lines.push(`${"lisa hook <agent>".padEnd(INDENT - 1)} (hidden; called by agent hooks)`);
  return lines.join("\n") + "\n";
}

/** The error-code table as markdown. */
export function errorTable(): string {
  const rows = ERROR_CODES.map((r) => [r.codes.map((c) => `\`${c}\``).join(", "), r.when]);
  const w0 = Math.max(4, ...rows.map((r) => r[0].length));
  const w1 = Math.max(4, ...rows.map((r) => r[1].length));
  const line = (a: string, b: string) => `| ${a.padEnd(w0)} | ${b.padEnd(w1)} |`;
  return [
    line("code", "when"),
    `| ${"-".repeat(w0)} | ${"-".repeat(w1)} |`,
    ...rows.map(([a, b]) => line(a, b)),
  ].join("\n") + "\n";
}

/** Generated blocks by marker name. */
export const GENERATED: Readonly<Record<string, () => string>> = {
  "command-map": () => "```\n" + commandMap() + "```\n",
  "error-codes": errorTable,
};

/**
 * `text` with the block of each of `generators` between `<!-- name:start -->` and
 * `<!-- name:end -->` redone. Throws when `text` (the file `what` names) lacks one.
 */
export function withBlocks(
  text: string,
  generators: Readonly<Record<string, () => string>>,
  what = "README",
): string {
  let out = text;
  for (const [name, render] of Object.entries(generators)) {
    const start = `<!-- ${name}:start -->\n`;
    const end = `<!-- ${name}:end -->`;
    const a = out.indexOf(start);
    const b = out.indexOf(end, a);
    if (a < 0 || b < 0) throw new Error(`${what} has no ${name} block`);
    // Blank lines around the block: what `deno fmt` keeps next to an HTML comment.
    out = out.slice(0, a + start.length) + "\n" + render() + "\n" + out.slice(b);
  }
  return out;
}

/** `text` (the README) with every generated block between its markers redone. */
export function withGeneratedBlocks(text: string): string {
  return withBlocks(text, GENERATED);
}
