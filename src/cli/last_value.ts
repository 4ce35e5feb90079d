/**
 * A single-value flag given more than once takes its last value, as getopt, Go's `flag`, gh and
 * the older Go lisa do: orchestrators append flags to a base command line (`--model a … --model
 * b`, `--hooks … --no-hooks`). stricli refuses a repeated flag ("Too many arguments"), so the
 * earlier occurrences leave argv before it parses. Every value is still read: a malformed earlier
 * value is reported, not hidden behind a later good one (as Go's `flag` does). A flag declared
 * repeatable (`variadic`) keeps every occurrence. The pre-parsed paths (`preparse.ts`) follow
 * the same rule.
 */
import { looseBooleanParser } from "@stricli/core";
import { routeOf } from "./route_map.ts";
import { VERBS } from "./verbs.ts";

/** A flag spec as this module reads it. */
interface Spec {
  kind: string;
  parse?: (text: string) => unknown;
  inferEmpty?: boolean;
  variadic?: unknown;
  withNegated?: boolean;
  optional?: boolean;
}

/** One occurrence of a flag in argv: the words it spans and the value it gives, if any. */
interface Occurrence {
  at: number;
  words: number;
  /** The value text (`undefined`: a bare boolean, or a value-taking flag without its value). */
  value?: string;
}

// stricli's own patterns for a flag word, a flag with an inline value, and one-letter aliases.
const FLAG_NAME = /^--([a-z][a-z-.\d_]+)$/i;
const FLAG_NAME_VALUE = /^--([a-z][a-z-.\d_]+)=(.+)$/i;
const SHORTHAND = /^-([a-z])$/i;

const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The key of `flags` a `--name` word names (negated booleans included), if any. */
function keyOf(name: string, flags: Readonly<Record<string, Spec>>): string | undefined {
  for (const candidate of [name, camel(name)]) {
    if (Object.hasOwn(flags, candidate)) return candidate;
  }
  const negated = /^no-?(.+)$/.exec(name)?.[1];
  if (negated === undefined) return undefined;
  for (const candidate of [negated, camel(negated), negated[0].toLowerCase() + negated.slice(1)]) {
    const spec = flags[candidate];
    if (Object.hasOwn(flags, candidate) && spec.kind === "boolean" && spec.withNegated !== false) {
      return candidate;
    }
  }
  return undefined;
}

/** True when the value an occurrence gives would be refused by its flag's parser. */
function malformed(spec: Spec, o: Occurrence): boolean {
  if (o.value === undefined) return false;
  try {
    if (spec.kind === "boolean") looseBooleanParser(o.value);
    else spec.parse?.(o.value);
    return false;
  } catch {
    return true;
  }
}

/**
 * `argv` with each repeated single-value flag of the verb it names reduced to one occurrence:
 * the last, or the first whose value is malformed (so the parser reports it). A call that names
 * no verb, or repeats nothing, comes back as it is.
 */
export function lastValueWins(argv: readonly string[]): string[] {
  // Most calls repeat no flag: the verb's table is not needed then (`--no-x` counts as `--x`,
  // and a one-letter alias could stand for any flag).
  const names = argv.filter((w) => w.startsWith("-")).map((w) =>
    w.split("=")[0].replace(/^-+(no-?)?/i, "").replaceAll("-", "").toLowerCase()
  );
  if (new Set(names).size === names.length && !argv.some((w) => SHORTHAND.test(w))) {
    return [...argv];
  }
  const route = routeOf(argv);
  if (route === undefined) return [...argv];
  const flags = VERBS[route].flags as Readonly<Record<string, Spec>>;
  const aliases = VERBS[route].aliases ?? {};
  const isFlagWord = (w: string) =>
    FLAG_NAME.test(w) || FLAG_NAME_VALUE.test(w) || /^-[a-z]+$/i.test(w);
  const seen = new Map<string, Occurrence[]>();
  const note = (key: string, o: Occurrence) => seen.set(key, [...(seen.get(key) ?? []), o]);
  for (let i = route.split(" ").length; i < argv.length; i++) {
    const word = argv[i];
    // stricli reads no further flags after an escape; neither does this.
    if (word === "--") break;
    const inline = FLAG_NAME_VALUE.exec(word);
    if (inline !== null) {
      const key = keyOf(inline[1], flags);
      if (key !== undefined) note(key, { at: i, words: 1, value: inline[2] });
      continue;
    }
    const short = SHORTHAND.exec(word)?.[1];
    const name = FLAG_NAME.exec(word)?.[1];
    const key = short !== undefined
      ? aliases[short]
      : name === undefined
      ? undefined
      : keyOf(name, flags);
    if (key === undefined) continue;
    if (flags[key].kind === "boolean") {
      note(key, { at: i, words: 1 });
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !isFlagWord(next)) {
      note(key, { at: i, words: 2, value: next });
      i++;
    } else note(key, { at: i, words: 1 });
  }
  const drop = new Set<number>();
  for (const [key, occurrences] of seen) {
    const spec = flags[key];
    if (occurrences.length < 2 || spec.variadic) continue;
    const keep = occurrences.find((o) => malformed(spec, o)) ?? occurrences.at(-1)!;
    for (const o of occurrences) {
      if (o === keep) continue;
      for (let k = 0; k < o.words; k++) drop.add(o.at + k);
    }
  }
  return argv.filter((_, i) => !drop.has(i));
}
