/**
 * Lean path for `lisa session status`: parses its flags without commander (~25 ms of start-up)
 * and never loads `node:*`. It understands exactly the flags of the full verb (`--session`,
 * `--project-root`, `--json`, `--json-min`, `--fail-not-found`, each also as `--flag=value`);
 * for anything else (help, typos, a missing session name) it returns null, and the full CLI
 * handles the call with its usual messages.
 */
import type { Deps } from "../core/deps.ts";
import { LisaError } from "../core/errors.ts";
import { sessionStatus } from "../core/status.ts";
import { printJson } from "./output.ts";
import { printStatus, statusExitCode } from "./status_render.ts";

/** Flags of a fully understood status call. */
export interface FastStatusArgs {
  session: string;
  projectRoot?: string;
  json: boolean;
  jsonMin: boolean;
  failNotFound: boolean;
}

/** Parses status argv (after `session status`); null when anything is not understood. */
export function parseFastStatusArgs(argv: readonly string[]): FastStatusArgs | null {
  const out: Partial<FastStatusArgs> = { json: false, jsonMin: false, failNotFound: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = flag === arg ? undefined : arg.slice(eq + 1);
    const value = (): string | null => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("-")) return null;
      i++;
      return next;
    };
    switch (flag) {
      case "--session":
      case "--project-root": {
        const v = value();
        if (v === null || v === "") return null;
        if (flag === "--session") out.session = v;
        else out.projectRoot = v;
        break;
      }
      case "--json":
      case "--json-min":
      case "--fail-not-found":
        if (inline !== undefined) return null;
        if (flag === "--json") out.json = true;
        else if (flag === "--json-min") out.jsonMin = true;
        else out.failNotFound = true;
        break;
      default:
        return null;
    }
  }
  return out.session === undefined ? null : out as FastStatusArgs;
}

/** Runs status when argv is fully understood; otherwise returns null. */
export async function fastStatus(argv: string[], deps: Deps): Promise<number | null> {
  const args = parseFastStatusArgs(argv);
  if (args === null) return null;
  try {
    const { report } = await sessionStatus(deps, {
      session: args.session,
      projectRoot: args.projectRoot,
    });
    printStatus(deps.io, report, args);
    return statusExitCode(report, args.failNotFound);
  } catch (error) {
    if (!(error instanceof LisaError)) return null; // the full CLI reports it as usual
    // Same shape as src/cli/run.ts's reportError (which the lean path cannot import).
    if (args.json || args.jsonMin) {
      printJson(deps.io, {
        ok: false,
        errorCode: error.code,
        error: error.message,
        ...error.details,
      });
    } else {
      const hint = error.usage ? "(see: lisa session status --help)\n" : "";
      deps.io.err(`lisa: ${error.message}\n${hint}`);
    }
    return error.exitCode;
  }
}
