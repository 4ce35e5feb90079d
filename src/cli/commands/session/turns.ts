/** `lisa session turns`: a session's turns, from history (ingested first). */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson, renderTable } from "../../output.ts";
import type { FlagsOf, turnsFlags } from "../../verbs.ts";
import { readHistory, showSession } from "../../../core/history/query.ts";
import { validateSessionName } from "../../../core/session/identity.ts";

function oneLine(text: string | null, max = 60): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Lists the turns of `--session` (its newest run). */
export default async function turns(
  this: LisaContext,
  flags: FlagsOf<typeof turnsFlags>,
): Promise<void> {
  const name = validateSessionName(needed(flags.session, "--session"));
  const { value: s } = await readHistory(this.deps, (h) => showSession(h, name));
  if (flags.json) {
    printJson(this.deps.io, { session: s.session, runId: s.runId, turns: s.turnList });
    return;
  }
  const rows = s.turnList.map((t) => [
    String(t.seq),
    t.outcome,
    t.durationMs === null ? "-" : `${(t.durationMs / 1000).toFixed(1)}s`,
    String(t.tools.length),
    oneLine(t.prompt),
    oneLine(t.reply),
  ]);
  this.deps.io.out(renderTable(["#", "OUTCOME", "DURATION", "TOOLS", "PROMPT", "REPLY"], rows));
}
