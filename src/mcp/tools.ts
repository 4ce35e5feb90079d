/**
 * The MCP tools, generated from the command table (`src/cli/verbs.ts`, assembled from each verb's
 * declaration): one tool per verb that a program can use (a verb declared `mcp: false`, such as
 * `attach`, is left out), named after its route without `session` (`session kill-all` →
 * `kill_all`, `history list` → `history_list`). Its input schema is the verb's flags in
 * camelCase, typed from each flag's parser (`cli/flags.ts` `typed`: integers and numbers with
 * their bounds, enums, booleans, lists), with the flags' help as descriptions; flags marked
 * `terminal` (`--json`, `--watch`, …) are not offered (a tool's answer is always the `--json`
 * document). A verb's positional argument is `session` when it names the session (the same as
 * `--session`), otherwise its placeholder's name.
 *
 * {@link flagsOf} turns a call's arguments back into the flags object the verb's implementation
 * receives, running each value through the flag's own parser (so the bounds, choices and error
 * messages are the CLI's; a list argument is an array, or the CLI's comma-separated text), and
 * throws the CLI's error codes (`unknown_option`,
 * `invalid_argument`, `missing_argument`, or the parser's own, such as `invalid_agent`).
 */
import { UsageError } from "../base/errors.ts";
import { briefOf, type Briefs, type ValueSchema } from "../cli/flags.ts";
import { VERBS, type VerbSpec } from "../cli/verbs.ts";

/** A JSON Schema of one argument. */
export interface ArgSchema {
  type: ValueSchema["type"];
  description: string;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  items?: ValueSchema;
  default?: unknown;
}

/** One tool: its name, the route it runs, and what `tools/list` shows of it. */
export interface ToolSpec {
  name: string;
  route: string;
  description: string;
  inputSchema: {
    type: "object";
    properties: Record<string, ArgSchema>;
    required?: string[];
    additionalProperties: false;
  };
}

/** A flag spec as the tools read it (stricli's shape, plus lisa's `terminal`). */
interface FlagSpecLike {
  kind: string;
  brief: string;
  briefs?: Briefs;
  parse?: ((text: string) => unknown) & { schema?: ValueSchema };
  default?: unknown;
  optional?: boolean;
  terminal?: boolean;
}

/** The tool name of a route (`session kill-all` → `kill_all`). */
export function toolName(route: string): string {
  return route.replace(/^session /, "").replace(/[ -]/g, "_");
}

/** How a positional parameter of a verb shows as an argument: its key, or null (skipped). */
function positionalKey(spec: VerbSpec, placeholder: string): string | null {
  // `session diff [id]`: the id is --session given another way; the tool has `session` only.
  if (placeholder === "id" && "session" in spec.flags) return null;
  return placeholder.replace(/[^a-zA-Z0-9]+(.)/g, (_, c: string) => c.toUpperCase());
}

function argSchema(spec: FlagSpecLike, route: string): ArgSchema {
  const value: ValueSchema = spec.kind === "boolean"
    ? { type: "boolean" }
    : spec.parse?.schema ?? { type: "string" };
  const out: ArgSchema = { ...value, description: briefOf(spec, route) };
  if (spec.default !== undefined) {
    out.default = spec.kind === "boolean" || spec.parse === undefined
      ? spec.default
      : spec.parse(String(spec.default));
  }
  return out;
}

/** The offered flags of a verb (not `terminal`), by camelCase name. */
function offeredFlags(spec: VerbSpec): [string, FlagSpecLike][] {
  return Object.entries(spec.flags as Record<string, FlagSpecLike>).filter(([, f]) => !f.terminal);
}

/** Every tool, in the table's order. */
export function toolSpecs(): ToolSpec[] {
  const out: ToolSpec[] = [];
  for (const [route, spec] of Object.entries(VERBS)) {
    if (spec.mcp === false) continue;
    const properties: Record<string, ArgSchema> = {};
    const required = new Set<string>(spec.mcp?.require ?? []);
    for (const p of spec.positional?.parameters ?? []) {
      const key = positionalKey(spec, p.placeholder);
      if (key === null) continue;
      const parse = p.parse as FlagSpecLike["parse"];
      properties[key] = { ...(parse?.schema ?? { type: "string" }), description: p.brief };
      if (!p.optional) required.add(key);
    }
    for (const [key, flag] of offeredFlags(spec)) properties[key] = argSchema(flag, route);
    const description = [spec.brief, spec.fullDescription, spec.mcp?.note]
      .filter((s) => s !== undefined).join(". ");
    out.push({
      name: toolName(route),
      route,
      description,
      inputSchema: {
        type: "object",
        properties,
        ...(required.size > 0 ? { required: [...required] } : {}),
        additionalProperties: false,
      },
    });
  }
  return out;
}

