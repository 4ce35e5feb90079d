/** `lisa session monitor`: poll a session until it ends or a gate opens. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { monitorFlags } from "./monitor_spec.ts";
import { UsageError } from "../../../base/errors.ts";
import { type MonitorPoll, monitorSession } from "../../../core/monitor/mod.ts";
import { nextAction } from "../../../core/status/mod.ts";
import { markerFields, writeCursorFile } from "../../../core/capture/mod.ts";

/** Polls and prints; exit 0 for success, 2 for a non-success stop. */
export default async function monitor(
  this: LisaContext,
  flags: FlagsOf<typeof monitorFlags>,
): Promise<void> {
  const io = this.deps.io;
  if (flags.emitHandoff && !flags.streamJson) {
    throw new UsageError("--emit-handoff needs --stream-json");
  }
  const handoffCursor = flags.handoffCursorFile;
  const onPoll = (p: MonitorPoll) => {
    if (flags.verbose) {
      io.err(`lisa: poll ${p.poll}: ${p.sessionState} (${p.classificationReason})\n`);
    }
    if (flags.streamJson) {
      printJson(io, { ...p });
      if (flags.emitHandoff) {
        printJson(io, {
          type: "handoff",
          session: p.session,
          poll: p.poll,
          sessionState: p.sessionState,
          status: p.status,
          reason: p.classificationReason,
          nextAction: nextAction(p.sessionState, p.waitingFor),
          nextOffset: p.nextOffset,
        });
        if (handoffCursor !== undefined && p.nextOffset !== null) {
          writeCursorFile(this.deps, handoffCursor, p.nextOffset);
        }
      }
    } else if (!flags.json && !flags.jsonMin) {
      io.out(`poll ${p.poll}: ${p.sessionState} (${p.classificationReason})\n`);
    }
  };
  const result = await monitorSession(this.deps, {
    session: needed(flags.session, "--session"),
    projectRoot: flags.projectRoot,
    pollIntervalSeconds: flags.pollInterval,
    maxPolls: flags.maxPolls,
    timeoutSeconds: flags.timeoutSeconds,
    untilMarker: flags.untilMarker,
    untilState: flags.untilState,
    untilJsonpath: flags.untilJsonpath,
    adaptivePoll: flags.adaptivePoll,
    waitingRequiresTurnComplete: flags.waitingRequiresTurnComplete,
    stopOnWaiting: flags.stopOnWaiting,
    expect: flags.expect,
    onPoll,
  });
  const { monitorExitCode, markers, ...rest } = result;
  // The marker summary under the older Go lisa's names (foundMarkers, markerMatches, …).
  const payload = { ...rest, ...(markers ? markerFields(markers) : {}) };
  this.exitCode = monitorExitCode;
  if (flags.streamJson) printJson(io, { type: "final", ...payload });
  else if (flags.jsonMin) {
    const { session, finalState, exitReason, polls, exitCode, nextOffset } = payload;
    printJson(io, { session, finalState, exitReason, polls, exitCode, nextOffset });
  } else if (flags.json) printJson(io, { ...payload });
  else {
    const code = payload.exitCode === null ? "" : `, exit code ${payload.exitCode}`;
    io.out(
      `${payload.session}: ${payload.finalState} (exitReason ${payload.exitReason}) after ` +
        `${payload.polls} poll${payload.polls === 1 ? "" : "s"}${code}\n`,
    );
  }
}
