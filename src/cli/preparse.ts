/**
 * A pre-parser for the hottest verbs (`session status`, polled constantly, and `session list`):
 * it reads argv against the verb's flag specs from its declaration (`commands/session/*_spec.ts`,
 * the same declarations stricli uses) without loading stricli, and returns null for anything it
 * does not fully understand (help, short flags, unknown flags, a missing or bad value), so the
 * full command line then handles the call with its usual messages. A repeated flag takes its last value, as on
 * the full command line (`last_value.ts`); every value is still read. Nothing is declared twice.
 */

/** The subset of a stricli flag spec the pre-parser reads. */
export interface Spec {
  kind: string;
  parse?: (text: string) => unknown;
  optional?: boolean;
  default?: unknown;
}

function camel(kebab: string): string {
  return kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The flags `argv` sets for `specs` (defaults applied), or null (see the module doc). */
export function preparse(
  argv: readonly string[],
  specs: Readonly<Record<string, Spec>>,
): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--") || arg === "--") return null;
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    let key = camel(name);
    let spec: Spec | undefined = specs[key];
    let value: unknown;
    if (spec === undefined && name.startsWith("no-")) {
      key = camel(name.slice(3));
      spec = specs[key];
      if (spec?.kind !== "boolean" || spec.default !== true || inline !== undefined) return null;
      value = false;
    } else if (spec === undefined) {
      return null;
    } else if (spec.kind === "boolean") {
      if (inline !== undefined) return null;
      value = true;
    } else {
      const text = inline ?? argv[++i];
      if (text === undefined || (inline === undefined && text.startsWith("--"))) return null;
      try {
        value = spec.parse!(text);
      } catch {
        return null;
      }
    }
    out[key] = value;
  }
  for (const [key, spec] of Object.entries(specs)) {
    if (key in out) continue;
    if (spec.kind === "boolean") {
      if (spec.default !== undefined) out[key] = spec.default;
    } else if (spec.default !== undefined) {
      out[key] = spec.parse!(String(spec.default));
    } else if (!spec.optional) return null;
  }
  return out;
}