/** The flags object and positional values a call's arguments make for `tool`'s verb. */
export interface VerbCall {
  flags: Record<string, unknown>;
  positionals: unknown[];
}

/** Defaults a server gives every call (`lisa mcp --project-root`). */
export interface CallDefaults {
  projectRoot?: string;
}

/** Runs `text` through `parse`, naming the argument in a refusal (as the CLI names the flag). */
function parsed(key: string, parse: (text: string) => unknown, text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const code = error instanceof UsageError ? error.code : "invalid_argument";
    throw new UsageError(`${key}: ${reason}`, code);
  }
}

/** One argument's value as the flag's parser yields it; throws when it has the wrong type. */
function valueOf(key: string, spec: FlagSpecLike, given: unknown): unknown {
  const schema: ValueSchema = spec.kind === "boolean"
    ? { type: "boolean" }
    : spec.parse?.schema ?? { type: "string" };
  const wrong = (what: string) =>
    new UsageError(`${key}: expected ${what}, got ${JSON.stringify(given)}`);
  switch (schema.type) {
    case "boolean":
      if (typeof given !== "boolean") throw wrong("true or false");
      return spec.kind === "boolean" ? given : parsed(key, spec.parse!, String(given));
    case "integer":
    case "number":
      if (typeof given !== "number") {
        throw wrong(`a ${schema.type === "integer" ? "whole " : ""}number`);
      }
      return parsed(key, spec.parse!, String(given));
    case "array": {
      // The list as the CLI's comma-separated text, through the flag's parser (its choices and
      // messages); a string is that text (`until: "terminal"`, as before it took lists).
      const text = typeof given === "string"
        ? given
        : Array.isArray(given) && given.every((v) => typeof v === "string")
        ? given.join(",")
        : null;
      if (text === null) throw wrong("an array of strings");
      return parsed(key, spec.parse!, text);
    }
    default:
      if (typeof given !== "string") throw wrong("a string");
      return spec.parse ? parsed(key, spec.parse, given) : given;
  }
}

/**
 * The verb call `args` make for `tool` (see the module doc): every flag the verb has, with the
 * defaults the CLI would apply, `json` on, and `defaults` where the call leaves them out.
 */
export function flagsOf(
  tool: ToolSpec,
  args: Record<string, unknown> | undefined,
  defaults: CallDefaults = {},
): VerbCall {
  const spec = VERBS[tool.route];
  const given = args ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new UsageError("the arguments must be an object");
  }
  const known = tool.inputSchema.properties;
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(known, key)) {
      throw new UsageError(
        `unknown argument "${key}" for ${tool.name} (known: ${Object.keys(known).join(", ")})`,
        "unknown_option",
      );
    }
  }
  const present = (key: string) => given[key] !== undefined && given[key] !== null;
  for (const key of tool.inputSchema.required ?? []) {
    if (!present(key)) throw new UsageError(`${key} is required`, "missing_argument");
  }
  const flags: Record<string, unknown> = {};
  for (const [key, flag] of Object.entries(spec.flags as Record<string, FlagSpecLike>)) {
    if (present(key) && !flag.terminal) flags[key] = valueOf(key, flag, given[key]);
    else if (flag.default !== undefined) {
      flags[key] = flag.kind === "boolean" ? flag.default : flag.parse!(String(flag.default));
    }
  }
  if ("json" in spec.flags) flags.json = true;
  if ("projectRoot" in spec.flags && flags.projectRoot === undefined) {
    flags.projectRoot = defaults.projectRoot;
  }
  const positionals: unknown[] = [];
  for (const p of spec.positional?.parameters ?? []) {
    const key = positionalKey(spec, p.placeholder);
    if (key === null || !present(key)) {
      positionals.push(undefined);
      continue;
    }
    const flag: FlagSpecLike = { kind: "parsed", brief: p.brief, parse: p.parse };
    positionals.push(valueOf(key, flag, given[key]));
  }
  while (positionals.length > 0 && positionals[positionals.length - 1] === undefined) {
    positionals.pop();
  }
  return { flags, positionals };
}
