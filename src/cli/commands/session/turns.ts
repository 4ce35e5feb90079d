/** `lisa session turns`: a session's turns, from history (ingested first). */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson, renderTable } from "../../output.ts";
import type { FlagsOf, turnsFlags } from "../../verbs.ts";
import { readHistory, showSession } from "../../../core/history/query.ts";
import { resolveSession } from "../../../core/session/locate.ts";
import { resolveProject } from "../../../core/session/project.ts";

function oneLine(text: string | null, max = 60): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Lists the turns of `--session` (its newest run). */
export default async function turns(
  this: LisaContext,
  flags: FlagsOf<typeof turnsFlags>,
): Promise<void> {
  // A full name, an alias or an unambiguous prefix of one, as every --session verb; a value the
  // runtime dir does not know is looked up in history as a name or alias (its files may be gone).
  const value = needed(flags.session, "--session");
  const runtimeDir = resolveProject(this.deps, flags.projectRoot).runtimeDir;
  const name = (await resolveSession(this.deps, runtimeDir, value))?.session ?? value;
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
