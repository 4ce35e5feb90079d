/**
 * The CLI entry: builds the commander tree per call, runs one verb, and maps every error to an
 * exit code and (with `--json`) a JSON error payload. The only place that does so.
 */
import { Command, CommanderError } from "@commander-js/extra-typings";
import type { Deps } from "../base/deps.ts";
import { LisaError } from "../base/errors.ts";
import type { CliContext } from "./context.ts";
import { writeError } from "./output.ts";
import { registerCommands } from "./commands/index.ts";

/** The program's version (kept in step with deno.json). */
export { LISA_VERSION as VERSION } from "../base/version.ts";
import { LISA_VERSION as VERSION } from "../base/version.ts";

const COMMANDER_CODES: Record<string, string> = {
  "commander.unknownCommand": "unknown_command",
  "commander.unknownOption": "unknown_option",
  "commander.excessArguments": "unexpected_argument",
  "commander.missingArgument": "missing_argument",
  "commander.optionMissingArgument": "missing_argument",
  "commander.missingMandatoryOptionValue": "missing_argument",
  "commander.invalidArgument": "invalid_argument",
  "commander.invalidOptionArgument": "invalid_argument",
  "commander.conflictingOption": "conflicting_options",
};

/** Builds the whole command tree for one invocation. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command()
    .name("lisa")
    .description(
      "Start, watch, drive and clean up AI coding agents (claude, codex, any command) in tmux.",
    )
    .version(VERSION, "-V, --version", "print the version")
    .showSuggestionAfterError(true)
    .showHelpAfterError(false);
  registerCommands(program, ctx);
  return program;
}

function configure(cmd: Command, io: Deps["io"], captured: { message: string }): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
    outputError: (s) => {
      captured.message = s.replace(/^error: /, "").trim();
    },
  });
  for (const sub of cmd.commands) configure(sub as Command, io, captured);
}

function wantsJson(argv: readonly string[]): boolean {
  return argv.some((a) => a === "--json" || a === "--json-min" || a === "--stream-json");
}

/** The `--help` command to suggest: the known command words before any unknown one. */
function commandPathOf(argv: readonly string[], unknownWord?: string): string {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith("-") || a === unknownWord || words.length >= 2) break;
    words.push(a);
  }
  return words.length > 0 ? `lisa ${words.join(" ")} --help` : "lisa --help";
}

/**
 * Runs lisa with `argv` (without the program name). Returns the exit code; never calls
 * `Deno.exit` and never throws.
 */
export async function main(argv: string[], deps: Deps): Promise<number> {
  const ctx: CliContext = { deps, exitCode: 0 };
  const json = wantsJson(argv);
  const captured = { message: "" };
  const program = buildProgram(ctx);
  configure(program, deps.io, captured);
  try {
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" || error.code === "commander.version" ||
        error.code === "commander.help"
      ) {
        return 0;
      }
      if (error.code === "commander.executeSubCommandAsync") return 0;
      const code = COMMANDER_CODES[error.code] ?? "invalid_argument";
      const message = captured.message || error.message.replace(/^error: /, "");
      // A bare group (`lisa session`) prints its help and exits 1.
      const unknownWord = /unknown command '([^']*)'/.exec(message)?.[1];
      writeError(deps.io, json, code, message, {}, `(see: ${commandPathOf(argv, unknownWord)})`);
      return 1;
    }
    if (error instanceof LisaError) {
      writeError(
        deps.io,
        json,
        error.code,
        error.message,
        error.details,
        error.usage ? `(see: ${commandPathOf(argv)})` : undefined,
      );
      return error.exitCode;
    }
    const message = error instanceof Error ? error.message : String(error);
    writeError(deps.io, json, "internal_error", message);
    return 1;
  }
}
