/**
 * The command table in stricli's terms: `verbs.ts` (the data) turned into a route map whose
 * commands load their implementation only when they run.
 */
import { buildCommand, buildRouteMap, type Command, type RouteMap } from "@stricli/core";
import type { LisaContext } from "./context.ts";
import { briefOf } from "./flags.ts";
import type { Guard, ImplOverrides, VerbSpec } from "./verb_spec.ts";
import { GROUPS, VERBS } from "./verbs.ts";

function verb(route: string, spec: VerbSpec, options: TableOptions): Command<LisaContext> {
  // deno-lint-ignore no-explicit-any
  return buildCommand<any, any, LisaContext>({
    loader: async () => {
      const impl = options.overrides?.[route] ?? (await spec.load()).default;
      return options.guard ? options.guard(route, impl) : impl;
    },
    parameters: {
      // Each verb's help says what a shared flag does for that verb.
      flags: Object.fromEntries(
        Object.entries(spec.flags).map((
          [key, flag],
        ) => [key, { ...flag, brief: briefOf(flag, route) }]),
      ),
      ...(spec.aliases ? { aliases: spec.aliases } : {}),
      // deno-lint-ignore no-explicit-any
      ...(spec.positional ? { positional: spec.positional as any } : {}),
    },
    docs: {
      brief: spec.brief,
      ...(spec.fullDescription ? { fullDescription: spec.fullDescription } : {}),
    },
  });
}

/** How {@link buildTable} wires implementations. */
export interface TableOptions {
  /** Implementations to use instead of `commands/` (tests). */
  overrides?: ImplOverrides;
  /** Wraps every implementation (`run.ts`: maps thrown errors to exit codes and JSON). */
  guard?: Guard;
  /**
   * Build only this route (a call that names a verb outright): the other verbs' commands are
   * neither built nor validated. Help of a group and "did you mean" need the whole table.
   */
  only?: string;
}

/** The route `argv` names outright (its leading words are a verb of the table), if any. */
export function routeOf(argv: readonly string[]): string | undefined {
  for (let n = Math.min(argv.length, 3); n > 0; n--) {
    const route = argv.slice(0, n).join(" ");
    if (Object.hasOwn(VERBS, route)) return route;
  }
  return undefined;
}

/** The group `argv`'s leading words name (`session`, `history`), or "" (the root). */
export function groupOf(argv: readonly string[]): string {
  for (let n = Math.min(argv.length, 2); n > 0; n--) {
    const group = argv.slice(0, n).join(" ");
    if (Object.hasOwn(GROUPS, group)) return group;
  }
  return "";
}

/**
 * The command words of `argv` that exist (a verb's route, else a group's), so a help hint
 * never repeats a typo: `session sned` → `["session"]`.
 */
export function commandWordsOf(argv: readonly string[]): string[] {
  return (routeOf(argv) ?? groupOf(argv)).split(" ").filter((w) => w !== "");
}

/** Builds the route map of every verb. */
export function buildTable(options: TableOptions = {}): RouteMap<LisaContext> {
  const groups = new Map<string, Record<string, Command<LisaContext> | RouteMap<LisaContext>>>();
  const groupOf = (name: string) => {
    let g = groups.get(name);
    if (g === undefined) groups.set(name, g = {});
    return g;
  };
  const routes = options.only !== undefined ? [options.only] : Object.keys(VERBS);
  for (const route of routes) {
    const spec = VERBS[route];
    const words = route.split(" ");
    const leaf = words.pop()!;
    groupOf(words.join(" "))[leaf] = verb(route, spec, options);
  }
  // Nested groups, deepest first, become routes of their parents.
  const names = [...groups.keys()].filter((n) => n !== "").sort((a, b) =>
    b.split(" ").length - a.split(" ").length
  );
  for (const name of names) {
    const words = name.split(" ");
    const leaf = words.pop()!;
    groupOf(words.join(" "))[leaf] = buildRouteMap({
      routes: groups.get(name)!,
      docs: { brief: GROUPS[name] ?? name },
    });
  }
  return buildRouteMap({ routes: groups.get("")!, docs: { brief: GROUPS[""] } });
}

/**
 * Line ends. stricli matches `--flag=value` with `(.+)$` and flags with `^-…$` patterns, none
 * of which crosses a line end: a word holding one is never a flag (it is the value of the
 * flag before it), and `--text=<multi-line text>` is no flag either (stricli reported it as an
 * unexpected argument), so such a word is split into the flag and its value.
 */
const LINE_END = /[\n\r\u2028\u2029]/;

/** True for `--name=value` whose value holds a line end (see {@link LINE_END}). */
function inlineValueHasLineEnd(word: string): boolean {
  const eq = word.indexOf("=");
  return word.startsWith("--") && eq > 2 && LINE_END.test(word.slice(eq + 1));
}

/**
 * Joins a value that starts with `-` to its flag (`--agent-args --verbose` →
 * `--agent-args=--verbose`), as the older Go lisa's flag parser read it, so lines such as
 * `--agent-args '--dangerously-bypass-approvals-and-sandbox'` keep working. Only for flags that
 * take a value, and only when the next word is not itself a flag of the verb (then the value
 * is missing, and the parser says so).
 */
export function joinDashValues(argv: readonly string[]): string[] {
  // Most calls have no flag followed by a dash-led word: nothing to join, and the flag table
  // below (built cold on every call) is not needed.
  if (
    !argv.some((w, i) =>
      w.startsWith("--") && (argv[i + 1]?.startsWith("-") || inlineValueHasLineEnd(w))
    )
  ) return [...argv];
  const route = routeOf(argv);
  if (route === undefined) return [...argv];
  const flags = VERBS[route].flags as Record<string, { kind: string; inferEmpty?: boolean }>;
  const kebab = (k: string) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const known = new Set(["--help", "-h", "--helpAll", "--help-all"]);
  for (const [key, spec] of Object.entries(flags)) {
    known.add(`--${kebab(key)}`).add(`--${key}`);
    if (spec.kind === "boolean") {
      known.add(`--no-${kebab(key)}`).add(`--no${key[0].toUpperCase()}${key.slice(1)}`);
    }
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    const next = argv[i + 1];
    if (word === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (inlineValueHasLineEnd(word)) {
      // `--text=a<newline>b`: stricli would not read it as a flag at all (see LINE_END).
      const eq = word.indexOf("=");
      out.push(word.slice(0, eq), word.slice(eq + 1));
      continue;
    }
    const name = word.startsWith("--") && !word.includes("=") ? word.slice(2) : undefined;
    const camel = name?.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const spec = camel === undefined ? undefined : flags[camel];
    if (spec?.kind === "parsed" && !spec.inferEmpty && next !== undefined && LINE_END.test(next)) {
      // A word with a line end is never a flag to stricli, dash-led or not: it is the value as
      // it stands; joined, it would be no flag either (see LINE_END).
      out.push(word, next);
      i++;
    } else if (
      spec?.kind === "parsed" && !spec.inferEmpty && next !== undefined && next.startsWith("-") &&
      next !== "-" && !known.has(next.split("=")[0]) && !/^-\d/.test(next)
    ) {
      out.push(`${word}=${next}`);
      i++;
    } else out.push(word);
  }
  return out;
}
