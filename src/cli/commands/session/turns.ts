/** `lisa session turns`: a session's turns, from history (ingested first). */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson, renderTable } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { turnsFlags } from "./turns_spec.ts";
import { historySubject, readHistory, showSession } from "../../../core/history/mod.ts";
import { formatTokens } from "../history/format.ts";

function oneLine(text: string | null, max = 60): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Lists the turns of `--session` (its newest run). */
export default async function turns(
  this: LisaContext,
  flags: FlagsOf<typeof turnsFlags>,
): Promise<void> {
  // A full name, an alias or an unambiguous prefix of one, as every --session verb (the current
  // project's session of a name first); a value nothing else knows is looked up in history.
  const value = needed(flags.session, "--session");
  const { name, prefer } = await historySubject(this.deps, value, flags.projectRoot);
  const { value: s } = await readHistory(this.deps, (h) => showSession(h, name, prefer));
  if (flags.json) {
    printJson(this.deps.io, {
      session: s.session,
      runId: s.runId,
      usage: s.usage,
      turns: s.turnList,
    });
    return;
  }
  const rows = s.turnList.map((t) => [
    // The agent's own turn (it reports background work that ended) is marked `*`.
    `${t.seq}${t.trigger === "background" ? "*" : ""}`,
    t.outcome,
    t.durationMs === null ? "-" : `${(t.durationMs / 1000).toFixed(1)}s`,
    String(t.tools.length),
    formatTokens(t.usage),
    oneLine(t.prompt),
    oneLine(t.reply),
  ]);
  this.deps.io.out(
    renderTable(["#", "OUTCOME", "DURATION", "TOOLS", "TOKENS", "PROMPT", "REPLY"], rows),
  );
}
