/**
 * The CLI entry: runs one call of lisa on the command table (`route_map.ts`) and is the one place
 * where every failure becomes an exit code and, under `--json`, a `{ok:false, errorCode, error}`
 * payload on stdout: parse errors (which stricli reports as negative codes), an unknown
 * command, and any error a verb throws. `lisa hook` is dispatched raw: it must accept any
 * arguments and never fail.
 */
import {
  AliasNotFoundError,
  ArgumentParseError,
  buildApplication,
  EnumValidationError,
  FlagNotFoundError,
  formatMessageForArgumentScannerError,
  help,
  InvalidNegatedFlagSyntaxError,
  run,
  text_en,
  UnexpectedFlagError,
  UnexpectedPositionalError,
  UnsatisfiedFlagError,
  UnsatisfiedPositionalError,
  version,
} from "@stricli/core";
import type { Deps } from "../base/deps.ts";
import { LisaError } from "../base/errors.ts";
import { lazyImport } from "../base/lazy.ts";
import { LISA_VERSION } from "../base/version.ts";
import type { LisaContext } from "./context.ts";
import { helpCommandOf, reportFailure, wantsJson } from "./failure.ts";
import { writeError } from "./output.ts";
import { realDeps } from "./real_deps.ts";
import { buildTable, commandWordsOf, groupOf, joinDashValues, routeOf } from "./route_map.ts";
import { childrenOf, flagsOf } from "./completion_script.ts";
import { closest } from "../base/suggest.ts";
import { lastValueWins } from "./last_value.ts";
import type { Guard, ImplOverrides } from "./verb_spec.ts";
import { namesHost } from "./names_host.ts";

/** The program's version (kept in step with deno.json). */
export { LISA_VERSION as VERSION };

/** A parse failure as lisa reports it. */
interface ParseFailure {
  code: string;
  message: string;
}

/** `camelCase` or `kebab-case` → `kebab-case`, as flags are documented. */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * "unknown flag --x", with the flags of `route` it most likely meant (by their documented
 * spelling), or nothing when none is near; `--no-x` for a flag that has no such form says so.
 */
function unknownFlagMessage(input: string, route: string | undefined): string {
  const typed = `--${input}`;
  if (route === undefined) return `unknown flag ${typed}`;
  const names = [...flagsOf(route).map((f) => f.name), "--help"];
  const negated = /^no-?(.+)$/.exec(input)?.[1];
  if (negated !== undefined && names.includes(`--${kebab(negated)}`)) {
    return `unknown flag ${typed}: --${kebab(negated)} has no --no- form (leave it out)`;
  }
  const hint = closest(`--${kebab(input)}`, names);
  return `unknown flag ${typed}${hint.length > 0 ? ` (did you mean ${hint.join(" or ")}?)` : ""}`;
}

/**
 * Maps a stricli argument error (or what a flag parser threw) to lisa's error code; `route` is
 * the verb the call named (its flags are what an unknown flag is compared with).
 */
