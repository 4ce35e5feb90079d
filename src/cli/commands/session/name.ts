/** `lisa session name`: the name spawn would use. */
import type { LisaContext } from "../../context.ts";
import { printJson } from "../../output.ts";
import type { FlagsOf } from "../../verb_spec.ts";
import type { nameFlags } from "./name_spec.ts";
import { resolveProject, sessionName } from "../../../core/session/mod.ts";

/** Prints the name spawn would give a session with these flags. */
export default function name(this: LisaContext, flags: FlagsOf<typeof nameFlags>): void {
  const deps = this.deps;
  const agent = flags.agent ?? "claude";
  const mode = flags.mode ?? "interactive";
  const project = resolveProject(deps, flags.projectRoot);
  const session = sessionName({
    projectRoot: project.root,
    agent,
    mode,
    tag: flags.tag,
    now: deps.now(),
  });
  if (flags.json) {
    printJson(deps.io, {
      session,
      agent,
      mode,
      projectRoot: project.root,
      projectHash: project.hash,
    });
  } else deps.io.out(`${session}\n`);
}
