/**
 * Flag parsing for the lean paths (`session status`, `session list`), which must not load
 * commander. It accepts exactly the flags it is given (`--flag value`, `--flag=value`, and
 * boolean `--flag`) and returns null for anything else (help, typos, stray words, a missing
 * value), so the full CLI then handles the call with its usual messages.
 */

/** The flags one lean verb understands. */
export interface LeanFlagSpec {
  /** Flags that take a non-empty value. */
  values: readonly string[];
  /** Boolean flags (no value; `--flag=x` is not understood). */
  booleans: readonly string[];
}

/** Parses `argv` against `spec`: flag → value (or true); null when anything is not understood. */
export function parseLeanFlags(
  argv: readonly string[],
  spec: LeanFlagSpec,
): Record<string, string | true> | null {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = flag === arg ? undefined : arg.slice(eq + 1);
    if (spec.values.includes(flag)) {
      let v = inline;
      if (v === undefined) {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith("-")) return null;
        v = next;
        i++;
      }
      if (v === "") return null;
      out[flag] = v;
    } else if (spec.booleans.includes(flag)) {
      if (inline !== undefined) return null;
      out[flag] = true;
    } else {
      return null;
    }
  }
  return out;
}
