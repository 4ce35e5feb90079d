/**
 * The reference page, `docs/reference.md`: every command with its flags (from the command table,
 * `verbs.ts`, each flag with the help its verb gives it), the states and kinds of waiting, the
 * exit codes (`reference_tables.ts`), the error codes (`base/error_codes.ts`) and the
 * environment variables (`base/config.ts`). `deno task docs` writes it; a test fails when the
 * file differs. The hand-written parts (what the JSON fields mean, conventions, files) live in
 * `prose` blocks of the page itself, which the generator keeps where they belong.
 */
import { ERROR_CODES } from "../base/error_codes.ts";
import { VARIABLES } from "../base/config.ts";
import { SESSION_STATES, TERMINAL_STATES } from "../base/types.ts";
import { coarseStatus } from "../core/status/mod.ts";
import { KeptProse } from "./docs.ts";
import { briefOf } from "./flags.ts";
import { EXIT_CODES, STATE_MEANINGS, WAITING_FOR_MEANINGS } from "./reference_tables.ts";
import type { VerbSpec } from "./verb_spec.ts";
import { VERBS } from "./verbs.ts";

/** Where the page lives, from the repository root. */
export const REFERENCE_PAGE = "docs/reference.md";

const MAP_WIDTH = 100;
const MAP_INDENT = 27;

/** `camelCase` → `--kebab-case`. */
export function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A flag spec as the table declares it (the parts the page reads). */
interface FlagDoc {
  kind: string;
  brief: string;
  briefs?: Readonly<Record<string, string>>;
  placeholder?: string;
  default?: unknown;
  inferEmpty?: boolean;
}

/** How a flag shows in the map: its name, choices when it has some, `--no-` when on by default. */
function mapWord(key: string, spec: FlagDoc): string {
  const name = flagName(key);
  if (spec.kind === "boolean") return spec.default === true ? `--no-${name.slice(2)}` : name;
  const placeholder = spec.placeholder ?? "";
  return placeholder.includes("|") ? `${name} ${placeholder}` : name;
}

/** The positional arguments of a verb as usage words (`<session>`, `[id]`). */
function positionalWords(spec: VerbSpec): string[] {
  return (spec.positional?.parameters ?? []).map((p) =>
    p.optional ? `[${p.placeholder}]` : `<${p.placeholder}>`
  );
}

/** The command map: one entry per verb, its flags wrapped under it. */
export function commandMap(): string {
  const lines: string[] = [];
  for (const [route, spec] of Object.entries(VERBS)) {
    const words = [
      ...positionalWords(spec),
      ...Object.entries(spec.flags).map(([k, s]) => mapWord(k, s)),
    ];
    let line = `lisa ${route}`.padEnd(MAP_INDENT - 1);
    let first = true;
    for (const w of words) {
      if (!first && line.length + 1 + w.length > MAP_WIDTH) {
        lines.push(line);
        line = " ".repeat(MAP_INDENT - 1);
      }
      line += ` ${w}`;
      first = false;
    }
    lines.push(line.trimEnd());
  }
  lines.push(`${"lisa hook <agent>".padEnd(MAP_INDENT - 1)} (hidden; called by agent hooks)`);
  return lines.join("\n") + "\n";
}

/** Help text as markdown: a `<` outside code spans is no tag (`lisa/<alias>` stays visible). */
function plain(text: string): string {
  return text.split("`").map((part, i) => i % 2 === 0 ? part.replaceAll("<", "&lt;") : part)
    .join("`");
}

/** Help text fit for one table cell. */
function cell(text: string): string {
  return plain(text).replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** A markdown table. */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)];
}

/** How a flag is written in its verb's table: name, value, and the `--no-` form. */
function flagCell(key: string, spec: FlagDoc, aliases: Readonly<Record<string, string>>): string {
  const name = flagName(key);
  const short = Object.entries(aliases).filter(([, k]) => k === key).map(([a]) => `\`-${a}\``);
  let word = `\`${name}\``;
  if (spec.kind === "boolean" && spec.default === true) {
    word = `\`${name}\`, \`--no-${name.slice(2)}\``;
  } else if (spec.kind !== "boolean") {
    const value = spec.placeholder ?? "value";
    word = `\`${name} ${spec.inferEmpty ? `[${value}]` : value}\``;
  }
  return [word, ...short].join(", ");
}

