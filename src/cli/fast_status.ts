/**
 * Lean path for `lisa session status`: parses its flags without commander (~25 ms of start-up)
 * and never loads `node:*`. It understands exactly the flags of the full verb (`--session`,
 * `--project-root`, `--json`, `--json-min`, `--fail-not-found`, each also as `--flag=value`);
 * for anything else (help, typos, a missing session name) it returns null, and the full CLI
 * handles the call with its usual messages.
 */
import type { Deps } from "../base/deps.ts";
import { LisaError } from "../base/errors.ts";
import { sessionStatus } from "../core/status/status.ts";
import { reportError } from "./output.ts";
import { parseLeanFlags } from "./lean_args.ts";
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
  const f = parseLeanFlags(argv, {
    values: ["--session", "--project-root"],
    booleans: ["--json", "--json-min", "--fail-not-found"],
  });
  if (f === null || typeof f["--session"] !== "string") return null;
  return {
    session: f["--session"],
    ...(typeof f["--project-root"] === "string" ? { projectRoot: f["--project-root"] } : {}),
    json: f["--json"] === true,
    jsonMin: f["--json-min"] === true,
    failNotFound: f["--fail-not-found"] === true,
  };
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
    reportError(deps.io, args.json || args.jsonMin, error, "lisa session status --help");
    return error.exitCode;
  }
}
