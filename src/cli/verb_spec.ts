/**
 * The shape of a verb's declaration (`commands/<group>/<verb>_spec.ts`: its route, flags, help
 * and the loader of its implementation) and the types derived from it: the flags object a verb
 * receives, an implementation, and the hooks the table and tests wrap implementations with.
 * Types only, but for nothing: loading it loads nothing.
 */
import type { LisaContext } from "./context.ts";

/** The value a flag spec parses to. */
type ValueOf<S> = S extends { kind: "boolean" } ? boolean
  : S extends { parse: (text: string) => infer T } ? T
  : never;

/** The flags object a verb receives for the flag specs `S`. */
export type FlagsOf<S> = {
  readonly [K in keyof S]: S[K] extends { optional: true } ? ValueOf<S[K]> | undefined
    : ValueOf<S[K]>;
};

/** A verb implementation: `this` is the context, then the parsed flags and positionals. */
export type VerbImpl<S, A extends readonly unknown[] = []> = (
  this: LisaContext,
  flags: FlagsOf<S>,
  ...args: A
) => void | Promise<void>;

/** A module of `commands/`: its default export is the verb. */
// deno-lint-ignore no-explicit-any
export type VerbModule = { default: VerbImpl<any, any> };

/** Replaces verb implementations (CLI tests: argv → flags without running anything). */
// deno-lint-ignore no-explicit-any
export type ImplOverrides = Partial<Record<string, VerbImpl<any, any>>>;

/** Wraps an implementation so the route id travels with it (errors name the verb's help). */
export type Guard = (route: string, impl: VerbModule["default"]) => VerbModule["default"];

/** One verb of the table. */
export interface VerbSpec {
  /** The words that name it (`session spawn`); the key of `VERBS` (`verbs.ts`). */
  route: string;
  brief: string;
  fullDescription?: string;
  // deno-lint-ignore no-explicit-any
  flags: Record<string, any>;
  /** Positional arguments (a tuple), in stricli's shape. */
  positional?: {
    kind: "tuple";
    parameters: readonly {
      brief: string;
      placeholder: string;
      // deno-lint-ignore no-explicit-any
      parse: (t: string) => any;
      optional?: boolean;
      /** What shell completion offers for it: live sessions, or the sessions of history. */
      completes?: "sessions" | "history";
    }[];
  };
  /** One-letter flag aliases (`{ v: "verbose" }` lets `-v` stand for `--verbose`). */
  aliases?: Readonly<Record<string, string>>;
  /**
   * The verb as an MCP tool (`src/mcp/tools.ts`): `false` when it is not one (it needs a
   * terminal), else arguments the tool requires beyond the CLI's, and a note for its description.
   */
  mcp?: false | { require?: readonly string[]; note?: string };
  load: () => Promise<VerbModule>;
}
