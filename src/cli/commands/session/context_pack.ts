/** `lisa session context-pack`: a handoff rendered to fit a token budget. */
import type { LisaContext } from "../../context.ts";
import { needed } from "../../flags.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { contextPackFlags } from "./context_pack_spec.ts";
import { handoffSession, packContext } from "../../../core/monitor/mod.ts";
import { UsageError } from "../../../base/errors.ts";

/** Default token budget of a pack. */
const DEFAULT_TOKEN_BUDGET = 700;

/** Prints the pack (JSON, compact JSON, or the pack text). */
export default async function contextPack(
  this: LisaContext,
  flags: FlagsOf<typeof contextPackFlags>,
): Promise<void> {
  if (flags.for !== undefined && flags.session !== undefined && flags.for !== flags.session) {
    throw new UsageError("--for and --session name different sessions", "conflicting_options");
  }
  const h = await handoffSession(this.deps, {
    session: needed(flags.for ?? flags.session, "--for"),
    projectRoot: flags.projectRoot,
    events: flags.events ?? 10,
    lines: flags.lines,
  });
  const pack = packContext(h, flags.tokenBudget ?? DEFAULT_TOKEN_BUDGET, flags.strategy);
  const io = this.deps.io;
  if (flags.jsonMin || flags.json) printJson(io, { ...pack });
  else io.out(`${pack.pack}\n`);
}
