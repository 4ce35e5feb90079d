/** `lisa history show <session|alias>`: one session turn by turn. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { historyShowFlags } from "./show_spec.ts";
import { historySubject, readHistory, showSession } from "../../../core/history/mod.ts";
import { describeTokens, formatDuration, indent } from "./format.ts";

/** Prints the session's turns: prompt, tools, reply, durations; then its plans. */
export default async function show(
  this: LisaContext,
  flags: FlagsOf<typeof historyShowFlags>,
  name: string,
): Promise<void> {
  // Resolved as for every --session verb (an alias or a unique prefix of one, the current
  // project's session of a name first); anything else is looked up in history as given.
  const { name: session, prefer } = await historySubject(this.deps, name);
  const { value: s, info } = await readHistory(this.deps, (h) => showSession(h, session, prefer));
  if (flags.json) {
    const { turnList, ...session } = s;
    printJson(this.deps.io, {
      ...session,
      turns: turnList,
      sweep: info.sweep,
      historyDb: info.historyDb,
    });
    return;
  }
  const io = this.deps.io;
  io.out(
    `${s.session}${s.alias ? ` (${s.alias})` : ""}  ${s.agent ?? "-"}  ${s.projectRoot ?? "-"}\n` +
      `started ${s.startedAt ?? "-"}  ended ${s.endedAt ?? "-"}  ` +
      `final ${s.finalState ?? "open"}${s.exitCode !== null ? ` (exit ${s.exitCode})` : ""}` +
      `${s.recovered ? " recovered" : ""}\n` +
      `tokens ${describeTokens(s.usage)}\n`,
  );
  for (const t of s.turnList) {
    const own = t.trigger === "background" ? "  (the agent's own: background work ended)" : "";
    io.out(
      `\n#${t.seq} ${t.outcome}  ${formatDuration(t.durationMs)}  ${t.startedAt ?? ""}${own}\n`,
    );
    if (t.prompt !== null) io.out(`  prompt:\n${indent(t.prompt)}\n`);
    for (const tool of t.tools) {
      io.out(
        `  tool: ${tool.tool}${tool.input ? ` ${tool.input}` : ""}` +
          `${tool.durationMs !== null ? ` (${formatDuration(tool.durationMs)})` : ""}\n`,
      );
    }
    if (t.reply !== null) io.out(`  reply:\n${indent(t.reply)}\n`);
    if (t.error !== null) io.out(`  error: ${t.error}\n`);
    if (t.usage !== null) io.out(`  tokens: ${describeTokens(t.usage)}\n`);
  }
  for (const p of s.plans) {
    io.out(`\nplan ${p.path}\n${p.content === null ? "" : indent(p.content)}\n`);
  }
}
