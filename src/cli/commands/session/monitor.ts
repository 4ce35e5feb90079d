/** `lisa session monitor`: poll a session until it ends or a gate opens. */
import type { Command } from "@commander-js/extra-typings";
import type { CliContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import { boolArg, choiceArg, intArg, numberArg } from "../../options.ts";
import { EXPECTS, type MonitorPoll, monitorSession } from "../../../core/status/monitor.ts";
import { SESSION_STATES } from "../../../base/types.ts";

/** Registers `lisa session monitor`. */
export function registerMonitor(session: Command, ctx: CliContext): void {
  session
    .command("monitor")
    .description(
      "poll a session until it completes, fails, waits for input, or a gate opens " +
        "(exit 0 success, 2 non-success, 1 error)",
    )
    .requiredOption("--session <name>", "session name")
    .option("--project-root <dir>", "project root (default: LISA_PROJECT_ROOT, else cwd)")
    .option(
      "--poll-interval <seconds>",
      "seconds between polls (fractions allowed)",
      numberArg(0),
      30,
    )
    .option(
      "--max-polls <n>",
      "stop after N polls (default 120; no limit with only a timeout)",
      intArg(1),
    )
    .option(
      "--timeout-seconds <seconds>",
      "stop after this long (exitReason timeout, exit 2)",
      numberArg(0),
    )
    .option(
      "--until-marker <text>",
      "stop when this text appears in the pane or its history (prompt echoes ignored)",
    )
    .option(
      "--until-state <state>",
      `stop when the state is reached (${SESSION_STATES.join("|")})`,
      choiceArg(SESSION_STATES),
    )
    .option("--stop-on-waiting [bool]", "stop on waiting_input: true|false", boolArg, true)
    .option(
      "--expect <what>",
      "success only for: any|terminal|marker",
      choiceArg(EXPECTS),
      "any" as const,
    )
    .option("--json", "print the final payload as JSON")
    .option("--json-min", "print a compact final payload")
    .option("--stream-json", "print one JSON line per poll, then the final payload")
    .action(async (opts) => {
      const io = ctx.deps.io;
      const onPoll = (p: MonitorPoll) => {
        if (opts.streamJson) printJson(io, { ...p });
        else if (!opts.json && !opts.jsonMin) {
          io.out(`poll ${p.poll}: ${p.sessionState} (${p.classificationReason})\n`);
        }
      };
      const result = await monitorSession(ctx.deps, {
        session: opts.session,
        projectRoot: opts.projectRoot,
        pollIntervalSeconds: opts.pollInterval,
        maxPolls: opts.maxPolls,
        timeoutSeconds: opts.timeoutSeconds,
        untilMarker: opts.untilMarker,
        untilState: opts.untilState,
        stopOnWaiting: opts.stopOnWaiting,
        expect: opts.expect,
        onPoll,
      });
      const { monitorExitCode, ...payload } = result;
      ctx.exitCode = monitorExitCode;
      if (opts.streamJson) printJson(io, { type: "final", ...payload });
      else if (opts.jsonMin) {
        const { session, finalState, exitReason, polls, exitCode, nextOffset } = payload;
        printJson(io, { session, finalState, exitReason, polls, exitCode, nextOffset });
      } else if (opts.json) printJson(io, { ...payload });
      else {
        const code = payload.exitCode === null ? "" : `, exit code ${payload.exitCode}`;
        io.out(
          `${payload.session}: ${payload.finalState} (exitReason ${payload.exitReason}) after ` +
            `${payload.polls} poll${payload.polls === 1 ? "" : "s"}${code}\n`,
        );
      }
    });
}