/** What a flag does for the verb at `route`, with its declared default when it has one. */
function flagMeaning(flag: FlagDoc, route: string): string {
  const brief = briefOf(flag, route);
  if (flag.default === undefined) return brief;
  if (flag.kind === "boolean") {
    return `${brief} (${flag.default === true ? "on" : "off"} by default)`;
  }
  return `${brief} (default \`${String(flag.default)}\`)`;
}

/** One verb's section: what it does, its arguments and flags, and its kept prose. */
function verbSection(route: string, spec: VerbSpec, kept: KeptProse): string[] {
  const out = [
    `### \`lisa ${route}\``,
    "",
    `${spec.brief[0].toUpperCase()}${spec.brief.slice(1)}.`,
  ];
  if (spec.fullDescription) out.push("", plain(spec.fullDescription));
  const rows: string[][] = (spec.positional?.parameters ?? []).map((p) => [
    cell(`\`${p.optional ? `[${p.placeholder}]` : `<${p.placeholder}>`}\``),
    cell(p.brief),
  ]);
  for (const [key, flag] of Object.entries(spec.flags) as [string, FlagDoc][]) {
    rows.push([cell(flagCell(key, flag, spec.aliases ?? {})), cell(flagMeaning(flag, route))]);
  }
  if (rows.length > 0) out.push("", ...table(["argument or flag", "meaning"], rows));
  else out.push("", "No flags.");
  out.push(...kept.block(route.replaceAll(" ", "-")));
  return [...out, ""];
}

/** The Commands part: the map, then every verb. */
function commandsPart(kept: KeptProse): string[] {
  const out = ["## Commands", ...kept.block("commands", true), ""];
  out.push("```", ...commandMap().trimEnd().split("\n"), "```", "");
  for (const [route, spec] of Object.entries(VERBS)) out.push(...verbSection(route, spec, kept));
  return out;
}

/** The States part: every state with its coarse status, then every kind of waiting. */
function statesPart(kept: KeptProse): string[] {
  const states = SESSION_STATES.map((s) => [
    `\`${s}\``,
    `\`${coarseStatus(s)}\``,
    TERMINAL_STATES.includes(s) ? "yes" : "no",
    cell(STATE_MEANINGS[s]),
  ]);
  const waiting = Object.entries(WAITING_FOR_MEANINGS).map(([w, m]) => [`\`${w}\``, cell(m)]);
  return [
    "## States",
    "",
    ...table(["`sessionState`", "`status`", "terminal", "meaning"], states),
    "",
    "`waitingFor` (only with `waiting_input`) says what the person has to do:",
    "",
    ...table(["`waitingFor`", "meaning"], waiting),
    ...kept.block("states", true),
    "",
  ];
}

/** The exit codes, then the error codes. */
function codesPart(kept: KeptProse): string[] {
  const exits = EXIT_CODES.map((r) => [`\`${r.code}\``, cell(r.meaning)]);
  const errors = ERROR_CODES.map((r) => [r.codes.map((c) => `\`${c}\``).join(", "), cell(r.when)]);
  return [
    "## Exit codes",
    "",
    ...table(["code", "meaning"], exits),
    ...kept.block("exit-codes", true),
    "",
    "## Error codes",
    "",
    ...table(["`errorCode`", "when"], errors),
    "",
  ];
}

/** A variable's default as the page shows it. */
function defaultOf(value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return "—";
  return `\`${String(value)}\``;
}

/** The environment variables lisa reads. */
function environmentPart(kept: KeptProse): string[] {
  const rows = VARIABLES.map((
    v,
  ) => [`\`${v.name}\``, defaultOf(v.defaultValue), cell(v.description)]);
  return [
    "## Environment",
    "",
    ...table(["variable", "default", "meaning"], rows),
    ...kept.block("environment", true),
    "",
  ];
}

/**
 * The page's whole text, keeping the prose blocks of `previous` (the page as it is). Throws when
 * `previous` holds a prose block the page no longer has a place for (a verb renamed or removed),
 * so no hand-written text is dropped silently.
 */
export function referencePage(previous: string): string {
  const kept = new KeptProse(previous, REFERENCE_PAGE);
  const lines = [
    "# lisa reference",
    ...kept.block("intro", true),
    "",
    "## Conventions",
    ...kept.block("conventions", true),
    "",
    ...commandsPart(kept),
    ...statesPart(kept),
    ...codesPart(kept),
    ...environmentPart(kept),
    "## Files",
    ...kept.block("files", true),
  ];
  kept.checkAllPlaced();
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}
