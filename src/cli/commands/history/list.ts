/** `lisa history list`: the sessions history knows, newest first. */
import type { LisaContext } from "../../context.ts";
import { relativeAge, renderTable } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { historyListFlags } from "./list_spec.ts";
import { parseSince } from "../../../base/duration.ts";
import {
  listSessions,
  listSessionsJson,
  projectFilter,
  readHistory,
} from "../../../core/history/mod.ts";
import { formatDuration, formatTokens } from "./format.ts";

/** Lists sessions (table, or JSON with what the read ingested and swept). */
export default async function list(
  this: LisaContext,
  flags: FlagsOf<typeof historyListFlags>,
): Promise<void> {
  const now = this.deps.now();
  const filters = {
    projectRoot: projectFilter(this.deps, flags),
    sinceMs: flags.since === undefined ? undefined : parseSince(flags.since, now.getTime()),
    agent: flags.agent,
  };
  if (flags.json) {
    // The sessions array comes as JSON text from SQLite (see listSessionsJson).
    const { value, info } = await readHistory(this.deps, (h) => listSessionsJson(h, filters));
    const rest = JSON.stringify({ count: value.count, ...info, stderrPolicy: "diagnostic" });
    this.deps.io.out(`{"sessions":${value.json},${rest.slice(1)}\n`);
    return;
  }
  const { value: sessions } = await readHistory(this.deps, (h) => listSessions(h, filters));
  if (sessions.length === 0) {
    this.deps.io.out("no sessions in history\n");
    return;
  }
  const rows = sessions.map((s) => [
    s.alias ?? s.session,
    s.agent ?? "-",
    s.projectRoot ?? "-",
    s.startedAt ? relativeAge(new Date(s.startedAt), now) : "-",
    formatDuration(s.durationMs),
    String(s.turns),
    formatTokens(s.usage),
    (s.finalState ?? (s.endedAt ? "ended" : "open")) + (s.recovered ? " (recovered)" : ""),
  ]);
  this.deps.io.out(
    renderTable([
      "SESSION",
      "AGENT",
      "PROJECT",
      "STARTED",
      "DURATION",
      "TURNS",
      "TOKENS",
      "FINAL",
    ], rows),
  );
}
