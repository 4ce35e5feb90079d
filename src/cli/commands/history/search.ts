/** `lisa history search <words>`: turns whose prompt or reply holds every word. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { historySearchFlags } from "./search_spec.ts";
import { readHistory, searchTurns } from "../../../core/history/mod.ts";

function oneLine(text: string | null, max = 100): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Prints the matching turns, best match first. */
export default async function search(
  this: LisaContext,
  flags: FlagsOf<typeof historySearchFlags>,
  words: string,
): Promise<void> {
  const { value: hits, info } = await readHistory(this.deps, (h) => searchTurns(h, words));
  if (flags.json) {
    printJson(this.deps.io, {
      hits,
      count: hits.length,
      sweep: info.sweep,
      historyDb: info.historyDb,
    });
    return;
  }
  if (hits.length === 0) {
    this.deps.io.out("no match\n");
    return;
  }
  for (const hit of hits) {
    this.deps.io.out(
      `${hit.alias ?? hit.session} #${hit.seq} ${hit.outcome}\n  prompt: ${oneLine(hit.prompt)}\n` +
        `  reply:  ${oneLine(hit.reply)}\n`,
    );
  }
}