export function parseFailureOf(exc: unknown, route?: string): ParseFailure {
  if (exc instanceof ArgumentParseError) {
    const what = exc.externalFlagNameOrPlaceholder;
    const name = /^[a-z][a-zA-Z-]*$/.test(what) && !what.includes("|")
      ? `--${what.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
      : what;
    const reason = exc.exception instanceof Error ? exc.exception.message : String(exc.exception);
    const code = exc.exception instanceof LisaError ? exc.exception.code : "invalid_argument";
    return { code, message: `${name}: ${reason}` };
  }
  if (exc instanceof FlagNotFoundError && exc.aliasName === undefined) {
    return { code: "unknown_option", message: unknownFlagMessage(exc.input, route) };
  }
  if (exc instanceof AliasNotFoundError) {
    return { code: "unknown_option", message: `unknown flag -${exc.input}` };
  }
  const message = exc instanceof Error
    ? formatMessageForArgumentScannerError(exc as never, {})
    : String(exc);
  if (exc instanceof FlagNotFoundError) return { code: "unknown_option", message };
  if (exc instanceof UnsatisfiedFlagError || exc instanceof UnsatisfiedPositionalError) {
    return { code: "missing_argument", message };
  }
  if (exc instanceof UnexpectedPositionalError) return { code: "unexpected_argument", message };
  if (
    exc instanceof ArgumentParseError || exc instanceof EnumValidationError ||
    exc instanceof InvalidNegatedFlagSyntaxError || exc instanceof UnexpectedFlagError
  ) {
    return { code: "invalid_argument", message };
  }
  return { code: "invalid_argument", message };
}

/** Runs the call on the host it names, with that host's lisa (`remote.ts`). */
async function onOtherHost(
  context: LisaContext,
  route: string,
  argv: readonly string[],
  args: readonly unknown[],
): Promise<number | null> {
  const { remoteCallOf, runRemote } = await lazyImport<typeof import("./remote.ts")>(
    new URL("./remote.ts", import.meta.url),
  );
  const call = await remoteCallOf(context, route, argv, args.slice(1));
  if (call === null) return null;
  const flags = (args[0] ?? {}) as Record<string, unknown>;
  return await runRemote(context, route, call, flags.watch !== undefined);
}

/**
 * The guard around every verb: errors become exit codes and (with JSON) payloads; with
 * `remote`, a session verb's call that names another host runs there (`argv`: the call's
 * words, as normalized). Tests that stub the verbs (argv → flags) stub that step too.
 */
function guardFor(helpHint: string, argv: readonly string[], remote: boolean): Guard {
  return (route, impl) =>
    async function (this: LisaContext, ...args: unknown[]) {
      try {
        if (remote && namesHost(route, args)) {
          const code = await onOtherHost(this, route, argv, args);
          if (code !== null) {
            this.exitCode = code;
            return;
          }
        }
        await impl.apply(this, args as never);
      } catch (error) {
        this.exitCode = reportFailure(this.deps, this.json, error, helpHint);
      }
    };
}

/**
 * stricli's English texts, but for its parse errors: each is kept in `failures` (the first one
 * becomes the call's error) instead of printed, an unknown command with the words it could have
 * been.
 */
function parseText(argv: readonly string[], failures: ParseFailure[]) {
  return {
    ...text_en,
    exceptionWhileParsingArguments(exc: unknown) {
      failures.push(parseFailureOf(exc, routeOf(argv)));
      return "";
    },
    noCommandRegisteredForInput({ input }: { input: string }) {
      // The words it could have been: the commands of the group typed so far.
      const hint = input.startsWith("-") ? [] : closest(input, childrenOf(groupOf(argv)));
      const quoted = hint.map((c) => `"${c}"`);
      const suffix = quoted.length > 0 ? ` (did you mean ${quoted.join(" or ")}?)` : "";
      failures.push({ code: "unknown_command", message: `unknown command "${input}"${suffix}` });
      return "";
    },
  };
}

/** Options of {@link main} for tests. */
export interface MainOptions {
  /** Verb implementations to use instead of `commands/` (argv → flags tests). */
  overrides?: ImplOverrides;
}

/**
 * Runs lisa with `argv` (without the program name). Returns the exit code; never calls
 * `Deno.exit` and never throws.
 */
export async function main(
  givenArgv: string[],
  deps: Deps,
  options: MainOptions = {},
): Promise<number> {
  if (givenArgv[0] === "hook") {
    const { runHook } = await lazyImport<typeof import("../core/hook/mod.ts")>(
      new URL("../core/hook/mod.ts", import.meta.url),
    );
    return await runHook(givenArgv.slice(1), deps.env);
  }
  const argv = lastValueWins(joinDashValues(givenArgv));
  const json = wantsJson(argv);
  const helpHint = helpCommandOf(commandWordsOf(argv));
  const failures: ParseFailure[] = [];
  const text = parseText(argv, failures);
  const app = buildApplication<LisaContext>(
    buildTable({
      overrides: options.overrides,
      guard: guardFor(helpHint, argv, options.overrides === undefined),
      only: routeOf(argv),
    }),
    {
      name: "lisa",
      scanner: { caseStyle: "allow-kebab-for-camel" },
      documentation: { disableAnsiColor: true },
      localization: { text },
    },
    // `--version`/`-v` on the root; no latest-version check (it would reach the network).
    {
      help: help({
        brief: "print help information and exit",
        alias: "h",
        defaultForRouteMap: true,
        formatting: {
          caseStyle: "convert-camel-to-kebab",
          useAliasInUsageLine: false,
          onlyRequiredInUsageLine: false,
        },
      }),
      version: version({
        info: { currentVersion: LISA_VERSION },
        brief: "print the version and exit",
        alias: "v",
      }),
    },
  );
  const process: LisaContext["process"] & { exitCode?: number | string | null; env: object } = {
    stdout: { write: (s: string) => deps.io.out(s) },
    // stricli writes only its own error lines there, each already captured in `failures`.
    stderr: { write: (s: string) => s.trim() !== "" && deps.io.err(s) },
    env: {},
  };
  const context: LisaContext = { process, deps, json, exitCode: 0 };
  try {
    await run(app, argv, context);
  } catch (error) {
    return reportFailure(deps, json, error, helpHint);
  }
  const code = Number(process.exitCode ?? 0);
  if (code < 0 || failures.length > 0) {
    const f = failures[0] ?? { code: "internal_error", message: `command line failed (${code})` };
    writeError(deps.io, json, f.code, f.message, {}, `(see: ${helpHint})`);
    return 1;
  }
  return context.exitCode;
}

/** Runs lisa with `argv` in this process's real environment (`main.ts`). */
export function cli(argv: string[], env: Record<string, string>): Promise<number> {
  return main(argv, realDeps(env));
}
